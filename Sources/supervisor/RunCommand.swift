import Core
import CommandLineOptions
import Glibc
import Scenario
import Browser
import System
import Text

/// `supervisor run`.
enum RunCommand {
    static func main(_ words: ArraySlice<String>) throws -> Int32 {
        let options = Commands.run
        let arguments = try options.table.parse(words)
        var workload = try Self.workload(options.workload, arguments)
        workload.settings.policy = arguments[options.policy]
        let logPath = arguments[options.log]
        let logFile = logPath.flatMap { OutputFile.namesStandardOutput($0) ? nil : $0 }
        let iosLogPath = try iosLog(arguments[options.logFormat], logPath, file: logFile)
        if workload.jetsamLog == nil, let logFile, workload.settings.jetsam != nil {
            // Beside the event log by default, where `analyze --truth` looks for it.
            workload.jetsamLog = logFile + ".jetsam.jsonl"
        }
        workload.settings.tabs = arguments[options.tabs]
        workload.settings.navigation.allowedHosts.formUnion(arguments.all(options.allowHost).joined())
        let sessionPath = arguments[options.session]
        if arguments.given(options.tabs) && sessionPath == nil {
            throw UsageError("'--tabs' is the size of a new session: it needs '--session <file>'")
        }
        workload.settings.liveTabs = arguments[options.liveTabs]
        if arguments.given(options.liveTabs) && sessionPath == nil {
            throw UsageError("'--live-tabs' gives a session's tabs workers: it needs '--session <file>'")
        }
        if arguments[options.keepWorkers] {
            if let unsupported = KeepWorkersSettings.unsupported(kernelRelease: Sys.kernelRelease()) {
                throw RuntimeError(unsupported)
            }
            var keep = KeepWorkersSettings(holderPath: siblingExecutable("Holder"))
            keep.leaseNanoseconds = arguments[options.lease]
            try requireExecutable(keep.holderPath, "Holder", hint: "build it with 'swift build'")
            workload.settings.keepWorkers = keep
        } else if arguments.given(options.lease) {
            throw UsageError("'--lease' is how long the holder keeps the workers: it needs '--keep-workers'")
        }
        let force = arguments[options.force]
        var roles = try workloadFiles(options.workload, arguments, workload, force: force)
        if let sessionPath { try roles.uses(sessionPath, as: "the session") }
        if let path = arguments[options.outsideKills] {
            try roles.reads(path, as: "the outside kills")
            _ = try InputFile(path)
            workload.settings.outsideKillsPath = path
        }
        if let logFile { try roles.writes(logFile, EventLog.outputKind, force: force) }
        if let iosLogPath { try roles.writes(iosLogPath, IOSConsoleLog.outputKind, force: force) }
        let content = try contentProvider(arguments[options.workload.content])
        try checkDescriptorBudget(workload.settings)

        // Every check is done. Files are taken in an order that destroys nothing if a later one fails: the
        // session (locked, read), then the outputs (new, or replacements placed only at the end).
        let session = try sessionPath.map { path in try SessionStore(path: path) }
        if let session, workload.settings.keepWorkers != nil {
            let path = try Sys.realPath(session.path)
            workload.settings.keepWorkers?.holderName = KeepWorkersSettings.holderName(session: path)
        }
        let saved = try session?.read()
        let outputs = try RunOutputs(log: logPath, iosLog: iosLogPath, jetsamLog: workload.jetsamLog, force: force)
        workload.settings.jetsam?.logFD = outputs.jetsamLog?.fd
        let log = EventLog(output: outputs.log)
        if let file = outputs.iosLog {
            let console = IOSConsoleLog(output: file)
            log.observers.append(console.record)
            log.flushers.append(console.flush)
        }
        try Orphans.adopt()
        defer { Orphans.sweepAll() }
        let simulation = try Simulation(configuration: workload.settings, content: content, log: log)
        if let session {
            if let (records, damage) = saved, !records.records.isEmpty {
                if let damage { printError("supervisor: warning: \(session.path): \(damage); restoring the rest") }
                simulation.browser.restore(records, damage: damage, into: session)
            } else {
                if let damage = saved?.damage { printError("supervisor: warning: \(session.path): \(damage); starting a new session") }
                simulation.browser.startSession(tabs: workload.settings.tabs, into: session)
            }
        }
        TerminationSignals.block()
        defer { TerminationSignals.unblock() }
        try simulation.stopOnTerminationSignals()
        let progress = Progress(total: workload.settings.loads, label: "run")
        log.observers.append(progress.record)
        let summary: RunSummary
        do {
            summary = try simulation.run()
        } catch {
            progress.finish()
            // The logs are the evidence of how the run ended: kept (a new one already stands at its name).
            try? outputs.commit()
            throw error
        }
        progress.finish()
        // The logs are true whatever the run's outcome: they take their place now.
        try outputs.commit()
        if let failure = simulation.failure { throw RuntimeError(failure) }
        let text = (arguments[options.json] ? summary.json.text : summary.text) + "\n"
        // With the event log on standard output, the summary goes beside it, not into it.
        if outputs.log?.isStandardOutput == true { writeStandardError(text) } else { try writeStandardOutput(text) }
        if summary.lostInputs > 0 {
            let lost = summary.lostInputs
            throw RuntimeError("\(lost) typed \(lost == 1 ? "input was" : "inputs were") lost")
        }
        return summary.interrupted ? 130 : 0
    }

