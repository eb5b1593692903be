import Events
import Testing
import Vocabulary

@testable import CommandLineOptions
@testable import Core
@testable import Scenario

/// What `compare` calls things: a policy it derived a name for, and recoveries tried apart from recoveries that
/// brought a page back (issue 29, item 17).
@Suite struct CompareWordingTests {
    /// `base=guarded,spares=0` has no spares: its name says the value, not "with spares".
    @Test func aDerivedNameSaysTheValuesChanged() throws {
        let options = Commands.compare
        let policies = try options.table.parse(["--policies", "base=guarded,spares=0;base=reload,watchdog=500"])[options.policies]
        #expect(policies.map(\.name) == ["guarded spares=0", "reload watchdog=500"])
        var many = Policy.guarded
        (many.spareWorkers, many.reuseWorkers, many.maxRecoveries, many.crashRestarts) = (0, false, 2, 9)
        #expect(PolicyReader.derivedName(many, base: .guarded) == "guarded with 4 fields changed")
    }

    /// Seven blank loads, four recovery attempts among them, none of which brought a page back: 4 tries, and 0 of
    /// the 2 loads tried recovered. A load shown again after a recovery is one that worked.
    @Test func recoveriesThatWorkedAreCountedApartFromAttempts() {
        let summary = RunSummary(policy: "reload")
        var time = 0
        func record(_ kind: SupervisorEvent, view: Int? = nil) {
            time += 1
            summary.record(Event(kind, monotonic: time, wall: time, view: view))
        }
        for load in 0..<7 {
            record(.viewOpen(load: load, visible: true), view: load + 1)
            let tries = load < 2 ? 2 : 0
            for attempt in 0..<tries { record(.recovery(kind: .reload, reason: .blank, attempt: attempt + 1), view: load + 1) }
            record(.loadEnd(.init(load: load, outcome: .blank, recoveries: tries, hidden: false, blankMs: 5000)))
        }
        #expect(summary.recoveries[.reload] == 4 && summary.loadsWithRecovery == 2 && summary.recoveredLoads == 0)
        // An eighth load, rebuilt and shown again in a new view: the recovery worked.
        record(.viewOpen(load: 7, visible: true), view: 20)
        record(.recovery(kind: .rebuild, reason: .termination, attempt: 1), view: 20)
        record(.viewOpen(load: 7, visible: true), view: 21)
        record(.visible(load: 7, timeToVisibleMs: 40, first: true, editor: false), view: 21)
        record(.loadEnd(.init(load: 7, outcome: .rendered, recoveries: 1, hidden: false, timeToVisibleMs: 40)))
        #expect(summary.loadsWithRecovery == 3 && summary.recoveredLoads == 1)
        #expect(summary.text.contains("recovery attempts: 4 reload, 1 rebuild, for 3 loads; 1 of them showed the page again"))
    }
}
