import Testing
import TestSupport

@testable import Core
@testable import SupervisorTesting

/// The policy fields that are new as data, carried out by the real supervisor on a virtual clock: the watchdog's
/// period (and the run's override of it), detection apart from recovery, and the backoff's growth.
@Suite struct PolicyFieldsInTheCore {
    static let ms = CoreRig.ms

    /// A policy that watches titles every `periodMs` and rebuilds a blank view.
    static func watching(every periodMs: Int, recover: Policy.Recovery? = .rebuild) -> Policy {
        var policy = Policy(name: "watching")
        (policy.detect, policy.recover, policy.watchdogNanoseconds) = (.watchdog, recover, periodMs * ms)
        return policy
    }

    @Test(arguments: [(nil, 500), (200, 200)] as [(Int?, Int)])
    func theWatchdogRunsOnThePolicysPeriodUnlessTheRunSetsOne(overrideMs: Int?, firstAtMs: Int) throws {
        let rig = CoreRig(Self.watching(every: 500)) { $0.watchdogNanoseconds = overrideMs.map { $0 * Self.ms } }
        rig.launcher.prepare = { $0.script = FakeWorker.blank }
        rig.open()
        rig.run(untilMs: firstAtMs - 1)
        #expect(rig.named("watchdog").isEmpty)
        rig.run(untilMs: firstAtMs)
        #expect(rig.named("watchdog").map(\.atMs) == [firstAtMs])
        #expect(rig.named("recovery").first?.string("reason") == "blank")
    }

    /// `detect=watchdog,recover=none`: every blank is found and logged, and the view is left as it is.
    @Test func aDetectionWithoutRecoveryIsLoggedAndNothingMore() throws {
        let rig = CoreRig(Self.watching(every: 100, recover: nil))
        rig.launcher.prepare = { $0.script = FakeWorker.blank }
        let (_, view, _) = rig.open()
        rig.run(untilMs: 350)
        #expect(rig.named("watchdog").map(\.atMs) == [100, 200, 300])
        #expect(rig.named("recovery").isEmpty && rig.launcher.launched.count == 1 && !view.closed)
    }

    /// `detect=callback` (WebKit's): no title is ever probed, however long a view stays blank.
    @Test func theCallbackAloneNeverProbesTheTitle() throws {
        let rig = CoreRig(.webkitDefault)
        rig.launcher.prepare = { $0.script = FakeWorker.blank }
        let (_, view, _) = rig.open()
        rig.run(untilMs: 10_000)
        let worker = try #require(rig.launcher.launched.first)
        #expect(!worker.received.contains(.titleQuery(id: UInt32(view.id))) && rig.named("watchdog").isEmpty)
    }

    /// `backoff-growth=3`: each restart after the first in the window waits three times the one before.
    @Test func theBackoffGrowsByThePolicysFactor() {
        var policy = Policy.rebuild
        (policy.crashBackoffGrowth, policy.crashRestarts) = (3, 5)
        var history = RecoveryHistory()
        var recent = RecentCrashes()
        var delays: [Int] = []
        for at in [0, 10, 20, 30] {
            history.crashes.append(at * Self.ms)
            if case .recover(_, let delay) = policy.decideRecovery(at: at * Self.ms, crash: true, recent: &recent, history: &history) {
                delays.append(delay / Self.ms)
            }
        }
        #expect(delays == [0, 100, 300])
    }
}
