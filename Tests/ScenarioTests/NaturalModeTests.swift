import Foundation
import Testing

@testable import Browser
@testable import Core
@testable import Scenario
@testable import SupervisorTesting

extension Processes {
    /// Natural mode's numbers (issue 29, item 10): its options add to its workload, and a load no one looked at
    /// is an outcome of its own, so every policy's cost is measured.
    @Suite struct NaturalMode {
        /// `-- --svg x.svg` keeps the documented 600 loads; an option given after `--` wins over its default.
        @Test func optionsAfterTheDashesAddToTheWorkload() throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").path
            let svg = try runCommand("\(root)/scripts/natural", ["--dry-run", "--", "--svg", "x.svg"])
            #expect(svg.status == 0, "\(svg.stderr)")
            let workload = " --loads 600 --views 6 --hidden 3 --hidden-time 500 --arrival 40 --seed 1"
            #expect(svg.stdout.hasSuffix(workload + " --svg x.svg\n"), "\(svg.stdout)")
            let fewer = try runCommand("\(root)/scripts/natural", ["--dry-run", "--", "--loads", "100"])
            #expect(fewer.stdout.hasSuffix(workload + " --loads 100\n"), "\(fewer.stdout)")
        }
    }
}

/// Natural mode's outcomes, in virtual time: a load no one looked at is an outcome of its own (issue 29, item 10).
/// (Moved from the real CLI, where it waited out 5 s of hidden time: `compare`'s JSON of the same summary is read
/// by `Processes.CLI.compareRunsEveryPolicyAgainstTheSameFaultsAndDrawsThem`, and a raced real worker's death by
/// `Processes.RaceOnRealWorkers`.)
@Suite struct NaturalModeOutcomes {
    /// Hidden tabs whose worker was killed before anyone looked, given up by their watchdog's only recovery: they
    /// are lost while hidden (no one's wait), not blanks with no blank time, and the policy's wait per load is
    /// measured from the loads someone looked at.
    @Test func aLoadNoOneLookedAtIsItsOwnOutcomeAndTheCostIsMeasured() throws {
        var policy = Policy.rebuild
        policy.maxRecoveries = 0
        let (summary, _, _) = try simulateVirtually({
            $0.policy = policy
            $0.loads = 24
            $0.views = 4
            $0.hidden = 2
            $0.hiddenNanoseconds = 5_000_000_000
            $0.raceRate = 0.5
            $0.watchdogNanoseconds = 200_000_000
            $0.blankTimeoutNanoseconds = RunConfiguration(workerPath: "").blankTimeoutNanoseconds
            $0.seed = 1
        }, content: ContentProvider())
        #expect(summary.lostHidden > 0)
        let ended: Int = summary.rendered + summary.blank + summary.failed + summary.lostHidden
        #expect(ended == summary.loads)
        let cost = PolicyCost(summary)
        #expect(cost.waitMs != nil)
        #expect(PolicyCost.frontier([cost]) == [0])
    }
}
