import Glibc
import SupervisorKit

/// `supervisor run`.
enum RunCommand {
    static func main(_ words: ArraySlice<String>) throws -> Int32 {
        let arguments = try Arguments(
            words, options: ["--policy", "--loads", "--views", "--content", "--seed", "--log", "--dwell", "--worker"],
            flags: ["--json"])
        let policyName = arguments.string("--policy") ?? "rebuild"
        guard let policy = Policy.named(policyName) else {
            throw UsageError("unknown policy '\(policyName)'; choose one of \(Policy.all.map(\.name).joined(separator: ", "))")
        }
        var configuration = RunConfiguration(workerPath: arguments.string("--worker") ?? defaultWorkerPath())
        configuration.policy = policy
        configuration.loads = try arguments.integer("--loads", default: 20, range: 0...10_000_000)
        configuration.views = try arguments.integer("--views", default: 1, range: 1...4096)
        configuration.dwellNanoseconds = try arguments.integer("--dwell", default: 0, range: 0...3_600_000) * 1_000_000
        if let seed = arguments.string("--seed") {
            guard let value = UInt64(seed) else { throw UsageError("'--seed' must be a whole number, not '\(seed)'") }
            configuration.seed = value
        }
        guard access(configuration.workerPath, X_OK) == 0 else {
            throw RuntimeError("worker executable not found at '\(configuration.workerPath)' (build it with 'swift build' or pass --worker)")
        }
        let content = try arguments.string("--content").map { root in try ContentProvider(root: root) } ?? ContentProvider()
        let log: EventLog
        do {
            log = try EventLog(path: arguments.string("--log"))
        } catch {
            throw RuntimeError("cannot open log file '\(arguments.string("--log") ?? "")': \(String(cString: strerror(error.errno)))")
        }
        let host = try Host(configuration: configuration, content: content, log: log)
        try host.stopOnTerminationSignals()
        let progress = Progress(total: configuration.loads, label: "run")
        log.observers.append(progress.record)
        let summary = try host.run()
        progress.finish()
        print(arguments.flag("--json") ? summary.json.text : summary.text)
        return summary.interrupted ? 130 : 0
    }

    /// The WebContent executable built beside this one.
    static func defaultWorkerPath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        guard count > 0 else { return "WebContent" }
        let exe = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            + "/WebContent"
    }
}

/// A single progress line on stderr, only when stderr is a terminal, redrawn at most ten times a second.
final class Progress {
    private let total: Int
    private let label: String
    private let enabled = isatty(2) == 1
    private var done = 0
    private var rendered = 0
    private var lastDrawn = 0

    init(total: Int, label: String) {
        self.total = total
        self.label = label
    }

    func record(_ event: Event) {
        guard enabled, event.name == "load-end" else { return }
        done += 1
        if event["timeToVisibleMs"] != nil { rendered += 1 }
        guard event.monotonic - lastDrawn > 100_000_000 || done == total else { return }
        lastDrawn = event.monotonic
        writeStandardError("\r\(label): \(done)/\(total) loads, \(rendered) rendered, \(done - rendered) blank")
    }

    func finish() {
        if enabled && lastDrawn > 0 { writeStandardError("\r\u{1B}[K") }
    }
}
