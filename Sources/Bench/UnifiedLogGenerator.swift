import Glibc
import System
import UnifiedLog

/// A synthetic device's binary unified log (a `.logarchive`), as large as asked, for timing `log show` and `analyze`
/// on it: most entries come from system daemons with their own subsystems, one in twenty is WebKit's or
/// RunningBoard's routine, and now and then a WebContent process is killed before it renders. Seeded: every run
/// writes the same archive. Written a tracev3 file at a time.
struct UnifiedLogGenerator {
    static let app = "/private/var/containers/Bundle/Application/5F2C9A1E/Bench.app/Bench"
    static let webKit = "/System/Library/Frameworks/WebKit.framework/WebKit"
    static let runningBoard = "/usr/libexec/runningboardd"
    /// About 8 MB of tracev3 a file, as logd writes them (smaller for a small archive), with two kills in each.
    let entriesPerFile: Int

    private var state: UInt64
    private var nanoseconds = 1_795_400_000_000_000_000
    private var nextPID: UInt32 = 4200
    /// The pids planted as killed before render, and how many entries were written.
    private(set) var killedBeforeRender: [UInt32] = []
    private(set) var entries = 0

    init(seed: UInt64, megabytes: Int) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        entriesPerFile = min(250_000, max(1, megabytes) * 16_000)
    }

    private static let daemons: [(path: String, pid: UInt32, subsystem: String, category: String, format: String)] = [
        ("/usr/libexec/locationd", 88, "com.apple.locationd.Position", "Position", "@ClxClient, Fix, %d, ll, %{private}s, acc, %d"),
        ("/System/Library/PrivateFrameworks/ApplePushService.framework/apsd", 104, "com.apple.apsd", "connection",
         "%{public}s: Connection %p received %d bytes on interface %{public}s"),
        ("/usr/sbin/mDNSResponder", 91, "com.apple.mDNSResponder", "Default", "[R%d] getaddrinfo start -- flags: 0x%x, ifindex: %d"),
        ("/usr/libexec/nsurlsessiond", 133, "com.apple.CFNetwork", "Summary", "Task <%{public}s>.<%d> summary for task success"),
        ("/System/Library/CoreServices/SpringBoard.app/SpringBoard", 60, "com.apple.FrontBoard", "Process",
         "Process %d state changed: %{public}s, %d ms"),
        ("/usr/libexec/backboardd", 65, "com.apple.backboard.hid", "event", "Sending event %p of type %d to %d clients"),
        ("/usr/libexec/symptomsd", 120, "com.apple.symptomsd", "flow", "Data Usage for %{public}s on flow %d - WiFi in: %d, out: %d"),
    ]

    /// Writes at least `megabytes` of tracev3 files, and the strings and timesync files, under `folder` (a
    /// `.logarchive`); returns the archive's total size.
    mutating func write(megabytes: Int, to folder: String) throws -> Int {
        let writer = ArchiveWriter(bootWallSeconds: nanoseconds / 1_000_000_000 - 3600)
        var total = 0, file = 0
        try make(folder)
        try make(folder + "/Persist")
        while total < megabytes << 20 {
            for _ in 0..<entriesPerFile { step(writer) }
            guard let trace = writer.traceFile() else { break }
            file += 1
            let name = String(file, radix: 16)
            try save(trace, folder + "/Persist/" + String(repeating: "0", count: 16 - name.count) + name + ".tracev3")
            total += trace.count
        }
        for (path, bytes) in writer.supportFiles() {
            if let slash = path.lastIndex(of: "/") { try make(folder + "/" + path[..<slash]) }
            try save(bytes, folder + "/" + path)
            total += bytes.count
        }
        return total
    }

    private mutating func step(_ writer: ArchiveWriter) {
        entries += 1
        nanoseconds += 200_000 + Int(next(400_000))
        if entries % (entriesPerFile / 2) == 0 { return killBeforeRender(writer) }
        if next(100) < 5 { return chatter(writer) }
        let daemon = Self.daemons[Int(next(UInt64(Self.daemons.count)))]
        let arguments: [ArchiveWriter.Value] = daemon.format.split(separator: "%", omittingEmptySubsequences: false).dropFirst().map { part in
            part.hasPrefix("{private}") ? .hidden : part.hasPrefix("{public}s") ? .string("en0-\(next(9))") : .int(Int64(next(1_000_000)))
        }
        writer.add(ArchiveWriter.Entry(
            wallNanoseconds: nanoseconds, pid: daemon.pid, process: daemon.path, thread: UInt64(daemon.pid) << 8 | next(4),
            subsystem: daemon.subsystem, category: daemon.category, type: next(10) == 0 ? .info : .default,
            format: daemon.format, arguments: arguments))
    }

    /// WebKit's routine: a page of the app loading in a process that lives on.
    private mutating func chatter(_ writer: ArchiveWriter) {
        webKit(writer, "Loading", "%p - [pageProxyID=%d, webPageID=%d, PID=%d] WebPageProxy::didCommitLoadForFrame:",
               [.int(0x10a2b40), .int(7), .int(8), .int(4100)])
    }

    /// A WebContent process launched, then gone before WebKit could raise it to the foreground.
    private mutating func killBeforeRender(_ writer: ArchiveWriter) {
        let pid = Int64(nextPID)
        killedBeforeRender.append(nextPID)
        nextPID += 1
        webKit(writer, "Process", "%p - [PID=%d] WebProcessProxy::didFinishLaunching:", [.int(0x10c4779b0), .int(pid)])
        webKit(writer, "ProcessSuspension",
               "%p - ProcessAssertion::acquireSync Successfully took RBS assertion '%{public}s' for process with PID=%d",
               [.int(0x10c4779b0), .string("WebProcess Background Assertion"), .int(pid)])
        webKit(writer, "ProcessSuspension",
               "%p - ProcessAssertion: Failed to acquire RBS assertion '%{public}s' for process with PID=%d, error: %{public}@",
               [.int(0x10c4779b0), .string("WebProcess Foreground Assertion"), .int(pid),
                .string("Error Domain=RBSAssertionErrorDomain Code=2 \"Specified target process does not exist\"")])
        nanoseconds += 300_000_000
        webKit(writer, "Process", "%p - [PID=%d] WebProcessProxy::didClose: (web process %d crash)", [.int(0x10c4779b0), .int(pid), .int(0)])
    }

    private mutating func webKit(_ writer: ArchiveWriter, _ category: String, _ format: String, _ arguments: [ArchiveWriter.Value]) {
        nanoseconds += 1_000_000
        writer.add(ArchiveWriter.Entry(
            wallNanoseconds: nanoseconds, pid: 4100, process: Self.app, thread: 0x1a2b, subsystem: "com.apple.WebKit",
            category: category, type: .default, format: format, arguments: arguments, library: Self.webKit))
    }

    private mutating func next(_ bound: UInt64) -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state % bound
    }

    private func make(_ folder: Substring) throws { try make(String(folder)) }

    private func make(_ folder: String) throws {
        guard mkdir(folder, 0o755) == 0 || errno == EEXIST else {
            throw BenchFailure("cannot make '\(folder)': \(String(cString: strerror(errno)))")
        }
    }

    private func save(_ bytes: [UInt8], _ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw BenchFailure("cannot write '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        do throws(SystemError) { try Sys.write(bytes, to: fd) } catch { throw BenchFailure("cannot write '\(path)': \(error)") }
    }
}
