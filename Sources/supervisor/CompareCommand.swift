import Core
import CommandLineOptions
import Glibc
import Scenario
import Browser
import System
import Text

/// `supervisor compare`: every policy against the same seeded workload and faults, one after another.
enum CompareCommand {
    static func main(_ words: ArraySlice<String>) throws -> Int32 {
        let options = Commands.compare
        let arguments = try options.table.parse(words)
        var workload = try RunCommand.workload(options.workload, arguments)
        let policies = arguments[options.policies]
        let svgPath = arguments[options.svg]
        var roles = try RunCommand.workloadFiles(options.workload, arguments, workload)
        if let svgPath { try roles.writes(svgPath, as: "the chart") }
        let content = try RunCommand.contentProvider(arguments[options.workload.content])
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
            let simulation = try Simulation(configuration: configuration, content: content, log: log)
            try simulation.stopOnTerminationSignals()
            let summary = try simulation.run()
            progress.finish()
            if let failure = simulation.failure { throw RuntimeError(failure) }
            summaries.append(summary)
            if summary.interrupted { break }
        }
        try jetsamLog?.commit()
        let report = Comparison(
            summaries: summaries, notRun: policies.dropFirst(summaries.count).map(\.name), configuration: configuration)
        try writeStandardOutput((arguments[options.json] ? report.json.text : report.table) + "\n")
        try svg?.write(Chart(comparison: report).svg)
        try svg?.commit()
        return report.interrupted ? 130 : 0
    }
}
