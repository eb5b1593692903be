import Glibc
import SupervisorKit

/// `supervisor compare`: every policy against the same seeded workload and faults, one after another.
enum CompareCommand {
    static func main(_ words: ArraySlice<String>) throws -> Int32 {
        let arguments = try Arguments(
            words, options: RunCommand.workloadOptions.union(["--policies", "--svg"]),
            flags: RunCommand.workloadFlags.union(["--json"]), optionalValues: ["--jetsam"])
        var workload = try RunCommand.workload(arguments)
        if arguments.string("--views") == nil { workload.settings.views = 8 }
        if arguments.string("--arrival") == nil { workload.settings.arrivalNanoseconds = 5_000_000 }
        let names = (arguments.string("--policies") ?? Policy.all.map(\.name).joined(separator: ",")).split(separator: ",")
        let policies = try names.map { name in
            guard let policy = Policy.named(String(name)) else {
                throw UsageError("unknown policy '\(name)'; choose from \(Policy.all.map(\.name).joined(separator: ", "))")
            }
            return policy
        }
        let svgPath = try arguments.path("--svg")
        var roles = try RunCommand.workloadFiles(arguments, workload)
        if let svgPath { try roles.writes(svgPath, as: "the chart") }
        let content = try RunCommand.contentProvider(arguments)
        for policy in policies {
            var settings = workload.settings
            settings.policy = policy
            try RunCommand.checkDescriptorBudget(settings)
        }
        // Opened before the comparison runs, not after minutes of work; placed only once it is done.
        let svg = try svgPath.map { try OutputFile($0) }
        let jetsamLog = try workload.jetsamLog.map { try OutputFile($0) }
        workload.settings.jetsam?.logFD = jetsamLog?.fd
        var configuration = workload.settings
        TerminationSignals.block()
        defer { TerminationSignals.unblock() }
        var summaries: [RunSummary] = []
        for (i, policy) in policies.enumerated() {
            configuration.policy = policy
            let log = EventLog()
            let progress = Progress(total: configuration.loads, label: "compare \(i + 1)/\(policies.count) \(policy.name)")
            log.observers.append(progress.record)
            let host = try Host(configuration: configuration, content: content, log: log)
            try host.stopOnTerminationSignals()
            let summary = try host.run()
            progress.finish()
            if let failure = host.failure { throw RuntimeError(failure) }
            summaries.append(summary)
            if summary.interrupted { break }
        }
        try jetsamLog?.commit()
        let seed = JSON.int(Int(truncatingIfNeeded: configuration.seed))
        try writeStandardOutput(
            (arguments.flag("--json")
                ? JSON.object([("seed", seed), ("runs", .array(summaries.map(\.json)))]).text : table(summaries)) + "\n")
        try svg?.write(Chart(summaries: summaries, title: chartTitle(configuration)).svg)
        try svg?.commit()
        return summaries.contains(where: \.interrupted) ? 130 : 0
    }

    static func chartTitle(_ configuration: RunConfiguration) -> String {
        var parts = ["\(configuration.loads) loads", "\(configuration.views) views"]
        if configuration.hidden > 0 { parts.append("\(configuration.hidden) hidden") }
        if configuration.raceRate > 0 { parts.append("race rate \(configuration.raceRate)") }
        if configuration.killRate > 0 { parts.append("kill rate \(configuration.killRate)") }
        parts.append("seed \(configuration.seed)")
        return parts.joined(separator: ", ")
    }

    static func table(_ summaries: [RunSummary]) -> String {
        let header = ["policy", "rendered", "blank", "race kills", "unobserved", "RBS errs", "reload", "rebuild",
                      "TTV p50 ms", "TTV p99 ms", "blank ms", "fg worker-s", "peak RSS MiB"]
        let rows = summaries.map { s -> [String] in
            let ttv = Percentiles(s.timeToVisibleMs)
            return [s.policy, "\(s.rendered)", "\(s.blank)", "\(s.raceKills)", "\(s.unobservedDeaths)", "\(s.rbsErrors)",
                    "\(s.recoveries["reload", default: 0])", "\(s.recoveries["rebuild", default: 0])",
                    String(format2(ttv.p50)), format2(ttv.p99), format2(s.blankMs), format2(s.foregroundWorkerSeconds),
                    "\(s.peakWorkerRSSBytes >> 20)"]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
        return ([header] + rows).map { row in
            row.enumerated().map { column, cell in
                column == 0 ? cell.padding(widths[column]) : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    static func format2(_ value: Double) -> String { value.isFinite ? String((value * 100).rounded() / 100) : "∞" }
}

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
