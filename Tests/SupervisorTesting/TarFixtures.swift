/// Tar archives made byte by byte, for what no tar program writes from real files: names longer than any path,
/// records that lie. Headers are ustar's (POSIX.1-1988): name at 0, size at 124, checksum at 148, type at 156,
/// `ustar\0` at 257, prefix at 345.
enum TarFixture {
    /// One header block: `name` (its first 100 bytes), `size` in octal, `type`, and the checksum over the block.
    static func header(_ name: [UInt8], type: UInt8, size: Int) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        block.replaceSubrange(0..<min(name.count, 100), with: name.prefix(100))
        for (offset, field) in [(100, "0000644"), (108, "0000000"), (116, "0000000"), (136, "00000000000")] {
            block.replaceSubrange(offset..<offset + field.utf8.count, with: Array(field.utf8))
        }
        let octal = String(size, radix: 8)
        block.replaceSubrange(124..<135, with: Array((String(repeating: "0", count: 11 - octal.count) + octal).utf8))
        block[156] = type
        block.replaceSubrange(257..<265, with: Array("ustar\u{0}00".utf8))
        block.replaceSubrange(148..<156, with: Array("        ".utf8))
        let sum = String(block.reduce(0) { $0 + Int($1) }, radix: 8)
        block.replaceSubrange(148..<155, with: Array((String(repeating: "0", count: 6 - sum.count) + sum + "\u{0}").utf8))
        return block
    }

    /// A header and its data, padded to the block.
    static func member(_ name: String, type: UInt8 = UInt8(ascii: "0"), data: [UInt8] = []) -> [UInt8] {
        header(Array(name.utf8), type: type, size: data.count) + padded(data)
    }

    /// GNU's long name record (`L`) for the member after it: `name` and a NUL.
    static func longName(_ name: [UInt8]) -> [UInt8] {
        member("././@LongLink", type: UInt8(ascii: "L"), data: name + [0])
    }

    /// A pax record block (`x`) for the member after it: `LENGTH key=value\n` each, LENGTH counting itself.
    static func pax(_ records: [(key: String, value: [UInt8])]) -> [UInt8] {
        var data: [UInt8] = []
        for (key, value) in records {
            let rest = 1 + key.utf8.count + 1 + value.count + 1
            var length = rest + 1
            while String(length).count + rest != length { length += 1 }
            data += Array("\(length) \(key)=".utf8) + value + [10]
        }
        return member("PaxHeaders/x", type: UInt8(ascii: "x"), data: data)
    }

    /// Two zero blocks: the archive's end.
    static let end = [UInt8](repeating: 0, count: 1024)

    static func padded(_ data: [UInt8]) -> [UInt8] {
        data + [UInt8](repeating: 0, count: (512 - data.count % 512) % 512)
    }
}
