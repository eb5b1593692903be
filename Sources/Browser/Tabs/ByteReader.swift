
/// Reads little-endian fields from `bytes[offset..<end]`; a field that would cross `end` is nil and reads nothing.
struct ByteReader {
    let bytes: ArraySlice<UInt8>
    private(set) var offset: Int
    let end: Int

    init(_ bytes: ArraySlice<UInt8>, from offset: Int, to end: Int? = nil) {
        let end = end ?? bytes.endIndex
        precondition(bytes.startIndex <= offset && offset <= end && end <= bytes.endIndex)
        self.bytes = bytes
        self.offset = offset
        self.end = end
    }

    var remaining: Int { end - offset }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { return nil }
        var value = T.zero
        for i in 0..<size { value |= T(truncatingIfNeeded: bytes[offset + i]) << (8 * i) }
        offset += size
        return value
    }

    /// `length` bytes as a string; bytes that are not UTF-8 become U+FFFD.
    mutating func string(length: Int) -> String? {
        guard length <= remaining else { return nil }
        let string = String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
        offset += length
        return string
    }

    /// A u32 length, then that many bytes as a string, at most `SessionFile.maxStringBytes` of them.
    mutating func boundedString() -> String? {
        guard let length = integer(UInt32.self), length <= SessionFile.maxStringBytes else { return nil }
        return string(length: Int(length))
    }

    /// Passes over what `boundedString` would read, without building it; false where it would be nil.
    mutating func skipBoundedString() -> Bool {
        guard let length = integer(UInt32.self), length <= SessionFile.maxStringBytes, Int(length) <= remaining else {
            return false
        }
        offset += Int(length)
        return true
    }

    enum JournalField {
        case read(JournalPosition?)
        case truncated
        /// A field out of its bounds, at this offset.
        case outOfBounds(Int)
    }

    /// What `SessionFile.append(_ journal:)` wrote.
    mutating func journal() -> JournalField {
        guard let present = integer(UInt8.self), let records = integer(UInt64.self) else { return .truncated }
        guard present <= 1 else { return .outOfBounds(offset - 9) }
        // The run counts records in an Int (the log, `session show --json`): a count past Int.max is out of bounds.
        guard records <= UInt64(Int.max) else { return .outOfBounds(offset - 8) }
        guard let length = integer(UInt32.self) else { return .truncated }
        guard length <= SessionFile.maxStringBytes else { return .outOfBounds(offset - 4) }
        guard let path = string(length: Int(length)) else { return .truncated }
        return .read(present == 1 ? JournalPosition(path: path, records: records) : nil)
    }
}
