import Charts
import Core
import CommandLineOptions
import Glibc
import Replay
import Scenario
import Browser
import System
import Text

/// `supervisor compare`: every policy against the same seeded workload and faults, `--jobs` side by side.
enum CompareCommand {
    static func main(_ words: ArraySlice<String>) throws -> Int32 {
        let options = Commands.compare
        let arguments = try options.table.parse(words)
        var workload = try RunCommand.workload(options.workload, arguments)
        let policies = arguments[options.policies]
        let svgPath = arguments[options.svg]
        let force = arguments[options.force]
        var roles = try RunCommand.workloadFiles(options.workload, arguments, workload, force: force)
        if let svgPath { try roles.writes(svgPath, DocumentKinds.chart, force: force, standardOutput: true) }
        let replay = try arguments[options.replay].map { path in
            try roles.reads(path, as: "the replay schedule")
            return try Self.replaySchedule(path, options, arguments)
        }
        if replay == nil && arguments.given(options.repeats) {
            throw UsageError("'\(options.repeats.entry.name)' is for '--replay': without a schedule there is nothing to replay")
        }
        let width = min(policies.count, arguments[options.jobs] ?? Self.defaultWidth)
        workload.settings.waits = try Self.waits(options, arguments, workload.settings)
        if let replay {
            workload.settings.replay = replay
            workload.settings.loads = replay.incidents.count * arguments[options.repeats]
        }
        let contentPath = arguments[options.workload.content]
        let makeContent: @Sendable () throws -> ContentProvider = {
            try replay.map(ReplayPages.provider) ?? RunCommand.contentProvider(contentPath)
        }
        let content = try makeContent()
        for policy in policies {
            var settings = workload.settings
            settings.policy = policy
            // Side by side, each run's views are open beside the others'.
            settings.views *= width
            try RunCommand.checkDescriptorBudget(settings)
        }
        // Opened before the comparison runs, not after minutes of work; placed only once it is done.
        let svg = try svgPath.map { path in
            try OutputFile(path, kind: DocumentKinds.chart, force: force, standardOutputAllowed: true)
        }
        let jetsamLog = try workload.jetsamLog.map { try OutputFile($0, kind: JetsamSettings.logKind, force: force) }
        workload.settings.jetsam?.logFD = jetsamLog?.fd
        let configuration = workload.settings
        TerminationSignals.block()
        defer { TerminationSignals.unblock() }
        try Orphans.adopt()
        defer { Orphans.sweepAll() }
        let (summaries, outcomes) = if width > 1 {
            try Self.sideBySide(policies, configuration, width: width, content: makeContent)
        } else {
            try Self.oneAfterAnother(policies, configuration, content: content)
        }
        try jetsamLog?.commit()
        let report = Comparison(
            summaries: summaries, notRun: policies.dropFirst(summaries.count).map(\.name), configuration: configuration,
            policies: policies, atOnce: width)
        let replayed = replay.map {
            ReplayReport(schedule: $0, runs: Array(zip(summaries, outcomes)), notRun: report.notRun, policies: policies)
        }
        let text: String
        if arguments[options.json] {
            var json = report.json
            if let replayed, case .object(var members) = json {
                members.append(("replay", replayed.json))
                json = .object(members)
            }
            text = json.text + "\n"
        } else {
            text = report.table + (replayed.map { "\n" + $0.table } ?? "") + "\n"
        }
        // With the chart on standard output, the tables go beside it, not into it.
        if svg?.isStandardOutput == true { writeStandardError(text) } else { try writeStandardOutput(text) }
        try svg?.write(Chart(comparison: report).svg)
        try svg?.commit()
        return report.interrupted ? 130 : 0
    }

    /// Each policy's run, one after another, until one is interrupted.
    static func oneAfterAnother(
        _ policies: [Policy], _ configuration: RunConfiguration, content: ContentProvider
    ) throws -> ([RunSummary], [ReplayOutcome]) {
        var configuration = configuration
        var summaries: [RunSummary] = []
        var outcomes: [ReplayOutcome] = []
        let began = Sys.monotonicNanoseconds()
        for (i, policy) in policies.enumerated() {
            configuration.policy = policy
            let log = EventLog()
            let progress = Progress(
                total: configuration.loads, label: "compare \(i + 1)/\(policies.count) \(policy.name)",
                before: i * configuration.loads, overall: policies.count * configuration.loads, began: began)
            log.observers.append(progress.record)
            if let replay = configuration.replay {
                let outcome = ReplayOutcome(schedule: replay)
                log.observers.append(outcome.record)
                outcomes.append(outcome)
            }
            let simulation = try Simulation(configuration: configuration, content: content, log: log)
            try simulation.stopOnTerminationSignals()
            let summary = try simulation.run()
            progress.finish()
            if let failure = simulation.failure { throw RuntimeError(failure) }
            summaries.append(summary)
            if summary.interrupted { break }
        }
        return (summaries, outcomes)
    }

