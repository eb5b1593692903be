import Glibc

/// /proc, read and parsed in one place: the supervisor, Jetsam, the benchmarks and the tests all ask here.
///
/// Every answer is about one moment: a process can exit between two reads, so each read that finds it gone
/// answers nil, never a default.
public enum ProcFS {
    /// Which process: a pid, this process, or the calling thread.
    public enum Process: Sendable {
        case pid(Int32)
        case current
        case currentThread

        var directory: String {
            switch self {
            case .pid(let pid): "/proc/\(pid)"
            case .current: "/proc/self"
            case .currentThread: "/proc/thread-self"
            }
        }
    }

    /// The fields of /proc/PID/stat the supervisor, Jetsam and the tests use.
    public struct Stat: Sendable, Equatable {
        public let pid: Int32
        /// The command name, up to 15 bytes, between the parentheses.
        public let command: String
        /// The state letter: R, S, D, Z (zombie: exited, not reaped), T, X...
        public let state: Character
        public let parent: Int32
        public let nice: Int
        /// Clock ticks after boot at which it started: with the pid, which process this is, as a pid is recycled.
        public let startTime: UInt64
        public let residentPages: Int
        /// CPU time it has used, user and system, in clock ticks (utime and stime).
        public let cpuTicks: UInt64

        /// Whether this pid still names the process this stat was read from, alive: the same start time and
        /// parent, neither a zombie nor gone. A pid is recycled only after a reap, so a process that has the pid
        /// now but started at another time is another process.
        public var isStillRunning: Bool {
            guard let now = ProcFS.stat(.pid(pid)) else { return false }
            return now.startTime == startTime && now.parent == parent && now.isLive
        }

        /// Exited but not reaped yet.
        public var isZombie: Bool { state == "Z" }
        /// Running, or able to run: neither a zombie nor being torn down.
        public var isLive: Bool { state != "Z" && state != "X" && state != "x" }

        /// Parses a stat line; nil when it is not one. The command may hold spaces and parentheses, so it ends at
        /// the last `)`.
        public init?(_ bytes: some Collection<UInt8>) {
            let bytes = Array(bytes)
            guard let open = bytes.firstIndex(of: UInt8(ascii: "(")), let close = bytes.lastIndex(of: UInt8(ascii: ")")),
                open < close, close + 2 < bytes.count, let pid = Int32(text(bytes[..<open].dropLast()))
            else { return nil }
            // After the command: state(3) ppid(4) ... utime(14) stime(15) ... nice(19) ... starttime(22) vsize(23)
            // rss(24).
            let fields = bytes[(close + 2)...].split(separator: UInt8(ascii: " "))
            guard fields.count > 21, let stateByte = fields[0].first, let parent = Int32(text(fields[1])),
                let nice = Int(text(fields[16])), let startTime = UInt64(text(fields[19])),
                let resident = Int(text(fields[21])), let user = UInt64(text(fields[11])),
                let system = UInt64(text(fields[12]))
            else { return nil }
            self.pid = pid
            command = text(bytes[(open + 1)..<close])
            state = Character(UnicodeScalar(stateByte))
            self.parent = parent
            self.nice = nice
            self.startTime = startTime
            residentPages = resident
            cpuTicks = user + system
        }
    }

    /// /proc/PID/status, by key: `VmHWM`, `voluntary_ctxt_switches`...
    public struct Status: Sendable {
        let lines: [Substring: Substring]

        public init(_ text: String) {
            var lines: [Substring: Substring] = [:]
            for line in text.split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                lines[line[..<colon]] = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            }
            self.lines = lines
        }

        /// A plain number: `voluntary_ctxt_switches:	12`.
        public func number(_ key: String) -> Int? {
            lines[Substring(key)].flatMap { Int($0) }
        }

        /// A size in kB: `VmHWM:	  1234 kB`.
        public func kilobytes(_ key: String) -> Int? {
            guard let value = lines[Substring(key)], value.hasSuffix(" kB") else { return nil }
            return Int(value.dropLast(3))
        }
    }

    public static func stat(_ process: Process) -> Stat? {
        read(process.directory + "/stat").flatMap { Stat($0) }
    }

    public static func status(_ process: Process) -> Status? {
        read(process.directory + "/status").map { Status(String(decoding: $0, as: UTF8.self)) }
    }

    /// What the kernel's OOM killer, and Jetsam, rank it by.
    public static func oomScoreAdjust(_ pid: Int32) -> Int? {
        read("/proc/\(pid)/oom_score_adj").flatMap { Int(text($0.prefix { $0 != UInt8(ascii: "\n") })) }
    }

    /// Resident pages now: the second field of /proc/PID/statm.
    public static func residentPages(_ process: Process) -> Int? {
        guard let fields = read(process.directory + "/statm")?.split(separator: UInt8(ascii: " ")), fields.count > 1
        else { return nil }
        return Int(text(fields[1]))
    }

    /// Every process there is, as pids.
    public static func pids() -> [Int32] {
        entries("/proc").compactMap { Int32($0) }
    }

    /// The children of `parent` that exist at all, zombies included.
    public static func children(of parent: Int32) -> [Stat] {
        pids().compactMap { stat(.pid($0)) }.filter { $0.parent == parent }
    }

    /// The threads of a process, by thread id.
    public static func threads(of process: Process) -> [Int32] {
        entries(process.directory + "/task").compactMap { Int32($0) }.sorted()
    }

    /// The descriptors a process has open, by number.
    public static func descriptors(of process: Process) -> [Int32] {
        entries(process.directory + "/fd").compactMap { Int32($0) }.sorted()
    }

    /// What descriptor `fd` of a process is open on: a path, `pipe:[123]`, `anon_inode:[pidfd]`...
    public static func descriptorTarget(_ process: Process, _ fd: Int32) -> String? {
        link(process.directory + "/fd/\(fd)")
    }

    /// Where /proc/self/exe leads: this program's own file.
    public static func executable() -> String? {
        link("/proc/self/exe")
    }

    /// The pid that holds a `flock` lock on the file with this device and inode, as /proc/locks lists it; nil when
    /// it is not listed.
    public static func flockHolder(major: UInt64, minor: UInt64, inode: UInt64) -> Int32? {
        guard let bytes = read("/proc/locks") else { return nil }
        // `1: FLOCK  ADVISORY  WRITE 4321 fd:01:1234567 0 EOF`: the device as hex major:minor, then the inode. A
        // line starting `1: ->` is a process waiting for the lock, not holding it.
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "))
            guard fields.count >= 6, fields[1].elementsEqual("FLOCK".utf8) else { continue }
            let file = fields[5].split(separator: UInt8(ascii: ":"))
            guard file.count == 3, UInt64(text(file[0]), radix: 16) == major, UInt64(text(file[1]), radix: 16) == minor,
                UInt64(text(file[2])) == inode
            else { continue }
            return Int32(text(fields[4]))
        }
        return nil
    }

    /// The whole of a small /proc file, or nil if it cannot be read (the process is gone).
    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }

    static func entries(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, Int(PATH_MAX))
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

private func text(_ bytes: some Collection<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self)
}
