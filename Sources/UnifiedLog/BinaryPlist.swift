/// The one thing a statedump's binary plist is read for here: its top object when that is a string (RunningBoard,
/// FrontBoard and most system daemons dump their state as one long description). Apple's format (bplist00): objects,
/// an offset table, and a 32-byte trailer giving the sizes, the object count, the top object and the table's place.
/// Anything else, or anything damaged, is nil.
enum BinaryPlist {
    static func topString(_ bytes: ArraySlice<UInt8>) -> String? {
        let data = Array(bytes)
        guard data.count >= 40, data.starts(with: "bplist00".utf8) else { return nil }
        let trailer = data.count - 32
        let offsetSize = Int(data[trailer + 6]), referenceSize = Int(data[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else { return nil }
        let objects = big(data, trailer + 8, 8), top = big(data, trailer + 16, 8), table = big(data, trailer + 24, 8)
        guard top < objects, table < trailer, objects <= (trailer - table) / offsetSize else { return nil }
        let at = big(data, table + top * offsetSize, offsetSize)
        guard at >= 8, at < table else { return nil }
        let marker = data[at]
        var count = Int(marker & 0x0F)
        var start = at + 1
        if count == 0x0F {
            // The length is an integer object of its own: 0x1N, then 2^N bytes.
            guard start < table, data[start] & 0xF0 == 0x10 else { return nil }
            let width = 1 << Int(data[start] & 0x0F)
            guard width <= 8, start + 1 + width <= table else { return nil }
            count = big(data, start + 1, width)
            start += 1 + width
        }
        switch marker >> 4 {
        case 0x5:  // ASCII
            guard count <= table - start else { return nil }
            return String(decoding: data[start..<(start + count)], as: UTF8.self)
        case 0x6:  // UTF-16, big endian
            guard count <= (table - start) / 2 else { return nil }
            let units = (0..<count).map { UInt16(data[start + 2 * $0]) << 8 | UInt16(data[start + 2 * $0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        default:
            return nil
        }
    }

    /// A big-endian unsigned integer of `width` bytes at `at`, or a value past any table if it would not fit.
    private static func big(_ data: [UInt8], _ at: Int, _ width: Int) -> Int {
        guard at >= 0, at + width <= data.count else { return Int.max }
        var value = 0
        for byte in data[at..<(at + width)] {
            guard value < Int.max >> 8 else { return Int.max }
            value = value << 8 | Int(byte)
        }
        return value
    }
}