    /// `<log>.ios.log` with `--log-format ios`.
    static func iosLog(_ format: RunLogFormat, _ logPath: String?, file: String?) throws -> String? {
        switch (format, logPath) {
        case (.jsonl, _): return nil
        case (.ios, let path?):
            guard let file else { throw UsageError("'--log-format ios' writes <file>.ios.log: give '--log <file>', not '\(path)'") }
            return file + ".ios.log"
        case (.ios, nil): throw UsageError("'--log-format ios' needs '--log <file>'")
        }
    }

    /// The files the workload names: the content it reads, the journal and Jetsam's log it writes.
    static func workloadFiles(
        _ options: WorkloadOptions, _ arguments: ParsedOptions, _ workload: Workload, force: Bool
    ) throws -> FileRoles {
        var roles = FileRoles()
        if let path = arguments[options.content] { try roles.reads(path, as: "the content directory") }
        if let path = workload.settings.journalPath { try roles.uses(path, as: "the input journal") }
        if let path = workload.jetsamLog { try roles.writes(path, JetsamSettings.logKind, force: force) }
        return roles
    }

    /// Stops a run that would run out of descriptors before it starts, saying what it needs: each worker holds
    /// four (its channel's two pipe ends, its standard error's and its pidfd), and a view being rebuilt holds its
    /// old worker and its new one.
    static func checkDescriptorBudget(_ settings: RunConfiguration) throws {
        let workers = 2 * settings.views + settings.policy.spareWorkers + (settings.typingIntervalNanoseconds > 0 ? 1 : 0)
        let needed = 32 + 4 * workers
        let limit = Sys.raiseDescriptorLimit()
        guard needed > limit else { return }
        throw RuntimeError(
            "\(counted(settings.views, "view")) \(settings.views == 1 ? "needs" : "need") about \(needed) descriptors, over the "
                + "limit of \(limit) (ulimit -n)")
    }

    /// The workload's settings, every value already checked by the table; here only what one option says of
    /// another.
    static func workload(_ options: WorkloadOptions, _ arguments: ParsedOptions) throws -> Workload {
        var configuration = RunConfiguration(workerPath: workerExecutable(arguments[options.worker]))
        options.apply(arguments, to: &configuration)
        guard configuration.hidden < configuration.views else {
            throw UsageError("'--hidden' must be a whole number from 0 to \(configuration.views - 1), not '\(configuration.hidden)'")
        }
        configuration.sandbox = !arguments[options.noSandbox]
        configuration.watchdogNanoseconds = arguments[options.watchdog]
        let typing = arguments[options.typing]
        configuration.typingIntervalNanoseconds = typing > 0 ? 1_000_000_000 / typing : 0
        configuration.journalPath = arguments[options.journal]
        configuration.salvageJournal = arguments[options.salvageJournal]
        if configuration.journalPath != nil && typing == 0 {
            throw UsageError("'--journal' saves typed input: it needs '--typing <n>'")
        }
        if configuration.salvageJournal && configuration.journalPath == nil {
            throw UsageError("'--salvage-journal' opens a damaged journal: it needs '--journal <file>'")
        }
        try requireExecutable(configuration.workerPath, "worker", hint: "build it with 'swift build' or pass --worker")
        var workload = Workload(settings: configuration)
        if var jetsam = arguments[options.jetsam] {
            jetsam.settings.executable = siblingExecutable("Jetsam")
            try requireExecutable(jetsam.settings.executable, "Jetsam", hint: "build it with 'swift build'")
            (workload.settings.jetsam, workload.jetsamLog) = (jetsam.settings, jetsam.log)
        }
        return workload
    }

    /// An executable the run starts, checked before anything else happens: a regular file this user may run.
    static func requireExecutable(_ path: String, _ what: String, hint: String) throws {
        let found = try? UserPath(path, for: "run")
        guard let status = found?.status else { throw RuntimeError("\(what) executable not found at '\(path)' (\(hint))") }
        guard status.isRegular else { throw RuntimeError("\(what) executable '\(path)' is \(status.kindName), not a program") }
        guard access(path, X_OK) == 0 else { throw RuntimeError("\(what) executable '\(path)' may not be run by this user") }
    }

    static func contentProvider(_ root: String?) throws -> ContentProvider {
        try root.map { root in try ContentProvider(root: root) } ?? ContentProvider()
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
