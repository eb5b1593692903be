/// Writes a log archive as Apple's `logd` lays one out: tracev3 files of firehose and statedump chunks in LZ4
/// chunksets, each after its catalog; uuidtext files for the processes' own format strings; a shared-cache strings
/// file for the libraries'; a timesync file for the boot. For tests (a run of ours as a device would keep it) and for
/// the benchmarks' large archives. Times are on an Apple-silicon clock (125/3 ns a tick) counted from the boot.
public final class ArchiveWriter {
    /// An argument as a program logs it.
    public enum Value: Sendable {
        case int(Int64)
        case string(String)
        /// A value the log hides: read back as `<private>`.
        case hidden
    }

    public struct Entry: Sendable {
        public var wallNanoseconds: Int
        public var pid: UInt32
        /// The process's executable path.
        public var process: String
        public var thread: UInt64
        public var subsystem: String
        public var category: String
        public var type: LogEntry.MessageType
        public var format: String
        public var arguments: [Value]
        /// The shared-cache library whose format string it is (WebKit's, RunningBoardServices'), or nil for the
        /// process's own.
        public var library: String?

        public init(
            wallNanoseconds: Int, pid: UInt32, process: String, thread: UInt64, subsystem: String, category: String,
            type: LogEntry.MessageType, format: String, arguments: [Value], library: String? = nil
        ) {
            self.wallNanoseconds = wallNanoseconds
            self.pid = pid
            self.process = process
            self.thread = thread
            self.subsystem = subsystem
            self.category = category
            self.type = type
            self.format = format
            self.arguments = arguments
            self.library = library
        }
    }

    public struct StateDump: Sendable {
        public var wallNanoseconds: Int
        public var pid: UInt32
        public var process: String
        public var title: String
        public var text: String

        public init(wallNanoseconds: Int, pid: UInt32, process: String, title: String, text: String) {
            self.wallNanoseconds = wallNanoseconds
            self.pid = pid
            self.process = process
            self.title = title
            self.text = text
        }
    }

    static let numerator: UInt64 = 125, denominator: UInt64 = 3
    static let sharedCacheUUID = LogUUID(named: "dyld shared cache")
    let bootWallSeconds: Int
    let bootUUID: LogUUID
    private var pending: [Entry] = []
    private var dumps: [StateDump] = []
    /// Each executable's own strings, and each shared-cache library's.
    private var executables: [String: StringTable] = [:]
    private var libraries: [String: StringTable] = [:]
    private var libraryOrder: [String] = []

    /// An archive of the boot at `bootWallSeconds` (POSIX seconds): every entry must be at or after it.
    public init(bootWallSeconds: Int) {
        self.bootWallSeconds = bootWallSeconds
        bootUUID = LogUUID(named: "boot \(bootWallSeconds)")
    }

    public func add(_ entry: Entry) { pending.append(entry) }
    public func add(_ dump: StateDump) { dumps.append(dump) }

    /// Continuous time, in ticks since the boot, of a wall-clock time.
    func ticks(_ wallNanoseconds: Int) -> UInt64 {
        UInt64(max(0, wallNanoseconds - bootWallSeconds * 1_000_000_000)) * Self.denominator / Self.numerator
    }

    /// The format reference of `format`, in the file its entry's strings go to.
    func reference(_ format: String, of entry: Entry) -> UInt32 {
        if let library = entry.library {
            if libraries[library] == nil {
                libraryOrder.append(library)
                libraries[library] = StringTable(base: UInt64(libraryOrder.count) << 24)
            }
            return libraries[library]!.reference(format)
        }
        return executables[entry.process, default: StringTable(base: 0x1000)].reference(format)
    }

    /// The entries and dumps added since the last call, as one tracev3 file; nil if there are none.
    public func traceFile() -> [UInt8]? {
        guard !pending.isEmpty || !dumps.isEmpty else { return nil }
        let entries = pending.sorted { $0.wallNanoseconds < $1.wallNanoseconds }
        let states = dumps.sorted { $0.wallNanoseconds < $1.wallNanoseconds }
        pending = []
        dumps = []
        return TraceWriter(archive: self, entries: entries, dumps: states).bytes()
    }

    /// The strings files and the timesync file, by their paths in the archive: write them after the last tracev3.
    public func supportFiles() -> [(path: String, bytes: [UInt8])] {
        var files: [(path: String, bytes: [UInt8])] = []
        for (path, table) in executables.sorted(by: { $0.key < $1.key }) {
            files.append((FormatStrings.uuidTextPath(LogUUID(named: path)), table.uuidText(path: path)))
        }
        if !libraryOrder.isEmpty {
            let images = libraryOrder.map { (uuid: LogUUID(named: $0), path: $0, table: libraries[$0]!) }
            files.append(("dsc/" + Self.sharedCacheUUID.hex, StringTable.sharedCache(images)))
        }
        files.append(("timesync/0000000000000000.timesync", timesync()))
        return files
    }

    /// A boot record, then one sync record at the boot.
    private func timesync() -> [UInt8] {
        var out = ByteWriter()
        let wall = UInt64(bootWallSeconds) * 1_000_000_000
        out.append([0xB0, 0xBB])
        out.u16(48)
        out.u32(0)
        out.append(bootUUID.bytes)
        out.u32(UInt32(Self.numerator))
        out.u32(UInt32(Self.denominator))
        out.u64(wall)
        out.u32(0)
        out.u32(0)
        out.append(Array("Ts".utf8))
        out.u16(32)
        out.u32(0)
        out.u64(0)
        out.u64(wall)
        out.u32(0)
        out.u32(0)
        return out.bytes
    }
}

extension LogUUID {
    /// A UUID made from `name` (FNV-1a, twice over): the same name, the same UUID.
    init(named name: String) {
        var bytes: [UInt8] = []
        for seed: UInt64 in [0xCBF2_9CE4_8422_2325, 0x8422_2325_CBF2_9CE4] {
            var hash = seed
            for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: hash >> shift)) }
        }
        self.init(bytes[...])
    }
}
