/// A log record's data (record type 0x04): who wrote it, where its format string lies, and its arguments. The fields
/// come in a fixed order, each present as a flag says:
///
/// - 0x0001: the current activity (u64);
/// - 0x0100: the range of the record's private data (u16 offset, u16 size);
/// - always: the sender's address, low 32 bits;
/// - 0x0020: the large offset (u16), the format reference's and the address's high bits;
/// - by the strings file (flags & 0x000e): 0x8 absolute, the address's upper 16 bits; 0xa uuid-relative, the
///   image's UUID; 0xc large shared cache (u16);
/// - 0x0200: the subsystem (u16); 0x0400: a TTL (u8); 0x0800: the oversize chunk holding the arguments (u16);
/// - always: a byte of unknown use, the item count, the items, then the values they point into.
struct LogRecord {
    /// Where the format string lives (flags & 0x000e).
    enum StringsFile: Equatable {
        case mainExecutable
        case sharedCache
        case absolute(upper: UInt16)
        case uuidRelative(LogUUID)
        case largeSharedCache(UInt16)
        case unknown(UInt16)
    }

    var activityID: UInt64 = 0
    /// The record's private data range: its offset, in the same space as the chunk's private virtual offset.
    var privateOffset: UInt16?
    var address: UInt32 = 0
    var largeOffset: UInt16?
    var stringsFile: StringsFile = .unknown(0)
    var subsystem: UInt16?
    /// The oversize chunk that holds the arguments instead, by its data reference.
    var oversize: UInt16?
    /// The items and their values.
    var arguments = ArgumentBlock(items: 0..<0, count: 0, values: 0..<0)

    init(_ bytes: [UInt8], _ body: Range<Int>, flags: UInt16) throws(ChunkFailure) {
        var reader = ByteReader(bytes, body)
        do {
            if flags & 0x0001 != 0 { activityID = try reader.u64() }
            if flags & 0x0100 != 0 {
                privateOffset = try reader.u16()
                try reader.skip(2)
            }
            address = try reader.u32()
            if flags & 0x0020 != 0 { largeOffset = try reader.u16() }
            switch flags & 0x000E {
            case 0x0002: stringsFile = .mainExecutable
            case 0x0004: stringsFile = .sharedCache
            case 0x0008: stringsFile = .absolute(upper: try reader.u16())
            case 0x000A: stringsFile = .uuidRelative(LogUUID(try reader.take(16)))
            case 0x000C: stringsFile = .largeSharedCache(try reader.u16())
            case let other: stringsFile = .unknown(other)
            }
            if flags & 0x0200 != 0 { subsystem = try reader.u16() }
            if flags & 0x0400 != 0 { try reader.skip(1) }
            if flags & 0x0800 != 0 { oversize = try reader.u16() }
            try reader.skip(1)
            let count = Int(try reader.u8())
            arguments = try ArgumentBlock(bytes, from: reader.at, count: count, end: body.upperBound)
        } catch {
            throw ChunkFailure(offset: body.lowerBound, reason: "a log record cut short")
        }
    }

    /// The format string's offset in its strings file: 31 bits from the tracepoint, then the large shared cache's or
    /// the large offset's bits above them.
    func formatOffset(_ reference: UInt32) -> UInt64 {
        let low = UInt64(reference & 0x7FFF_FFFF)
        if case .largeSharedCache(let high) = stringsFile { return low | UInt64(high) << 31 }
        if let largeOffset { return low | UInt64(largeOffset) << 31 }
        return low
    }
}

/// A run of argument items (each a type byte, a size byte and an inline part) and the values data after them, which
/// string items point into by offset and size.
struct ArgumentBlock {
    let items: Range<Int>
    let count: Int
    let values: Range<Int>

    init(items: Range<Int>, count: Int, values: Range<Int>) {
        self.items = items
        self.count = count
        self.values = values
    }

    init(_ bytes: [UInt8], from start: Int, count: Int, end: Int) throws(ByteReader.Overrun) {
        var reader = ByteReader(bytes, start..<end)
        for _ in 0..<count {
            try reader.skip(1)
            try reader.skip(Int(try reader.u8()))
        }
        self.init(items: start..<reader.at, count: count, values: reader.at..<end)
    }
}
