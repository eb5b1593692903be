// MARK: - Encoding

extension WireMessage {
    /// This message as a standalone frame.
    public var frame: [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }
}

extension [UInt8] {
    /// Appends a frame's header with its length still zero, and returns where the frame starts.
    mutating func beginFrame(_ tag: UInt8) -> Int {
        let start = count
        appendInteger(UInt32(0))
        append(tag)
        return start
    }

    /// Writes the length of the frame that starts at `start` and ends here into its header.
    mutating func endFrame(from start: Int) {
        let length = UInt32(truncatingIfNeeded: count - start - 4).littleEndian
        withUnsafeMutableBytes { $0.storeBytes(of: length, toByteOffset: start, as: UInt32.self) }
    }

    mutating func appendInteger<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    mutating func appendBytes(_ bytes: [UInt8]) {
        appendInteger(UInt32(bytes.count))
        append(contentsOf: bytes)
    }

    mutating func appendStrings(_ strings: [String]) {
        appendInteger(UInt32(strings.count))
        for string in strings { appendString(string) }
    }

    mutating func appendString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            appendInteger(UInt32(utf8.count))
            append(contentsOf: utf8)
        }
    }
}

// MARK: - Decoding

/// Reassembles the frames of one direction from a byte stream that arrives in arbitrary pieces: the supervisor
/// reads `FrameDecoder<FromWorker>`, a worker `FrameDecoder<ToWorker>`.
///
/// Bytes go in with `append`; whole messages come out of `next()`. A length above `maxFrameSize` is rejected as soon
/// as its four header bytes arrive, so a hostile peer cannot make the reader buffer a gigabyte first.
///
/// Inlinable, so that the supervisor's module specializes it for the direction it reads: called through generic
/// metadata from another module, it cost the channel's round trip a tenth.
public struct FrameDecoder<Message: WireMessage>: Sendable {
    @usableFromInline var buffer: [UInt8] = []
    @usableFromInline var start = 0

    @inlinable public init() {}

    /// Bytes received but not yet returned as messages.
    @inlinable public var pendingByteCount: Int { buffer.count - start }

    @inlinable public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete message, or nil until more bytes arrive.
    @inlinable public mutating func next() throws(WireError) -> Message? {
        guard buffer.count - start >= 4 else { return nil }
        var length = 0
        for i in 0..<4 { length |= Int(buffer[start + i]) << (8 * i) }
        guard length <= maxFrameSize else { throw .oversized(length: length) }
        guard length > 0 else { throw .emptyFrame }
        guard buffer.count - start >= 4 + length else { return nil }
        let body = start + 4
        start = body + length
        let result = buffer.withUnsafeBytes { bytes in
            Result { () throws(WireError) in try Message.decode(UnsafeRawBufferPointer(rebasing: bytes[body..<body + length])) }
        }
        let message = try result.get()
        if start > 4096 && start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        return message
    }
}

extension FrameDecoder where Message == FromWorker {
    /// For a supervisor that took a channel over mid-stream (issue 34): drops every byte before the `resynced`
    /// frame that answers `generation`, which may be mid-frame, and returns true once that frame is next; until it
    /// has arrived, keeps only the bytes that may begin it. Nothing before it is ever decoded, so a frame cut in half
    /// by the supervisor before is never misread.
    public mutating func skip(toResynced generation: UInt64) -> Bool {
        var pattern: [UInt8] = [32]
        pattern.appendInteger(resyncMarker)
        pattern.appendInteger(generation)
        let searchFrom = start + 4
        if buffer.count >= searchFrom + pattern.count {
            for at in searchFrom...(buffer.count - pattern.count) where buffer[at] == pattern[0] {
                guard buffer[at..<at + pattern.count].elementsEqual(pattern) else { continue }
                start = at - 4
                return true
            }
        }
        // The frame may begin in the last bytes: its length, then all but the last byte of the pattern.
        start = max(start, buffer.count - (4 + pattern.count - 1))
        if start > 4096 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        return false
    }
}

extension WireMessage {
    /// A frame body read by `fields`, which knows this direction's tags: nothing may be left over, and every limit
    /// must hold.
    static func decodeFrame(
        _ body: UnsafeRawBufferPointer, _ fields: (UInt8, inout PayloadReader) throws(WireError) -> Self
    ) throws(WireError) -> Self {
        guard let tag = body.first else { throw .emptyFrame }
        var reader = PayloadReader(payload: UnsafeRawBufferPointer(rebasing: body[1...]), tag: tag)
        let message = try fields(tag, &reader)
        guard reader.remaining == 0 else { throw .trailingBytes(tag: tag, count: reader.remaining) }
        if let violation = message.limitViolation { throw violation }
        return message
    }
}

extension WireError {
    /// What a tag this side does not read is: a message of the other direction, or no message at all.
    static func notOfThisDirection(_ tag: UInt8) -> WireError {
        (1...highestTag).contains(tag) ? .misdirected(tag: tag) : .unknownTag(tag)
    }
}

struct PayloadReader {
    let payload: UnsafeRawBufferPointer
    let tag: UInt8
    var offset = 0

    var remaining: Int { payload.count - offset }

    mutating func take(_ count: Int) throws(WireError) -> UnsafeRawBufferPointer {
        guard count <= remaining else { throw .truncated(tag: tag) }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: payload[offset..<offset + count])
    }

    mutating func integer<T: FixedWidthInteger>() throws(WireError) -> T {
        let raw = try take(MemoryLayout<T>.size)
        var value = T.zero
        for i in 0..<MemoryLayout<T>.size { value |= T(raw[i]) << (8 * i) }
        return value
    }

    /// A one-byte enumeration; a byte no case has is out of range.
    mutating func raw<T: RawRepresentable<UInt8>>(_ type: T.Type) throws(WireError) -> T {
        guard let value = T(rawValue: try integer()) else { throw .badValue(tag: tag) }
        return value
    }

    mutating func bytes() throws(WireError) -> [UInt8] {
        let count: UInt32 = try integer()
        return Array(try take(Int(count)))
    }

    mutating func flag() throws(WireError) -> Bool {
        let byte: UInt8 = try integer()
        guard byte <= 1 else { throw .badValue(tag: tag) }
        return byte == 1
    }

    /// A count, then that many strings; the count cannot promise more strings than the bytes left could hold.
    mutating func strings() throws(WireError) -> [String] {
        let count: UInt32 = try integer()
        guard Int(count) <= remaining / 4 else { throw .truncated(tag: tag) }
        var strings: [String] = []
        strings.reserveCapacity(Int(count))
        for _ in 0..<count { strings.append(try string()) }
        return strings
    }

    mutating func string() throws(WireError) -> String {
        let count: UInt32 = try integer()
        let raw = try take(Int(count))
        guard let string = String(validating: raw, as: UTF8.self) else {
            throw .invalidUTF8(tag: tag)
        }
        return string
    }
}
