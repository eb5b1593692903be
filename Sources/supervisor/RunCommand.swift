import Glibc
import SupervisorKit

/// `supervisor run`.
enum RunCommand {
    /// Options shared by `run` and `compare`: the workload and the faults it meets.
    static let workloadOptions: Set<String> = [
        "--loads", "--views", "--hidden", "--hidden-time", "--content", "--seed", "--dwell", "--worker", "--inject-race", "--inject-kill",
        "--attach-delay", "--watchdog", "--blank-timeout", "--arrival", "--typing", "--journal", "--hang-timeout",
    ]

    static func main(_ words: ArraySlice<String>) throws -> Int32 {
        let arguments = try Arguments(
            words, options: workloadOptions.union(["--policy", "--log", "--log-format", "--session", "--tabs", "--allow-host"]),
            flags: ["--json"], optionalValues: ["--jetsam"])
        var configuration = try workload(arguments)
        let policyName = arguments.string("--policy") ?? "rebuild"
        guard let policy = Policy.named(policyName) else {
            throw UsageError("unknown policy '\(policyName)'; choose one of \(Policy.all.map(\.name).joined(separator: ", "))")
        }
        configuration.policy = policy
        let logPath = arguments.string("--log")
        switch (arguments.string("--log-format"), logPath) {
        case (nil, _), ("jsonl", _), ("ios", _?): break
        case ("ios", nil): throw UsageError("'--log-format ios' needs '--log <file>'")
        case (let format?, _): throw UsageError("unknown log format '\(format)'; choose jsonl or ios")
        }
        let content = try contentProvider(arguments)
        configuration.tabs = try arguments.integer("--tabs", default: 3, range: 1...1_000_000)
        configuration.navigation.allowedHosts.formUnion(arguments.strings("--allow-host").flatMap { $0.split(separator: ",").map(String.init) })
        configuration.sessionPath = arguments.string("--session")
        if arguments.string("--tabs") != nil && configuration.sessionPath == nil {
            throw UsageError("'--tabs' is the size of a new session: it needs '--session <file>'")
        }
        let saved = try configuration.sessionPath.flatMap { path in try SessionCommand.readIfPresent(path) }
        // Every check is done: only now may an existing log be emptied.
        let log = try open(logPath) { () throws(SystemError) in try EventLog(path: logPath) }
        if let logPath, arguments.string("--log-format") == "ios" {
            let path = logPath + ".ios.log"
            let console = try open(path) { () throws(SystemError) in try IOSConsoleLog(path: path) }
            log.observers.append(console.record)
            log.flushers.append(console.flush)
        }
        let host = try open(configuration.journalPath) { () throws(SystemError) in
            try Host(configuration: configuration, content: content, log: log)
        }
        if let path = configuration.sessionPath {
            if let (session, damage) = saved, !session.records.isEmpty {
                if let damage { printError("supervisor: warning: \(path): \(damage); restoring the rest") }
                host.restore(session, from: path, damage: damage)
            } else {
                if let damage = saved?.1 { printError("supervisor: warning: \(path): \(damage); starting a new session") }
                host.startSession(at: path, tabs: configuration.tabs)
            }
        }
        try host.stopOnTerminationSignals()
        let progress = Progress(total: configuration.loads, label: "run")
        log.observers.append(progress.record)
        let summary = try host.run()
        progress.finish()
        if let failure = host.failure { throw RuntimeError(failure) }
        try writeStandardOutput((arguments.flag("--json") ? summary.json.text : summary.text) + "\n")
        return summary.interrupted ? 130 : 0
    }

    /// Runs `body`, naming `path` in its error.
    static func open<T>(_ path: String?, _ body: () throws(SystemError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw RuntimeError("cannot open '\(path ?? "")': \(String(cString: strerror(error.errno)))")
        }
    }

