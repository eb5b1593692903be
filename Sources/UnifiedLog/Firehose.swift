/// A firehose chunk (tag 0x6001): the tracepoints one process wrote, each a 24-byte header (record type, log type,
/// flags, format string reference, thread, a 48-bit time delta from the chunk's base, data size) and its data, each
/// starting at the next multiple of 8. Log records become entries; activities, traces, signposts and losses are
/// counted. The chunk's private data, if any, is at its end: the last 0x1000 − (its virtual offset) bytes.
struct Firehose {
    static let log: UInt8 = 0x04

    /// Reads the log entries of `chunk`, whose process `catalog` names, into `reading`.
    static func read(
        _ bytes: [UInt8], _ chunk: Chunk, catalog: Catalog, header: TraceHeader, into reading: inout Reading
    ) throws(ChunkFailure) {
        let data = chunk.data
        func failure(_ reason: String) -> ChunkFailure { ChunkFailure(offset: data.lowerBound, reason: "a firehose chunk: " + reason) }
        guard data.count >= 32 else { throw failure("\(data.count) bytes") }
        let key = Catalog.ProcessKey(first: bytes.u64(data.lowerBound), second: bytes.u32(data.lowerBound + 8))
        guard let process = catalog.processes[key] else {
            throw failure("process \(key.first)@\(key.second), which its catalog does not list")
        }
        let publicSize = Int(bytes.u16(data.lowerBound + 16))
        let virtualOffset = Int(bytes.u16(data.lowerBound + 18))
        let base = bytes.u64(data.lowerBound + 24)
        // The public data size counts from 16 bytes into the data: the tracepoints end there.
        let end = data.lowerBound + 16 + publicSize
        guard publicSize >= 16, end <= data.upperBound else { throw failure("a public size of \(publicSize)") }
        let privateSize = virtualOffset < 0x1000 ? 0x1000 - virtualOffset : 0
        let privateData = privateSize > 0 && privateSize <= data.upperBound - end ? bytes[(data.upperBound - privateSize)..<data.upperBound] : nil
        // Each process's path, and whether it writes anything `keep` keeps, found once; one that does not has its
        // records counted, not read.
        let known: (path: String, keeps: Bool)
        if let found = reading.processes[key] {
            known = found
        } else {
            let path = reading.strings.flatMap { strings in catalog.uuid(process.mainUUID).flatMap(strings.imagePath) } ?? ""
            known = (path, reading.mayKeep(process, path: path))
            reading.processes[key] = known
        }
        let processPath = known.path
        if !known.keeps {
            var at = data.lowerBound + 32
            while end - at >= 24 {
                if bytes[at] == log { reading.passedOver += 1 }
                at = (at + 24 + Int(bytes.u16(at + 22)) + 7) & ~7
            }
            return
        }
        var decisions: [UInt16?: Bool] = [:]
        var at = data.lowerBound + 32
        while end - at >= 24 {
            let recordType = bytes[at], logType = bytes[at + 1]
            let flags = bytes.u16(at + 2)
            let size = Int(bytes.u16(at + 22))
            let body = (at + 24)..<(at + 24 + size)
            guard body.upperBound <= end else { throw failure("a tracepoint of \(size) bytes past the public data") }
            switch recordType {
            case 0x00: break
            case log:
                let record = try LogRecord(bytes, body, flags: flags)
                let names = record.subsystem.flatMap { process.subsystems[$0] }
                let writer = EntryWriter(
                    pid: process.pid, processImagePath: processPath, subsystem: names?.subsystem ?? "",
                    category: names?.category ?? "")
                // The chunk is one process's: who wrote an entry is its subsystem, asked about once.
                let kept: Bool
                if let known = decisions[record.subsystem] {
                    kept = known
                } else {
                    kept = reading.keep?(writer) ?? true
                    decisions[record.subsystem] = kept
                }
                guard kept else {
                    reading.passedOver += 1
                    break
                }
                let time = base &+ (UInt64(bytes.u32(at + 16)) | UInt64(bytes.u16(at + 20)) << 32)
                var entry = LogEntry(
                    continuousTime: time, wallNanoseconds: header.wallNanoseconds(time), pid: process.pid,
                    thread: bytes.u64(at + 8), eventType: .log, messageType: LogEntry.MessageType(logType: logType),
                    subsystem: writer.subsystem, category: writer.category,
                    activityID: record.activityID & 0x7FFF_FFFF_FFFF_FFFF, message: "")
                entry.processImagePath = processPath
                if let strings = reading.strings,
                    let source = strings.source(of: record, reference: bytes.u32(at + 4), process: process, catalog: catalog)
                {
                    let arguments: [Argument]
                    if let reference = record.oversize {
                        arguments = reading.oversize[Oversize.Key(process: key, reference: UInt32(reference))] ?? []
                    } else {
                        let privateBase = record.privateOffset.map { Int($0) - virtualOffset } ?? 0
                        arguments = record.arguments.decode(bytes, privateData: privateData, privateBase: privateBase)
                    }
                    entry.formatString = source.format
                    entry.senderImageUUID = source.senderUUID
                    entry.senderImagePath = source.senderPath
                    entry.message = source.parsed.format(arguments)
                } else {
                    reading.unformatted += 1
                }
                reading.entries.append(entry)
            case 0x02: reading.skipped.activities += 1
            case 0x03: reading.skipped.traces += 1
            case 0x06: reading.skipped.signposts += 1
            case 0x07: reading.skipped.losses += 1
            default: reading.skipped.unknownRecords += 1
            }
            // Tracepoints are aligned from the chunk's start, which is itself on a multiple of 8.
            at = (body.upperBound + 7) & ~7
        }
    }
}

