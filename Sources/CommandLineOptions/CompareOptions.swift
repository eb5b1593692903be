import Core
import Scenario
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
        help: #"Print {"seed", "plannedLoads", "interrupted", "notRun", "frontier", "runs":[…]}, one run summary and cost per policy that ran."#)
    public let svg = Option(
        "--svg", .path(),
        help: "Write a chart: time-to-visible CDF, blank loads, injected faults, and each policy's wait against its "
            + "protected worker time with the frontier; '-' for standard output, the tables then going to standard "
            + "error.")
    public let replay = Option(
        "--replay", .path(),
        help: "Replay the incidents of this schedule (written by 'analyze --replay', or by hand) instead of drawing "
            + "pages and faults: each incident is a load whose view attaches and whose worker dies at the incident's "
            + "moments. Not with --loads, --inject-race, --inject-kill, --content, --attach-delay, --hidden, "
            + "--hidden-time, --sites, --jetsam or --typing, which the schedule's moments stand in for.")
    public let jobs = Option(
        "--jobs", .integer(1...64, "<n>"),
        help: "How many policies run side by side, each on a thread of its own with its own workers; without it, "
            + "half the CPUs, at least one. More are quicker, and what a seed fixes (which loads raced, died, went "
            + "blank) stays the same, but times to visible then measure the machine more than the policy, and a "
            + "replay's workers, which take real time, meet fewer moments as the device had them.")
    public let waits = Option(
        "--waits", .choice("waits", Waits.allCases.map { ($0.rawValue, $0) }),
        default: "simulated; real with --content, --jetsam or --typing",
        help: "How a wait no process is working through (an attach delay, a fetch's latency, the next arrival, a "
            + "blank timeout) passes: simulated moves the run's clock on to it at once, real waits it out. Spawns, "
            + "renders and kills take real time either way. Simulated is not for Jetsam or typing, which run in "
            + "real time, nor for pages that act on their own after they render.")
    public let repeats = DefaultedOption(
        "--repeat", .integer(1...10_000), default: 10,
        help: "With --replay: how many times each incident is replayed, its uncertain moments drawn anew by --seed.")

    public let force = forceFlag

    public var table: OptionTable { OptionTable([policies] + workload.all + [json, svg, replay, repeats, jobs, waits, force]) }

    public var help: CommandHelp {
        CommandHelp(
            name: "compare", abstract: "Run every recovery policy against the same seeded workload and faults.",
            overview: """
                Run every recovery policy against the same seeded workload and faults.

                Every choice (page, attach delay, fetch latency, which loads are raced) is a function of --seed and
                the load's index, so each policy faces the same faults; a policy that protects its workers is spared
                them, and the table says how many each policy met (delivered) and escaped (spared). Policies run
                side by side (--jobs). Prints three tables (what users saw; faults and cost; recoveries and race
                kills by stage) with a legend, or JSON, and optionally an SVG chart. Interrupted, it says how many
                loads the last policy ran and which policies never ran.
                """,
            usage: "supervisor compare [--policies <list>] [<workload options>] [--jobs <n>] [--json]\n"
                + "                          [--svg <file>] [--waits real|simulated] [--force]\n"
                + "       supervisor compare --replay <file> [--repeat <n>] [--jobs <n>] [--policies <list>] [--json]\n"
                + "                          [--svg <file>] [--waits real|simulated] [--force]",
            tables: [("OPTIONS", table)], after: policiesHelp)
    }
}