    static func workload(_ arguments: Arguments) throws -> RunConfiguration {
        var configuration = RunConfiguration(workerPath: arguments.string("--worker") ?? defaultWorkerPath())
        configuration.loads = try arguments.integer("--loads", default: 20, range: 0...10_000_000)
        configuration.views = try arguments.integer("--views", default: 1, range: 1...4096)
        configuration.hidden = try arguments.integer("--hidden", default: 0, range: 0...configuration.views - 1)
        configuration.hiddenNanoseconds = try arguments.integer("--hidden-time", default: 50, range: 0...3_600_000) * 1_000_000
        configuration.dwellNanoseconds = try arguments.integer("--dwell", default: 0, range: 0...3_600_000) * 1_000_000
        if let text = arguments.string("--arrival") {
            guard let ms = Double(text), ms >= 0, ms < 3_600_000 else {
                throw UsageError("'--arrival' takes milliseconds between loads, not '\(text)'")
            }
            configuration.arrivalNanoseconds = Int(ms * 1e6)
        }
        configuration.watchdogNanoseconds = try arguments.integer("--watchdog", default: 3000, range: 1...3_600_000) * 1_000_000
        configuration.blankTimeoutNanoseconds =
            try arguments.integer("--blank-timeout", default: 5000, range: 1...3_600_000) * 1_000_000
        if let seed = arguments.string("--seed") {
            guard let value = UInt64(seed) else { throw UsageError("'--seed' must be a whole number, not '\(seed)'") }
            configuration.seed = value
        }
        configuration.raceRate = try rate(arguments, "--inject-race")
        configuration.killRate = try rate(arguments, "--inject-kill")
        if let text = arguments.string("--attach-delay") {
            let parts = text.split(separator: "-", maxSplits: 1).map { Double($0) }
            guard let low = parts.first ?? nil, let high = parts.count == 2 ? parts[1] : low, low >= 0, high >= low else {
                throw UsageError("'--attach-delay' takes milliseconds, MS or MIN-MAX, not '\(text)'")
            }
            configuration.attachDelayNanoseconds = Int(low * 1e6)...Int(high * 1e6)
        }
        configuration.hangTimeoutNanoseconds =
            try arguments.integer("--hang-timeout", default: 3000, range: 1...3_600_000) * 1_000_000
        let typing = try arguments.integer("--typing", default: 0, range: 0...10_000)
        configuration.typingIntervalNanoseconds = typing > 0 ? 1_000_000_000 / typing : 0
        configuration.journalPath = arguments.string("--journal")
        if configuration.journalPath != nil && typing == 0 {
            throw UsageError("'--journal' saves typed input: it needs '--typing <n>'")
        }
        guard access(configuration.workerPath, X_OK) == 0 else {
            throw RuntimeError("worker executable not found at '\(configuration.workerPath)' (build it with 'swift build' or pass --worker)")
        }
        if let spec = arguments.string("--jetsam") {
            var settings = try jetsam(spec)
            // Beside the event log by default, where `analyze --truth` looks for it.
            if settings.logPath == nil, let log = arguments.string("--log") { settings.logPath = log + ".jetsam.jsonl" }
            configuration.jetsam = settings
        }
        return configuration
    }

    /// `--jetsam` or `--jetsam=budget=MB,interval=MS,pressure=critical,log=FILE`.
    static func jetsam(_ spec: String) throws -> JetsamSettings {
        var settings = JetsamSettings(executable: siblingExecutable("Jetsam"))
        for option in spec.split(separator: ",") {
            let pair = option.split(separator: "=", maxSplits: 1).map(String.init)
            switch (pair.first, pair.count == 2 ? pair[1] : nil) {
            case ("budget", let value?) where Int(value).map({ $0 > 0 }) == true: settings.budgetMegabytes = Int(value)!
            case ("interval", let value?) where Double(value).map({ $0 > 0 }) == true:
                settings.intervalMilliseconds = Double(value)!
            case ("pressure", "critical"): settings.critical = true
            case ("pressure", "normal"): settings.critical = false
            case ("log", let value?): settings.logPath = value
            default: throw UsageError("'--jetsam' takes budget=<MB>,interval=<ms>,pressure=normal|critical,log=<file>, not '\(option)'")
            }
        }
        guard access(settings.executable, X_OK) == 0 else {
            throw RuntimeError("Jetsam executable not found at '\(settings.executable)' (build it with 'swift build')")
        }
        return settings
    }

    static func contentProvider(_ arguments: Arguments) throws -> ContentProvider {
        try arguments.string("--content").map { root in try ContentProvider(root: root) } ?? ContentProvider()
    }

    /// A rate as `1/200`, `0.005` or `1`.
    static func rate(_ arguments: Arguments, _ name: String) throws -> Double {
        guard let text = arguments.string(name) else { return 0 }
        let parts = text.split(separator: "/", maxSplits: 1).map { Double($0) }
        let value: Double? = parts.count == 2 ? parts[0].flatMap { n in parts[1].map { n / $0 } } : parts.first ?? nil
        guard let value, value.isFinite, (0...1).contains(value) else {
            throw UsageError("'\(name)' takes a rate from 0 to 1 such as 1/200, not '\(text)'")
        }
        return value
    }

    /// The WebContent executable built beside this one.
    static func defaultWorkerPath() -> String {
        siblingExecutable("WebContent")
    }

    static func siblingExecutable(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        guard count > 0 else { return name }
        let exe = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/" + name
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
        writeStandardError("\r\u{1B}[K\(label): \(done)/\(total) loads, \(rendered) rendered, \(done - rendered) blank")
    }

    func finish() {
        if enabled && lastDrawn > 0 { writeStandardError("\r\u{1B}[K") }
    }
}
