import Testing
import Vocabulary

@testable import Core
@testable import Events
@testable import Replay
@testable import Scenario

/// `compare --replay`'s verdict weighs only what was reproduced: when no policy met any incident as the device had
/// it, no load was saved or lost, and the verdict judges no policy (never "see why each load was lost").
@Suite struct ReplayVerdict {
    static let schedule = ReplaySchedule(sources: ["device.log"], incidents: [
        ReplayIncident(id: "pid 4107", kind: .killedBeforeRender, attach: .init(2), death: .init(3), band: .background,
                       rendered: false, cause: .kill),
    ])

    /// One load of the incident under a policy: its view attached before the replayed kill, so the death did not
    /// come as it did on the device (before attach).
    static func run(_ policy: Policy, reproduced: Bool) -> (summary: RunSummary, outcome: ReplayOutcome) {
        let (summary, outcome) = (RunSummary(policy: policy.name), ReplayOutcome(schedule: schedule))
        var events: [SupervisorEvent] = [.viewOpen(load: 0, visible: true), .attach, .inject(kind: .replayKill, oomScoreAdj: 0)]
        if reproduced { events.swapAt(1, 2) }
        events.append(.loadEnd(.init(load: 0, outcome: .blank, recoveries: 0, hidden: false, blankMs: 10)))
        for (i, kind) in events.enumerated() {
            let event = Event(kind, monotonic: i + 1, wall: i + 1, view: 1, pid: 4107)
            summary.record(event)
            outcome.record(event)
        }
        return (summary, outcome)
    }

    @Test func nothingReproducedJudgesNoPolicy() {
        let report = ReplayReport(
            schedule: Self.schedule, runs: [Self.run(.none, reproduced: false), Self.run(.rebuild, reproduced: false)],
            notRun: [], policies: [.none, .rebuild])
        #expect(report.verdict == "No incident was reproduced under any policy, so none is judged: see why above.")
    }

    @Test func aLoadReproducedAndLostIsStillSaidSo() {
        let report = ReplayReport(
            schedule: Self.schedule, runs: [Self.run(.none, reproduced: true)], notRun: [], policies: [.none])
        #expect(report.verdict.hasPrefix("No policy saved every incident: see why each load was lost above."))
    }
}
