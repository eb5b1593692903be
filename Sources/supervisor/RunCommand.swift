import Glibc
import SupervisorKit

/// `supervisor run`.
enum RunCommand {
    /// Options shared by `run` and `compare`: the workload and the faults it meets.
    static let workloadOptions: Set<String> = [
        "--loads", "--views", "--hidden", "--hidden-time", "--content", "--seed", "--dwell", "--worker", "--inject-race", "--inject-kill",
        "--attach-delay", "--watchdog", "--blank-timeout", "--arrival", "--typing", "--journal", "--hang-timeout",
    ]
    static let workloadFlags: Set<String> = ["--salvage-journal"]

    static func main(_ words: ArraySlice<String>) throws -> Int32 {
        let arguments = try Arguments(
            words, options: workloadOptions.union(["--policy", "--log", "--log-format", "--session", "--tabs", "--allow-host"]),
            flags: workloadFlags.union(["--json"]), optionalValues: ["--jetsam"])
        var workload = try Self.workload(arguments)
        let policyName = arguments.string("--policy") ?? "rebuild"
        guard let policy = Policy.named(policyName) else {
            throw UsageError("unknown policy '\(policyName)'; choose one of \(Policy.all.map(\.name).joined(separator: ", "))")
        }
        workload.settings.policy = policy
        let logPath = try arguments.path("--log")
        let logFile = logPath.flatMap { OutputFile.namesStandardOutput($0) ? nil : $0 }
        let iosLogPath = try iosLog(arguments, logPath, file: logFile)
        if workload.jetsamLog == nil, let logFile, workload.settings.jetsam != nil {
            // Beside the event log by default, where `analyze --truth` looks for it.
            workload.jetsamLog = logFile + ".jetsam.jsonl"
        }
        workload.settings.tabs = try arguments.integer("--tabs", default: 3, range: 1...1_000_000)
        workload.settings.navigation.allowedHosts.formUnion(
            arguments.strings("--allow-host").flatMap { $0.split(separator: ",").map(String.init) })
        let sessionPath = try arguments.path("--session")
        if arguments.string("--tabs") != nil && sessionPath == nil {
            throw UsageError("'--tabs' is the size of a new session: it needs '--session <file>'")
        }
        var roles = try workloadFiles(arguments, workload)
        if let sessionPath { try roles.uses(sessionPath, as: "the session") }
        if let logFile { try roles.writes(logFile, as: "the event log") }
        if let iosLogPath { try roles.writes(iosLogPath, as: "the iOS log") }
        let content = try contentProvider(arguments)
        try checkDescriptorBudget(workload.settings)

        // Every check is done. Files are taken in an order that destroys nothing if a later one fails: the
        // session (locked, read), then the outputs (new, or replacements placed only at the end).
        let session = try sessionPath.map { path in try SessionStore(path: path) }
        let saved = try session?.read()
        let outputs = try RunOutputs(log: logPath, iosLog: iosLogPath, jetsamLog: workload.jetsamLog)
        workload.settings.jetsam?.logFD = outputs.jetsamLog?.fd
        let log = EventLog(output: outputs.log)
        if let file = outputs.iosLog {
            let console = IOSConsoleLog(output: file)
            log.observers.append(console.record)
            log.flushers.append(console.flush)
        }
        let host = try Host(configuration: workload.settings, content: content, log: log)
        if let session {
            if let (records, damage) = saved, !records.records.isEmpty {
                if let damage { printError("supervisor: warning: \(session.path): \(damage); restoring the rest") }
                host.restore(records, damage: damage, into: session)
            } else {
                if let damage = saved?.damage { printError("supervisor: warning: \(session.path): \(damage); starting a new session") }
                host.startSession(tabs: workload.settings.tabs, into: session)
            }
        }
        TerminationSignals.block()
        defer { TerminationSignals.unblock() }
        try host.stopOnTerminationSignals()
        let progress = Progress(total: workload.settings.loads, label: "run")
        log.observers.append(progress.record)
        let summary = try host.run()
        progress.finish()
        // The logs are true whatever the run's outcome: they take their place now.
        try outputs.commit()
        if let failure = host.failure { throw RuntimeError(failure) }
        let text = (arguments.flag("--json") ? summary.json.text : summary.text) + "\n"
        // With the event log on standard output, the summary goes beside it, not into it.
        if outputs.log?.isStandardOutput == true { writeStandardError(text) } else { try writeStandardOutput(text) }
        if let missing = summary.missingFields.first { throw RuntimeError("cannot tell what the run lost: \(missing)") }
        if let lost = summary.lostInputs, lost > 0 {
            throw RuntimeError("\(lost) typed \(lost == 1 ? "input was" : "inputs were") lost")
        }
        return summary.interrupted ? 130 : 0
    }

