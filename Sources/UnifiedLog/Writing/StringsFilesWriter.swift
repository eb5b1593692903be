/// The files format strings are read from, written: a uuidtext file for an ordinary binary and a shared-cache strings
/// file (version 2) for the libraries of a shared cache, each from its strings in the order first used.
struct StringTable {
    /// Where the table's text starts in its image: a format reference is this plus the string's offset.
    let base: UInt64
    private(set) var text: [UInt8] = []
    private var offsets: [String: UInt32] = [:]

    init(base: UInt64) { self.base = base }

    /// The reference of `string`, added if new.
    mutating func reference(_ string: String) -> UInt32 {
        if let known = offsets[string] { return UInt32(base) + known }
        let offset = UInt32(text.count)
        offsets[string] = offset
        text += string.utf8
        text.append(0)
        return UInt32(base) + offset
    }

    /// A uuidtext file: its one range, then the image's path.
    func uuidText(path: String) -> [UInt8] {
        var out = ByteWriter()
        out.u32(UUIDText.magic)
        out.u32(2)
        out.u32(1)
        out.u32(1)
        out.u32(UInt32(base))
        out.u32(UInt32(text.count))
        out.append(text)
        out.append(Array(path.utf8) + [0])
        return out.bytes
    }

    /// A version-2 shared-cache strings file: a range and an image for each library (its UUID, its path, its strings,
    /// which start at its table's base), then the strings and the paths.
    static func sharedCache(_ images: [(uuid: LogUUID, path: String, table: StringTable)]) -> [UInt8] {
        var out = ByteWriter()
        out.append(Array("hcsd".utf8))
        out.u16(2)
        out.u16(0)
        out.u32(UInt32(images.count))
        out.u32(UInt32(images.count))
        var at = 16 + images.count * (24 + 32)
        for (index, image) in images.enumerated() {
            out.u64(image.table.base)
            out.u32(UInt32(at))
            out.u32(UInt32(image.table.text.count))
            out.u64(UInt64(index))
            at += image.table.text.count
        }
        for image in images {
            out.u64(image.table.base)
            out.u32(UInt32(max(image.table.text.count, 1)))
            out.append(image.uuid.bytes)
            out.u32(UInt32(at))
            at += image.path.utf8.count + 1
        }
        for image in images { out.append(image.table.text) }
        for image in images { out.append(Array(image.path.utf8) + [0]) }
        return out.bytes
    }
}

/// A binary plist (bplist00) of one ASCII or UTF-16 string: what RunningBoard's statedumps hold.
enum BinaryPlistWriter {
    static func string(_ text: String) -> [UInt8] {
        var out = ByteWriter()
        out.append(Array("bplist00".utf8))
        let ascii = text.utf8.allSatisfy { $0 < 0x80 }
        let units = ascii ? Array(text.utf8).map(UInt16.init) : Array(text.utf16)
        let marker: UInt8 = ascii ? 0x50 : 0x60
        if units.count < 15 {
            out.u8(marker | UInt8(units.count))
        } else {
            out.u8(marker | 0x0F)
            out.u8(0x13)  // an 8-byte integer follows
            for shift in stride(from: 56, through: 0, by: -8) { out.u8(UInt8(truncatingIfNeeded: units.count >> shift)) }
        }
        for unit in units {
            if !ascii { out.u8(UInt8(unit >> 8)) }
            out.u8(UInt8(truncatingIfNeeded: unit))
        }
        let table = out.count
        for shift in stride(from: 56, through: 0, by: -8) { out.u8(UInt8(truncatingIfNeeded: 8 >> shift)) }
        // The trailer: 6 unused bytes, offset size 8, reference size 1, then 1 object, top object 0, the table's place.
        out.append([UInt8](repeating: 0, count: 6) + [8, 1])
        for value in [1, 0, table] { for shift in stride(from: 56, through: 0, by: -8) { out.u8(UInt8(truncatingIfNeeded: value >> shift)) } }
        return out.bytes
    }
}
