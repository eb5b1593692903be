import Core
import Text

/// `supervisor compare`: its options and help. Its workload is run's with more views, arriving on a schedule, so
/// that a policy's blank views cannot lighten everyone else's load.
public struct CompareOptions: Sendable {
    public let policies = DefaultedOption(
        "--policies", .policyList, default: Policy.all,
        help: "The policies to run, in this order, separated by ';' (built-in names also by ','), each as '--policy' "
            + "of run takes it: 'none,guarded;base=guarded,spares=0'.")
    public let workload = WorkloadOptions(views: 8, arrival: 5_000_000, arrivalNote: nil, jetsamLog: nil)
    public let json = Flag(
        "--json",
        help: #"Print {"seed", "plannedLoads", "interrupted", "notRun", "runs":[…]}, one run summary per policy that ran."#)
    public let svg = Option(
        "--svg", .path(),
        help: "Write a chart: time-to-visible CDF, blank loads and injected faults (delivered, spared) per policy.")

    public var table: OptionTable { OptionTable([policies] + workload.all + [json, svg]) }

    public var help: CommandHelp {
        CommandHelp(
            name: "compare", abstract: "Run every recovery policy against the same seeded workload and faults.",
            overview: """
                Run every recovery policy against the same seeded workload and faults.

                Every choice (page, attach delay, which loads are raced) is a function of the seed and the load's
                index, so each policy faces the same faults; a policy that protects its workers is spared them, and
                the table says how many each policy met (delivered) and escaped (spared). Prints two tables (what
                users saw; faults and cost) with a legend, or JSON, and optionally an SVG chart. Interrupted, it
                says how many loads the last policy ran and which policies never ran.
                """,
            usage: "supervisor compare [--policies <list>] [<workload options>] [--json] [--svg <file>]",
            tables: [("OPTIONS", table)], after: policiesHelp)
    }
}
