import Scenario
import Text

/// Which policies are worth their cost: each policy's wait per load against its protected worker time per load,
/// and the frontier of those no other policy beats on both, as the table's last line, the JSON and the chart say it.
extension Comparison {
    /// One per policy that ran, in the order they ran.
    var costs: [PolicyCost] { summaries.map(PolicyCost.init) }

    /// The policies no other beats on both costs, cheapest first, as indices into `costs`.
    var frontierIndices: [Int] { PolicyCost.frontier(costs) }

    var frontier: [PolicyCost] { frontierIndices.map { costs[$0] } }

    /// Policies that ran but have no point: no load measured, or a blank load's time missing.
    var unmeasured: [String] { costs.filter { $0.point == nil }.map(\.policy) }

    /// The chart's headline: which policies are on the frontier, and what that means.
    var verdict: String {
        let names = frontier.map(\.policy)
        switch names.count {
        case 0: return "No frontier: no policy has a measured wait and protected time"
        case 1 where costs.count - unmeasured.count == 1: return "Frontier: \(names[0]), the only policy measured"
        case 1: return "Frontier: \(names[0]) — no other policy costs less or leaves users waiting less"
        default: return "Frontier: \(names.joined(separator: ", ")) — no other policy both costs less and leaves users waiting less"
        }
    }

    /// The table's last line.
    var frontierLine: String {
        "frontier (wait against protected worker-ms, per load): "
            + (frontier.isEmpty ? "no policy measured" : frontier.map(\.policy).joined(separator: ", "))
            + (unmeasured.isEmpty ? "" : "; not measured: " + unmeasured.joined(separator: ", "))
    }

    static let frontierLegend = """
        wait: ms per load users looked at a view without content (time to visible; for a blank load, the time \
        until the user gave up; failed loads left out). frontier: the policies no other beats on both wait and protected \
        worker-ms per load.
        """
}
