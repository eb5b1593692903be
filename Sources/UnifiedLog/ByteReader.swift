/// Little-endian fields read in order from a range of bytes; reading past its end is an error, never a trap.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var at: Int
    let end: Int

    init(_ bytes: [UInt8], _ range: Range<Int>) {
        self.bytes = bytes
        at = range.lowerBound
        end = range.upperBound
    }

    struct Overrun: Error {}

    var remaining: Int { end - at }

    mutating func skip(_ count: Int) throws(Overrun) {
        guard count >= 0, count <= remaining else { throw Overrun() }
        at += count
    }

    mutating func u8() throws(Overrun) -> UInt8 {
        guard remaining >= 1 else { throw Overrun() }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func u16() throws(Overrun) -> UInt16 {
        guard remaining >= 2 else { throw Overrun() }
        defer { at += 2 }
        return bytes.u16(at)
    }

    mutating func u32() throws(Overrun) -> UInt32 {
        guard remaining >= 4 else { throw Overrun() }
        defer { at += 4 }
        return bytes.u32(at)
    }

    mutating func u64() throws(Overrun) -> UInt64 {
        guard remaining >= 8 else { throw Overrun() }
        defer { at += 8 }
        return bytes.u64(at)
    }

    /// `count` bytes as they are.
    mutating func take(_ count: Int) throws(Overrun) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw Overrun() }
        defer { at += count }
        return bytes[at..<(at + count)]
    }

    /// Moves on to the next multiple of 8 from `base`, or to the end.
    mutating func align8(from base: Int) {
        at = min(end, base + ((at - base + 7) & ~7))
    }

    /// The NUL-terminated UTF-8 string at `offset` within `range` (the rest of the range if it has no NUL).
    static func cString(_ bytes: [UInt8], at offset: Int, within range: Range<Int>) -> String? {
        guard offset >= range.lowerBound, offset < range.upperBound else { return nil }
        let tail = bytes[offset..<range.upperBound]
        let text = tail.prefix { $0 != 0 }
        return String(decoding: text, as: UTF8.self)
    }
}

/// A UUID as the log stores it: 16 bytes, written as Apple writes them (8-4-4-4-12 uppercase hex), the text made
/// once (an entry's sender is printed with every entry).
public struct LogUUID: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]
    public let description: String

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = Array(bytes)
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(45) }
            text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]]
        }
        description = String(decoding: text, as: UTF8.self)
    }

    public static func == (a: Self, b: Self) -> Bool { a.description == b.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