    /// `<log>.ios.log` with `--log-format ios`.
    static func iosLog(_ arguments: Arguments, _ logPath: String?, file: String?) throws -> String? {
        switch (arguments.string("--log-format"), logPath) {
        case (nil, _), ("jsonl", _): return nil
        case ("ios", let path?):
            guard let file else { throw UsageError("'--log-format ios' writes <file>.ios.log: give '--log <file>', not '\(path)'") }
            return file + ".ios.log"
        case ("ios", nil): throw UsageError("'--log-format ios' needs '--log <file>'")
        case (let format?, _): throw UsageError("unknown log format '\(format)'; choose jsonl or ios")
        }
    }

    /// The files the workload names: the content it reads, the journal and Jetsam's log it writes.
    static func workloadFiles(_ arguments: Arguments, _ workload: Workload) throws -> FileRoles {
        var roles = FileRoles()
        if let path = try arguments.path("--content") { try roles.reads(path, as: "the content directory") }
        if let path = workload.settings.journalPath { try roles.uses(path, as: "the input journal") }
        if let path = workload.jetsamLog { try roles.writes(path, as: "Jetsam's log") }
        return roles
    }

    /// Stops a run that would run out of descriptors before it starts, saying what it needs: each worker holds
    /// three (its two pipe ends and its pidfd), and a view being rebuilt holds its old worker and its new one.
    static func checkDescriptorBudget(_ settings: RunConfiguration) throws {
        let workers = 2 * settings.views + settings.policy.spareWorkers + (settings.typingIntervalNanoseconds > 0 ? 1 : 0)
        let needed = 32 + 3 * workers
        let limit = Sys.raiseDescriptorLimit()
        guard needed > limit else { return }
        throw RuntimeError(
            "\(counted(settings.views, "view")) need about \(needed) descriptors, over the limit of \(limit) (ulimit -n)")
    }

    /// The workload's options, every number range-checked before anything uses it.
    static func workload(_ arguments: Arguments) throws -> Workload {
        var configuration = RunConfiguration(workerPath: workerExecutable(try arguments.path("--worker")))
        configuration.loads = try arguments.integer("--loads", default: 20, range: 0...10_000_000)
        configuration.views = try arguments.integer("--views", default: 1, range: 1...4096)
        configuration.hidden = try arguments.integer("--hidden", default: 0, range: 0...configuration.views - 1)
        configuration.hiddenNanoseconds = try arguments.integer("--hidden-time", default: 50, range: 0...3_600_000) * 1_000_000
        configuration.dwellNanoseconds = try arguments.integer("--dwell", default: 0, range: 0...3_600_000) * 1_000_000
        if let text = arguments.string("--arrival") {
            configuration.arrivalNanoseconds = try arguments.milliseconds("--arrival", text, range: 0...3_600_000)
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
            let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count <= 2 else { throw UsageError("'--attach-delay' takes MS or MIN-MAX, not '\(text)'") }
            let low = try arguments.milliseconds("--attach-delay", parts[0], range: 0...3_600_000)
            let high = try parts.count == 2 ? arguments.milliseconds("--attach-delay", parts[1], range: 0...3_600_000) : low
            guard low <= high else { throw UsageError("'--attach-delay' takes MIN-MAX with MIN at most MAX, not '\(text)'") }
            configuration.attachDelayNanoseconds = low...high
        }
        configuration.hangTimeoutNanoseconds =
            try arguments.integer("--hang-timeout", default: 3000, range: 1...3_600_000) * 1_000_000
        let typing = try arguments.integer("--typing", default: 0, range: 0...10_000)
        configuration.typingIntervalNanoseconds = typing > 0 ? 1_000_000_000 / typing : 0
        configuration.journalPath = try arguments.path("--journal")
        configuration.salvageJournal = arguments.flag("--salvage-journal")
        if configuration.journalPath != nil && typing == 0 {
            throw UsageError("'--journal' saves typed input: it needs '--typing <n>'")
        }
        if configuration.salvageJournal && configuration.journalPath == nil {
            throw UsageError("'--salvage-journal' opens a damaged journal: it needs '--journal <file>'")
        }
        try requireExecutable(configuration.workerPath, "worker", hint: "build it with 'swift build' or pass --worker")
        var workload = Workload(settings: configuration)
        if let spec = arguments.string("--jetsam") {
            (workload.settings.jetsam, workload.jetsamLog) = try jetsam(spec)
        }
        return workload
    }

