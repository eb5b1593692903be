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
        let policies = try arguments.string("--policies").map(Self.policies) ?? Policy.all
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
        let report = Comparison(
            summaries: summaries, notRun: policies.dropFirst(summaries.count).map(\.name), configuration: configuration)
        try writeStandardOutput((arguments.flag("--json") ? report.json.text : report.table) + "\n")
        try svg?.write(Chart(comparison: report).svg)
        try svg?.commit()
        return report.interrupted ? 130 : 0
    }

    /// The policies named in `list`, in its order: an empty list or name is a mistake, not a comparison of nothing.
    static func policies(_ list: String) throws -> [Policy] {
        let names = list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !list.isEmpty, !names.contains("") else {
            throw UsageError("'--policies' takes policy names separated by commas, not '\(list)'")
        }
        return try names.map { name in
            guard let policy = Policy.named(name) else {
                let hint = Arguments.closest(to: name, in: Set(Policy.all.map(\.name)))
                throw UsageError("unknown policy '\(name)'" + (hint.map { "; did you mean '\($0)'?" }
                    ?? " (see 'supervisor help compare')"))
            }
            return policy
        }
    }
}