    /// How the runs pass their waits: simulated unless something runs on real time beside the workers (Jetsam, the
    /// typist and its journal) or the pages are the user's, which may act on their own clock after they render.
    static func waits(_ options: CompareOptions, _ arguments: ParsedOptions, _ settings: RunConfiguration) throws -> Waits {
        let realTime = settings.jetsam != nil ? "--jetsam" : settings.typingIntervalNanoseconds > 0 ? "--typing" : nil
        guard let chosen = arguments[options.waits] else {
            return realTime == nil && arguments[options.workload.content] == nil ? .simulated : .real
        }
        if chosen == .simulated, let realTime {
            throw UsageError("'--waits simulated' cannot be combined with '\(realTime)', which runs in real time")
        }
        return chosen
    }

    /// How many policies run at once without `--jobs`: one a CPU pair, as each keeps a supervisor thread and its
    /// workers busy. One a CPU would be quicker and lose nothing a seed fixes (on 2 CPUs, 2,000 loads at 1/200 took
    /// 24 s instead of 40 s with simulated waits, 38–40 s instead of 73–78 s with real ones, with the same blank
    /// loads and race kills), but the times to visible would measure the neighbour: medians 1.1–2.5 times as long
    /// at 1/200 (1.45 with simulated waits), and at 1/20 rebuild's 407 ms instead of 12, beside always-foreground's
    /// workers at nice 0 (a band is the whole machine's). Keeping each to a CPU of its own made it worse: each
    /// policy's supervisor thread then waits behind its own workers.
    static var defaultWidth: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)) / 2) }

    /// Each policy's run, `width` at once (`SideBySide`), in the policies' order, with one progress line for all;
    /// the policies not started when a signal came are left out, as when one runs after another.
    static func sideBySide(
        _ policies: [Policy], _ configuration: RunConfiguration, width: Int,
        content: @escaping @Sendable () throws -> ContentProvider
    ) throws -> ([RunSummary], [ReplayOutcome]) {
        let progress = SharedProgress(Progress(
            total: policies.count * configuration.loads, label: "compare: \(policies.count) policies, \(width) at once"))
        let runs = try SideBySide.run(policies.count, width: width) { i, relay in
            var configuration = configuration
            configuration.policy = policies[i]
            let log = EventLog()
            let outcome = configuration.replay.map(ReplayOutcome.init(schedule:))
            log.observers += [progress.record] + (outcome.map { [$0.record] } ?? [])
            do {
                let simulation = try Simulation(configuration: configuration, content: try content(), log: log)
                try simulation.stopOnRelayedSignals(relay)
                let summary = try simulation.run()
                if let failure = simulation.failure { throw RuntimeError(failure) }
                return LaneRun(.success((summary, outcome)))
            } catch {
                return LaneRun(.failure(error))
            }
        }
        progress.finish()
        var (summaries, outcomes): ([RunSummary], [ReplayOutcome]) = ([], [])
        for run in runs {
            guard let (summary, outcome) = try run?.result.get() else { break }
            summaries.append(summary)
            outcomes += outcome.map { [$0] } ?? []
        }
        return (summaries, outcomes)
    }

    /// A policy's run, handed from its thread once the thread is done with it.
    final class LaneRun: @unchecked Sendable {
        let result: Result<(RunSummary, ReplayOutcome?), any Error>
        init(_ result: Result<(RunSummary, ReplayOutcome?), any Error>) { self.result = result }
    }

    /// The schedule at `path`, checked before any policy runs; the options that would contradict it are refused.
    static func replaySchedule(_ path: String, _ options: CompareOptions, _ arguments: ParsedOptions) throws -> ReplaySchedule {
        let workload = options.workload
        let contradicting: [any OptionHandle] = [
            workload.loads, workload.injectRace, workload.injectKill, workload.content, workload.attachDelay,
            workload.hidden, workload.hiddenTime, workload.sites, workload.jetsam, workload.typing,
        ]
        for option in contradicting where arguments.given(option) {
            throw UsageError("'\(option.entry.name)' cannot be combined with '--replay': the schedule says what each load meets")
        }
        let bytes = try InputFile(path).readAll(limit: ReplaySchedule.fileLimit)
        let schedule: ReplaySchedule
        do {
            schedule = try ReplaySchedule(json: bytes)
        } catch {
            // What is wrong may quote the file (a key it does not know).
            throw RuntimeError("replay schedule '\(path)': \(visible("\(error)"))")
        }
        guard !schedule.incidents.isEmpty else { throw RuntimeError("replay schedule '\(path)' holds no incident: nothing to replay") }
        return schedule
    }
}
