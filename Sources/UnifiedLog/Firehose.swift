/// A firehose chunk (tag 0x6001): the tracepoints one process wrote, each a 24-byte header (record type, log type,
/// flags, format string reference, thread, a 48-bit time delta from the chunk's base, data size) and its data, each
/// starting at the next multiple of 8. Log records become entries; activities, traces, signposts and losses are
/// counted.
struct Firehose {
    static let log: UInt8 = 0x04

    /// The log entries of `chunk`, whose process `catalog` names; the others counted in `skipped`.
    static func entries(
        _ bytes: [UInt8], _ chunk: Chunk, catalog: Catalog, header: TraceHeader, skipped: inout TraceFile.Skipped
    ) throws(ChunkFailure) -> [LogEntry] {
        let data = chunk.data
        func failure(_ reason: String) -> ChunkFailure { ChunkFailure(offset: data.lowerBound, reason: "a firehose chunk: " + reason) }
        guard data.count >= 32 else { throw failure("\(data.count) bytes") }
        let key = Catalog.ProcessKey(first: bytes.u64(data.lowerBound), second: bytes.u32(data.lowerBound + 8))
        guard let process = catalog.processes[key] else {
            throw failure("process \(key.first)@\(key.second), which its catalog does not list")
        }
        let publicSize = Int(bytes.u16(data.lowerBound + 16))
        let base = bytes.u64(data.lowerBound + 24)
        // The public data size counts from 16 bytes into the data: the tracepoints end there.
        let end = data.lowerBound + 16 + publicSize
        guard publicSize >= 16, end <= data.upperBound else { throw failure("a public size of \(publicSize)") }
        var entries: [LogEntry] = []
        var at = data.lowerBound + 32
        while end - at >= 24 {
            let recordType = bytes[at], logType = bytes[at + 1]
            let flags = bytes.u16(at + 2)
            let thread = bytes.u64(at + 8)
            let delta = UInt64(bytes.u32(at + 16)) | UInt64(bytes.u16(at + 20)) << 32
            let size = Int(bytes.u16(at + 22))
            let body = (at + 24)..<(at + 24 + size)
            guard body.upperBound <= end else { throw failure("a tracepoint of \(size) bytes past the public data") }
            switch recordType {
            case 0x00: break
            case log:
                let fields = try LogRecord(bytes, body, flags: flags)
                let time = base &+ delta
                let names = fields.subsystem.flatMap { process.subsystems[$0] }
                entries.append(LogEntry(
                    continuousTime: time, wallNanoseconds: header.wallNanoseconds(time), pid: process.pid, thread: thread,
                    eventType: .log, messageType: LogEntry.MessageType(logType: logType),
                    subsystem: names?.subsystem ?? "", category: names?.category ?? "",
                    activityID: fields.activityID & 0x7FFF_FFFF_FFFF_FFFF, message: ""))
            case 0x02: skipped.activities += 1
            case 0x03: skipped.traces += 1
            case 0x06: skipped.signposts += 1
            case 0x07: skipped.losses += 1
            default: skipped.unknownRecords += 1
            }
            // Tracepoints are aligned from the chunk's start, which is itself on a multiple of 8.
            at = (body.upperBound + 7) & ~7
        }
        return entries
    }
}

/// The fields of a log record's data that say who wrote it: its activity and its subsystem. The fields come in a
/// fixed order, each present as a flag says.
struct LogRecord {
    var activityID: UInt64 = 0
    var subsystem: UInt16?

    init(_ bytes: [UInt8], _ body: Range<Int>, flags: UInt16) throws(ChunkFailure) {
        var reader = ByteReader(bytes, body)
        do {
            if flags & 0x0001 != 0 { activityID = try reader.u64() }
            if flags & 0x0100 != 0 { try reader.skip(4) }  // the private data range
            try reader.skip(4)  // the sender's address, low 32 bits
            if flags & 0x0020 != 0 { try reader.skip(2) }  // the large offset
            switch flags & 0x000E {
            case 0x0008: try reader.skip(2)  // absolute: the address's upper 16 bits
            case 0x000A: try reader.skip(16)  // uuid-relative: the image's UUID
            case 0x000C: try reader.skip(2)  // large shared cache
            default: break
            }
            if flags & 0x0200 != 0 { subsystem = try reader.u16() }
        } catch {
            throw ChunkFailure(offset: body.lowerBound, reason: "a log record cut short")
        }
    }
}