/// What a file's reading gathers as it goes, and what it reads with.
struct Reading {
    let strings: FormatStrings?
    let keep: ((EntryWriter) -> Bool)?
    var entries: [LogEntry] = []
    var stateDumps: [StateDumpRecord] = []
    var skipped = TraceFile.Skipped()
    /// Log entries not kept, by who wrote them.
    var passedOver = 0
    /// Entries kept whose format string is not in the archive.
    var unformatted = 0
    var failures: [ChunkFailure] = []
    /// Oversize chunks' arguments, for the records after them that point there.
    var oversize: [Oversize.Key: [Argument]] = [:]
    /// Each process's executable path, and whether it writes anything `keep` keeps, as found.
    var processes: [Catalog.ProcessKey: (path: String, keeps: Bool)] = [:]

    init(strings: FormatStrings?, keep: ((EntryWriter) -> Bool)?) {
        self.strings = strings
        self.keep = keep
    }

    /// A reading of the next chunkset of the same file: what this one found that lasts (oversize chunks, decisions).
    func next() -> Reading {
        var next = Reading(strings: strings, keep: keep)
        next.oversize = oversize
        next.processes = processes
        return next
    }

    /// Whether `process` (its executable at `path`) writes anything `keep` keeps: as itself, or under one of its
    /// subsystems.
    func mayKeep(_ process: Catalog.Process, path: String) -> Bool {
        guard let keep else { return true }
        let writers = [Catalog.Subsystem(subsystem: "", category: "")] + process.subsystems.values
        return writers.contains { keep(EntryWriter(pid: process.pid, processImagePath: path, subsystem: $0.subsystem, category: $0.category)) }
    }
}

/// An oversize chunk (tag 0x6002): the arguments of one record too large for its firehose chunk, keyed by its
/// process and a data reference the record carries. It comes before the record, sometimes chunksets before.
enum Oversize {
    struct Key: Hashable {
        let process: Catalog.ProcessKey
        let reference: UInt32
    }

    static func read(_ bytes: [UInt8], _ chunk: Chunk, into reading: inout Reading) throws(ChunkFailure) {
        let data = chunk.data
        guard data.count >= 34 else { throw ChunkFailure(offset: data.lowerBound, reason: "an oversize chunk of \(data.count) bytes") }
        let key = Key(
            process: Catalog.ProcessKey(first: bytes.u64(data.lowerBound), second: bytes.u32(data.lowerBound + 8)),
            reference: bytes.u32(data.lowerBound + 24))
        let publicSize = Int(bytes.u16(data.lowerBound + 28)), privateSize = Int(bytes.u16(data.lowerBound + 30))
        let end = data.lowerBound + 32 + publicSize
        guard publicSize >= 2, end + privateSize <= data.upperBound else {
            throw ChunkFailure(offset: data.lowerBound, reason: "an oversize chunk whose sizes pass its end")
        }
        do {
            let block = try ArgumentBlock(bytes, from: data.lowerBound + 34, count: Int(bytes[data.lowerBound + 33]), end: end)
            reading.oversize[key] = block.decode(bytes, privateData: bytes[end..<(end + privateSize)])
        } catch {
            throw ChunkFailure(offset: data.lowerBound, reason: "an oversize chunk's items past its end")
        }
    }
}
