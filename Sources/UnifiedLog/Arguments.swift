/// One argument of a message, as its item says it was logged.
public enum Argument: Equatable, Sendable {
    /// An integer or a float's bits, little-endian, of 1, 2, 4 or 8 bytes.
    case scalar(UInt64, size: Int)
    /// A string (nil for a NULL pointer).
    case string(String?)
    /// Bytes, for `%P` and the like.
    case data([UInt8])
    /// A value the log hides: `<private>`.
    case hidden
    /// A precision (`%.*s`), for the argument after it.
    case precision(Int)
    /// An item of a type this reader does not know.
    case unknown(UInt8)
}

extension ArgumentBlock {
    /// The arguments: each item read by its type. String and data items point into the values data, or into
    /// `privateData` for a private string (at `privateBase` plus the item's offset); one that points outside is
    /// `hidden`, as a value the log did not keep.
    func decode(_ bytes: [UInt8], privateData: ArraySlice<UInt8>? = nil, privateBase: Int = 0) -> [Argument] {
        var arguments: [Argument] = []
        arguments.reserveCapacity(count)
        var at = items.lowerBound
        func range(_ at: Int) -> (offset: Int, size: Int) { (Int(bytes.u16(at)), Int(bytes.u16(at + 2))) }
        func slice(_ within: ArraySlice<UInt8>, _ offset: Int, _ size: Int) -> ArraySlice<UInt8>? {
            guard offset >= 0, size >= 0, size <= within.count, offset <= within.count - size else { return nil }
            return within[(within.startIndex + offset)..<(within.startIndex + offset + size)]
        }
        func text(_ slice: ArraySlice<UInt8>?) -> Argument {
            guard let slice else { return .hidden }
            if slice.isEmpty { return .string(nil) }
            return .string(String(decoding: slice.prefix { $0 != 0 }, as: UTF8.self))
        }
        let values = bytes[self.values]
        while at + 2 <= items.upperBound, arguments.count < count {
            let type = bytes[at], size = Int(bytes[at + 1])
            let inline = (at + 2)..<min(items.upperBound, at + 2 + size)
            at += 2 + size
            let ranged = inline.count >= 4
            switch type {
            case 0x00, 0x02:
                var value: UInt64 = 0
                for (shift, byte) in bytes[inline].prefix(8).enumerated() { value |= UInt64(byte) << (8 * shift) }
                arguments.append(.scalar(value, size: min(8, inline.count)))
            case 0x10, 0x12:
                arguments.append(.precision(inline.count >= 4 ? Int(bytes.u32(inline.lowerBound)) : 0))
            case 0x20, 0x22, 0x40, 0x42:
                let (offset, size) = ranged ? range(inline.lowerBound) : (0, -1)
                arguments.append(text(slice(values, offset, size)))
            case 0x30, 0x32, 0xF2:
                let (offset, size) = ranged ? range(inline.lowerBound) : (0, -1)
                arguments.append(slice(values, offset, size).map { .data(Array($0)) } ?? .hidden)
            case 0x21, 0x41:
                guard let privateData, ranged else {
                    arguments.append(.hidden)
                    continue
                }
                let (offset, size) = range(inline.lowerBound)
                arguments.append(text(slice(privateData, privateBase + offset, size)))
            case 0x01, 0x25, 0x31, 0x35, 0x45: arguments.append(.hidden)
            default: arguments.append(.unknown(type))
            }
        }
        return arguments
    }
}
