/// A whole tracev3 file read to its entries: the header, then each catalog and the chunksets after it. What cannot
/// be read is noted, once per chunk, and the rest is read on.
public struct TraceFile: Sendable {
    public let header: TraceHeader
    /// Log and state entries in file order (each chunk's in the order written).
    public private(set) var entries: [LogEntry] = []
    /// Each statedump's title and, when its payload is text (a string plist, or a custom dump's text), that text.
    public private(set) var stateDumps: [StateDumpRecord] = []
    /// What could not be read, where and why.
    public private(set) var failures: [ChunkFailure] = []
    /// Tracepoints that are not entries: activities, traces, signposts, losses; and chunks kept for later
    /// (oversize strings, simple dumps).
    public private(set) var skipped = Skipped()

    public struct Skipped: Equatable, Sendable {
        public var activities = 0, traces = 0, signposts = 0, losses = 0, unknownRecords = 0
        public var oversize = 0, simpledumps = 0, unknownChunks = 0

        public init() {}

        /// Adds `other`'s counts to these.
        public mutating func add(_ other: Self) {
            activities += other.activities
            traces += other.traces
            signposts += other.signposts
            losses += other.losses
            unknownRecords += other.unknownRecords
            oversize += other.oversize
            simpledumps += other.simpledumps
            unknownChunks += other.unknownChunks
        }
    }

    /// Log entries passed over by `keep`, unread.
    public private(set) var passedOver = 0
    /// Entries whose format string is not in the archive: their messages are empty.
    public private(set) var unformatted = 0

    /// Reads `bytes`, a whole tracev3 file. Messages are made with the format strings of `strings` (none without
    /// it), and only for the log entries `keep` keeps; the rest are passed over before their arguments are read. Times
    /// come from `timesync` when it knows the file's boot.
    public init(
        _ bytes: [UInt8], strings: FormatStrings? = nil, timesync: Timesync = Timesync(), keep: ((EntryWriter) -> Bool)? = nil
    ) throws(ChunkFailure) {
        let (chunks, walkFailure) = Chunk.walk(bytes)
        guard let first = chunks.first, first.kind == .header else {
            throw walkFailure ?? ChunkFailure(offset: 0, reason: "no header chunk: not a tracev3 file")
        }
        var header = try TraceHeader(bytes, first)
        header.clock = timesync.boots[header.bootUUID]
        self.header = header
        var catalog: Catalog?
        var reading = Reading(strings: strings, keep: keep)
        for chunk in chunks.dropFirst() {
            do throws(ChunkFailure) {
                switch chunk.kind {
                case .catalog: catalog = try Catalog(bytes, chunk)
                case .chunkset:
                    guard let catalog else { throw ChunkFailure(offset: chunk.data.lowerBound, reason: "a chunkset before any catalog") }
                    let data = try Chunkset.decode(bytes, chunk.data)
                    let (inner, failure) = Chunk.walk(data)
                    if let failure { failures.append(failure) }
                    for chunk in inner { Self.read(data, chunk, catalog: catalog, header: header, into: &reading) }
                default: skipped.unknownChunks += 1
                }
            } catch {
                failures.append(error)
            }
        }
        if let walkFailure { failures.append(walkFailure) }
        entries = reading.entries
        stateDumps = reading.stateDumps
        skipped = reading.skipped
        passedOver = reading.passedOver
        unformatted = reading.unformatted
        failures += reading.failures
    }

    /// One chunk of a chunkset's data.
    static func read(_ data: [UInt8], _ chunk: Chunk, catalog: Catalog, header: TraceHeader, into reading: inout Reading) {
        do throws(ChunkFailure) {
            switch chunk.kind {
            case .firehose: try Firehose.read(data, chunk, catalog: catalog, header: header, into: &reading)
            case .statedump:
                let (entry, dump) = try StateDump.read(data, chunk, catalog: catalog, header: header)
                reading.entries.append(entry)
                reading.stateDumps.append(dump)
            case .oversize:
                reading.skipped.oversize += 1
                try Oversize.read(data, chunk, into: &reading)
            case .simpledump: reading.skipped.simpledumps += 1
            default: reading.skipped.unknownChunks += 1
            }
        } catch {
            reading.failures.append(error)
        }
    }
}

/// A statedump's title and payload, at its entry's time.
public struct StateDumpRecord: Sendable {
    public let wallNanoseconds: Int
    public let pid: UInt32
    public let title: String
    /// 1 a binary plist, 2 a protobuf, 3 a custom dump.
    let kind: UInt32
    let payload: [UInt8]

    /// The payload as text, when it is a string plist or a custom dump; nil for other plists and protobufs. Made
    /// when asked for: a reader that prints only titles pays nothing for it.
    public var text: String? {
        switch kind {
        case 1: BinaryPlist.topString(payload[...])
        case 3: String(decoding: payload.prefix { $0 != 0 }, as: UTF8.self)
        default: nil
        }
    }
}

/// A statedump chunk (tag 0x6003): a process's state at a moment (a binary plist, a protobuf, or a custom dump with
/// its decoder's names), under a title.
enum StateDump {
    static func read(
        _ bytes: [UInt8], _ chunk: Chunk, catalog: Catalog, header: TraceHeader
    ) throws(ChunkFailure) -> (LogEntry, StateDumpRecord) {
        let data = chunk.data
        guard data.count >= 248 else { throw ChunkFailure(offset: data.lowerBound, reason: "a statedump of \(data.count) bytes") }
        let key = Catalog.ProcessKey(first: bytes.u64(data.lowerBound), second: bytes.u32(data.lowerBound + 8))
        guard let process = catalog.processes[key] else {
            throw ChunkFailure(offset: data.lowerBound, reason: "a statedump of process \(key.first)@\(key.second), which its catalog does not list")
        }
        let time = bytes.u64(data.lowerBound + 16)
        let wall = header.wallNanoseconds(time)
        let kind = bytes.u32(data.lowerBound + 48), size = Int(bytes.u32(data.lowerBound + 52))
        let payload = (data.lowerBound + 248)..<min(data.upperBound, data.lowerBound + 248 + size)
        let title = ByteReader.cString(bytes, at: data.lowerBound + 184, within: (data.lowerBound + 184)..<(data.lowerBound + 248)) ?? ""
        let entry = LogEntry(
            continuousTime: time, wallNanoseconds: wall, pid: process.pid, thread: 0, eventType: .state, messageType: nil,
            subsystem: "", category: "", activityID: bytes.u64(data.lowerBound + 24) & 0x7FFF_FFFF_FFFF_FFFF, message: title)
        return (entry, StateDumpRecord(wallNanoseconds: wall, pid: process.pid, title: title, kind: kind, payload: Array(bytes[payload])))
    }
}

extension TraceFile {
    /// The strings files a tracev3 file's messages need, from its catalogs alone (its chunksets are not opened):
    /// each process's executable (its uuidtext file, also its path) and shared cache (its dsc file), as paths in an
    /// archive. An image found only by a record's address or UUID is not among them.
    public static func stringsFiles(_ bytes: [UInt8]) -> Set<String> {
        var paths: Set<String> = []
        for chunk in Chunk.walk(bytes).chunks where chunk.kind == .catalog {
            guard let catalog = try? Catalog(bytes, chunk) else { continue }
            for process in catalog.processes.values {
                if let uuid = catalog.uuid(process.mainUUID) { paths.insert(FormatStrings.uuidTextPath(uuid)) }
                if let uuid = process.sharedCacheUUID.flatMap(catalog.uuid) { paths.insert("dsc/" + uuid.hex) }
            }
        }
        return paths
    }
}
