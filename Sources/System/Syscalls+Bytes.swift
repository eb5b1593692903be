import CBlockScan
import Glibc

/// Byte scans at memory speed: memchr, memmem and the analyzer's needle scan across whole blocks.
extension Sys {

    /// The index of the first `byte` in `buffer[range]`. The corresponding C function is `memchr`.
    package static func firstIndex(of byte: UInt8, in buffer: [UInt8], _ range: Range<Int>) -> Int? {
        precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count)
        return buffer.withUnsafeBytes { raw in
            let start = raw.baseAddress! + range.lowerBound
            return memchr(start, Int32(byte), range.count).map { UnsafeRawPointer($0) - raw.baseAddress! }
        }
    }

    /// The index of the last `byte` in `buffer[range]`. The corresponding C function is `memrchr`.
    package static func lastIndex(of byte: UInt8, in buffer: [UInt8], _ range: Range<Int>) -> Int? {
        precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count)
        return buffer.withUnsafeBytes { raw in
            let start = raw.baseAddress! + range.lowerBound
            return sv_memrchr(start, Int32(byte), range.count).map { UnsafeRawPointer($0) - raw.baseAddress! }
        }
    }

    /// Copies `buffer[range]` to `index` on, the two perhaps overlapping. The corresponding C function is `memmove`.
    package static func move(in buffer: inout [UInt8], _ range: Range<Int>, to index: Int) {
        precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count && index >= 0
            && index + range.count <= buffer.count)
        buffer.withUnsafeMutableBytes { raw in
            _ = memmove(raw.baseAddress! + index, raw.baseAddress! + range.lowerBound, range.count)
        }
    }

    /// Copies `source[range]` into `target` from `index` on. The corresponding C function is `memcpy`.
    package static func copy(_ source: [UInt8], _ range: Range<Int>, to target: inout [UInt8], at index: Int = 0) {
        precondition(range.lowerBound >= 0 && range.upperBound <= source.count && index >= 0
            && index + range.count <= target.count)
        guard !range.isEmpty else { return }
        source.withUnsafeBytes { from in
            target.withUnsafeMutableBytes { to in
                _ = memcpy(to.baseAddress! + index, from.baseAddress! + range.lowerBound, range.count)
            }
        }
    }

    /// `count` bytes for a reader that writes each byte before it reads it. Unlike `[UInt8](repeating: 0, count:)`,
    /// it leaves a large buffer's pages untouched until they are used, so a small input read through a large buffer
    /// costs only what it uses.
    package static func unfilledBytes(count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    /// Appends `bytes` to `array`. The corresponding C function is `memcpy`.
    package static func append(_ bytes: Span<UInt8>, to array: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { array.append(contentsOf: $0) }
    }

    /// The index of the first occurrence of `needle` in `haystack`. The corresponding C function is `memmem`.
    package static func firstIndex(of needle: [UInt8], in haystack: Span<UInt8>) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                sv_memmem(hay.baseAddress!, hay.count, pin.baseAddress!, pin.count).map {
                    $0 - UnsafeRawPointer(hay.baseAddress!)
                }
            }
        }
    }

    /// A set of byte strings found all at once, in one vector pass over a whole block: the analyzer's first look
    /// at its input.
    package final class Needles: @unchecked Sendable {
        fileprivate let set: OpaquePointer

        /// At most 64 needles of 1 to 32 bytes, none holding a newline (a hit is always within a line).
        package init(_ needles: [[UInt8]]) {
            let flat = needles.flatMap { $0.map { CChar(bitPattern: $0) } }
            let lengths = needles.map(\.count)
            let set = flat.withUnsafeBufferPointer { base -> OpaquePointer? in
                var offset = 0
                let pointers: [UnsafePointer<CChar>?] = lengths.map { length in
                    defer { offset += length }
                    return base.baseAddress! + offset
                }
                return sv_needles_new(pointers, lengths, Int32(lengths.count))
            }
            guard let set else { preconditionFailure("needles outside sv_needles_new's limits") }
            self.set = set
        }

        deinit { sv_needles_free(set) }

        /// The vector paths this set may use: 0 none, 1 AVX2, 2 AVX-512BW (never more than the CPU has).
        package func limit(level: Int) {
            sv_needles_limit_level(set, Int32(level))
        }

        /// Whether any needle occurs in `haystack`. The corresponding C function is `sv_needles_any`.
        package func occur(in haystack: Span<UInt8>) -> Bool {
            haystack.withUnsafeBufferPointer { sv_needles_any(set, $0.baseAddress, $0.count) != 0 }
        }

        /// Where a needle first starts in `buffer[range]` (its upper bound if none does), how many newlines come
        /// before it in the range, and where its line starts. The corresponding C function is `sv_needles_next`.
        package func next(in buffer: [UInt8], _ range: Range<Int>) -> (at: Int, newlines: Int, lineStart: Int) {
            precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count)
            var newlines = 0
            var lineStart = 0
            let at = buffer.withUnsafeBytes { raw in
                sv_needles_next(set, raw.baseAddress, range.lowerBound, range.upperBound, &newlines, &lineStart)
            }
            return (at, newlines, lineStart)
        }
    }

    /// A needle `NeedleThread` found: where it starts, where its line starts, and the newlines before that line.
    package typealias NeedleHit = sv_needle_hit

    /// A helper thread that finds needles in one block while its owner works on another: the analyzer's second core.
    package final class NeedleThread {
        private let thread: OpaquePointer
        /// The set the thread reads, kept alive as long as it runs.
        private let needles: Needles

        /// Nil if the thread cannot start (the caller then scans alone).
        package init?(_ needles: Needles) {
            guard let thread = sv_needle_thread_new(needles.set) else { return nil }
            self.thread = thread
            self.needles = needles
        }

        deinit { sv_needle_thread_free(thread) }

        /// Runs `body` while the thread finds the first needle of each line of `buffer[range]`, up to `hits.count`
        /// of them; returns how many it found, where it stopped (`range.upperBound`, or the start of the line after
        /// the last hit when `hits` filled up) and the newlines in `range` before that. The corresponding C functions
        /// are `sv_needle_thread_start` and `sv_needle_thread_wait`.
        package func scanning(
            _ buffer: [UInt8], _ range: Range<Int>, into hits: inout [NeedleHit], while body: () -> Void
        ) -> (count: Int, end: Int, newlines: Int) {
            precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count)
            return buffer.withUnsafeBytes { raw in
                hits.withUnsafeMutableBufferPointer { slots in
                    sv_needle_thread_start(thread, raw.baseAddress, range.lowerBound, range.upperBound, slots.baseAddress,
                                           slots.count)
                    body()
                    var end = 0
                    var newlines = 0
                    let count = sv_needle_thread_wait(thread, &end, &newlines)
                    return (count, end, newlines)
                }
            }
        }
    }
}
