import Events
import Foundation
import Testing

@testable import Scenario
import Vocabulary

/// The cost of a policy and the frontier of the policies worth their cost: no other policy beats them on both the
/// wait users saw and the worker time kept from the killer.
@Suite struct FrontierTests {
    typealias Point = Frontier.Point

    @Test func aPolicyBeatenOnBothAxesIsOffTheFrontier() {
        let points = [Point(x: 1, y: 100), Point(x: 2, y: 200), Point(x: 5, y: 5)]
        #expect(Frontier.indices(of: points) == [0, 2])
    }

    /// Equal on one axis and better on the other beats; equal on both beats neither, so both stay.
    @Test func tiesAreHandledExplicitly() {
        #expect(Frontier.indices(of: [Point(x: 1, y: 10), Point(x: 1, y: 20)]) == [0])
        #expect(Frontier.indices(of: [Point(x: 3, y: 10), Point(x: 1, y: 10)]) == [1])
        #expect(Frontier.indices(of: [Point(x: 1, y: 10), Point(x: 1, y: 10), Point(x: 2, y: 10)]) == [0, 1])
        #expect(!Frontier.beats(Point(x: 1, y: 10), Point(x: 1, y: 10)))
    }

    @Test func aSinglePolicyIsItsOwnFrontier() {
        #expect(Frontier.indices(of: [Point(x: 7, y: 7)]) == [0])
        #expect(Frontier.indices(of: []).isEmpty)
    }

    @Test func allEqualPoliciesAreAllOnIt() {
        #expect(Frontier.indices(of: Array(repeating: Point(x: 2, y: 3), count: 4)) == [0, 1, 2, 3])
    }

    /// Each cheaper than the next and slower: a trade-off at every step, so every one is on it.
    @Test func aTradeOffKeepsEveryPolicy() {
        #expect(Frontier.indices(of: [Point(x: 3, y: 1), Point(x: 1, y: 3), Point(x: 2, y: 2)]) == [0, 1, 2])
    }

    /// Against every pair compared, for every list of up to four points on a 3 × 3 grid, where ties are common.
    @Test func agreesWithEveryPairCompared() {
        let grid = (0..<9).map { Point(x: Double($0 % 3), y: Double($0 / 3)) }
        var lists: [[Point]] = [[]]
        for _ in 1...4 {
            lists = lists.flatMap { list in grid.map { list + [$0] } }
            for points in lists {
                let expected = points.indices.filter { i in
                    !points.contains { $0.x <= points[i].x && $0.y <= points[i].y && $0 != points[i] }
                }
                if Frontier.indices(of: points) != expected {
                    Issue.record("\(points): \(Frontier.indices(of: points)), not \(expected)")
                    return
                }
            }
        }
    }

    // MARK: - The cost of a policy, from its run's events

    /// A blank load counts its whole blank time, a failed load is left out, protected time and spawns are per load.
    @Test func theCostComesFromTheSummary() throws {
        let summary = RunSummary(policy: "p")
        summary.record(event(.spawn(load: 0, reused: false), at: 0, pid: 10))
        summary.record(event(.priority(band: .foreground, nice: 0, oomScoreAdj: 0, result: .applied, error: nil, rbs: nil), at: 0, pid: 10))
        summary.record(end(0, .rendered, blankMs: 10, visibleMs: 10))
        summary.record(event(.spawn(load: 1, reused: false), at: 1, pid: 11))
        summary.record(end(1, .blank, blankMs: 5000))
        summary.record(event(.spawn(load: 2, reused: false), at: 2, pid: 12))
        summary.record(end(2, .failed, blankMs: 40))
        summary.record(event(.runEnd(interrupted: false, simulatedMs: 0), at: 6_000_000, pid: nil))
        let cost = PolicyCost(summary)
        #expect(cost.waitMs == 2505)
        #expect(cost.protectedMs == 2)
        #expect(cost.spawnsPerLoad == 1)
        #expect(cost.failed == 1)
        #expect(cost.peakWorkerRSSBytes == nil)
        #expect(cost.json.text == #"{"waitMsPerLoad":2505.0,"protectedWorkerMsPerLoad":2.0,"spawnsPerLoad":1.0}"#)
    }

    /// A blank load whose blank time was not logged leaves the wait unmeasured rather than counting it as 0.
    @Test func aMissingMeasurementIsMissingNotZero() {
        let untimed = RunSummary(policy: "untimed")
        untimed.record(end(0, .rendered, blankMs: 10, visibleMs: 10))
        untimed.record(end(1, .blank, blankMs: nil))
        #expect(PolicyCost(untimed).waitMs == nil && PolicyCost(untimed).point == nil)
        let idle = PolicyCost(RunSummary(policy: "idle"))
        #expect(idle.waitMs == nil && idle.protectedMs == nil && idle.spawnsPerLoad == nil)
        #expect(idle.json.text == #"{"waitMsPerLoad":null,"protectedWorkerMsPerLoad":null,"spawnsPerLoad":null}"#)
    }

    /// Cheapest first; a policy with no point is on no frontier; a beaten one is left out.
    @Test func theFrontierOfPoliciesIsCheapestFirst() {
        let costs = [cost(waitMs: 5, protectedMs: 6), cost(waitMs: 450, protectedMs: 1), cost(waitMs: 460, protectedMs: 2),
                     cost(waitMs: nil, protectedMs: 0)]
        #expect(PolicyCost.frontier(costs) == [1, 0])
    }

    private func event(_ kind: SupervisorEvent, at monotonic: Int, pid: Int32?) -> Event {
        Event(kind, monotonic: monotonic, wall: monotonic, pid: pid)
    }

    private func end(_ load: Int, _ outcome: LoadOutcome, blankMs: Double?, visibleMs: Double? = nil) -> Event {
        event(.loadEnd(.init(load: load, outcome: outcome, recoveries: 0, hidden: false, blankMs: blankMs,
                             timeToVisibleMs: visibleMs)), at: load, pid: nil)
    }

    /// A policy's cost from one load, visible after `waitMs` (failed when nil), its worker protected `protectedMs`.
    private func cost(waitMs: Double?, protectedMs: Double) -> PolicyCost {
        let summary = RunSummary(policy: "p")
        summary.record(event(.priority(band: .foreground, nice: 0, oomScoreAdj: 0, result: .applied, error: nil, rbs: nil), at: 0, pid: 1))
        summary.record(waitMs.map { end(0, .rendered, blankMs: $0, visibleMs: $0) } ?? end(0, .failed, blankMs: 1))
        summary.record(event(.runEnd(interrupted: false, simulatedMs: 0), at: Int(protectedMs * 1_000_000), pid: nil))
        return PolicyCost(summary)
    }
}