    /// `--jetsam` or `--jetsam=budget=MB,interval=MS,pressure=critical,log=FILE`, checked against the bounds Jetsam
    /// itself enforces, so that a value it would refuse stops the run here instead of leaving it without a killer.
    static func jetsam(_ spec: String) throws -> (JetsamSettings, log: String?) {
        var settings = JetsamSettings(executable: siblingExecutable("Jetsam"))
        var log: String?
        let interval = JetsamSettings.intervalMilliseconds
        let usage = "'--jetsam' takes budget=<1-\(JetsamSettings.maxBudgetMegabytes) MB>,"
            + "interval=<\(Arguments.plain(interval.lowerBound))-\(Arguments.plain(interval.upperBound)) ms>,"
            + "pressure=normal|critical,log=<file>"
        for option in spec.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = option.split(separator: "=", maxSplits: 1).map(String.init)
            switch (pair.first, pair.count == 2 ? pair[1] : nil) {
            case ("budget", let value?):
                guard let megabytes = Int(value), (1...JetsamSettings.maxBudgetMegabytes).contains(megabytes) else {
                    throw UsageError("\(usage), not '\(option)'")
                }
                settings.budgetMegabytes = megabytes
            case ("interval", let value?):
                guard let ms = Double(value), ms.isFinite, JetsamSettings.intervalMilliseconds.contains(ms) else {
                    throw UsageError("\(usage), not '\(option)'")
                }
                settings.intervalMilliseconds = ms
            case ("pressure", "critical"): settings.critical = true
            case ("pressure", "normal"): settings.critical = false
            case ("log", let value?) where !value.isEmpty: log = value
            case ("", nil) where spec.isEmpty: break
            default: throw UsageError("\(usage), not '\(option)'")
            }
        }
        try requireExecutable(settings.executable, "Jetsam", hint: "build it with 'swift build'")
        return (settings, log)
    }

    /// An executable the run starts, checked before anything else happens: a regular file this user may run.
    static func requireExecutable(_ path: String, _ what: String, hint: String) throws {
        let found = try? UserPath(path, for: "run")
        guard let status = found?.status else { throw RuntimeError("\(what) executable not found at '\(path)' (\(hint))") }
        guard status.isRegular else { throw RuntimeError("\(what) executable '\(path)' is \(status.kindName), not a program") }
        guard access(path, X_OK) == 0 else { throw RuntimeError("\(what) executable '\(path)' may not be run by this user") }
    }

    static func contentProvider(_ arguments: Arguments) throws -> ContentProvider {
        try arguments.path("--content").map { root in try ContentProvider(root: root) } ?? ContentProvider()
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
    static func siblingExecutable(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        guard count > 0 else { return name }
        let exe = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/" + name
    }
}
