/// Little-endian fields appended in order: the writing side of `ByteReader`.
struct ByteWriter {
    var bytes: [UInt8] = []

    var count: Int { bytes.count }

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) { for shift in stride(from: 0, to: 16, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) } }
    mutating func u32(_ value: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) } }
    mutating func u64(_ value: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) } }
    mutating func append<C: Collection<UInt8>>(_ more: C) { bytes += more }

    /// `text` NUL-terminated, in a field of `width` bytes (cut to fit).
    mutating func field(_ text: String, width: Int) {
        let utf8 = Array(text.utf8.prefix(width - 1))
        bytes += utf8
        bytes += [UInt8](repeating: 0, count: width - utf8.count)
    }

    mutating func pad8(from base: Int = 0) {
        while (bytes.count - base) % 8 != 0 { bytes.append(0) }
    }

    /// A chunk: its 16-byte preamble, then `data`, padded to 8.
    mutating func chunk(tag: UInt32, subtag: UInt32, _ data: [UInt8]) {
        u32(tag)
        u32(subtag)
        u64(UInt64(data.count))
        bytes += data
        pad8()
    }

    /// The same integer fields written at `at`, over what is there.
    mutating func setU16(_ value: UInt16, at: Int) {
        bytes[at] = UInt8(truncatingIfNeeded: value)
        bytes[at + 1] = UInt8(truncatingIfNeeded: value >> 8)
    }
}
