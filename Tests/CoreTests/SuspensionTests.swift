import Glibc
import Testing
import TestSupport
import WireProtocol

@testable import Core
@testable import Events
@testable import SupervisorTesting

/// WebKit's ProcessThrottler in virtual time: a hidden view's worker with nothing to do is told to prepare, stopped
/// once it answers, and resumed before its view is raised; the time it spends stopped is no hang.
@Suite struct Suspension {
    static var suspending: Policy {
        var policy = Policy.rebuild
        policy.suspends = true
        return policy
    }

    static func pings(_ worker: FakeWorker) -> Int {
        worker.received.filter { if case .ping = $0 { true } else { false } }.count
    }

    /// A minute stopped, with the hang timeout at 3 s and a busy worker pinged every second, is no hang: it is not
    /// pinged while stopped. Shown, it goes on (SIGCONT, then `processDidResume`) before it is raised.
    @Test func aHiddenViewsWorkerIsSuspendedThenResumedWhenShown() throws {
        let rig = CoreRig(Self.suspending)
        let (_, view, _) = rig.open(visible: false)
        rig.run(untilMs: 10)
        let worker = try #require(rig.launcher.launched.first)
        #expect(worker.received.contains(.prepareToSuspend) && worker.isStopped)
        #expect(rig.named("suspended").first?["answered"] == .bool(true) && worker.bands.last == .suspended)
        let pingsBefore = Self.pings(worker)
        rig.run(untilMs: 60_010)
        #expect(Self.pings(worker) == pingsBefore && rig.named("unresponsive").isEmpty && rig.named("kill").isEmpty)
        rig.supervisor.shown(view.load)
        rig.supervisor.show(view)
        #expect(!worker.isStopped && worker.received.last == .processDidResume && worker.bands.last == .foreground)
        let resumed = try #require(rig.named("resumed").first)
        #expect(resumed.atMs == 60_010)
        rig.run(untilMs: 61_000)
        #expect(rig.named("visible").count == 1 && rig.named("unresponsive").isEmpty)
    }

    /// An answer owed when it was stopped is timed afresh from its resumption: it has the whole timeout then.
    @Test func anAnswerOwedIsTimedFromTheResumption() throws {
        let rig = CoreRig(Self.suspending)
        let (_, view, _) = rig.open(visible: false)
        rig.run(untilMs: 10)
        // From now on it answers nothing: hung, once it goes on.
        try #require(rig.launcher.launched.first).script = FakeWorker.hung
        rig.supervisor.send(.titleQuery(id: UInt32(view.id)), to: try #require(view.worker))
        rig.run(untilMs: 30_000)
        #expect(rig.named("unresponsive").isEmpty)
        rig.supervisor.show(view)
        rig.run(untilMs: 32_900)
        #expect(rig.named("unresponsive").isEmpty)
        rig.run(untilMs: 33_100)
        #expect(rig.named("unresponsive").count == 1)
    }

    /// A worker that never answers `prepareToSuspend` is stopped when WebKit's patience (20 s) runs out.
    @Test func oneThatDoesNotAnswerIsStoppedAfterTheTimeout() throws {
        let rig = CoreRig(Self.suspending)
        rig.launcher.prepare = { worker in
            worker.script = { message, worker in
                if message == .prepareToSuspend { return }
                FakeWorker.healthy(message, worker)
            }
        }
        rig.open(visible: false)
        rig.run(untilMs: 19_000)
        let worker = try #require(rig.launcher.launched.first)
        #expect(!worker.isStopped && rig.named("suspended").isEmpty)
        rig.run(untilMs: 20_100)
        #expect(worker.isStopped && rig.named("suspended").first?["answered"] == .bool(false))
    }

    /// Killed while stopped, its hidden view is recovered when shown, under a policy that waits for that.
    @Test func aSuspendedWorkerKilledIsRecoveredWhenShown() throws {
        var policy = Self.suspending
        policy.recoverWhenVisible = true
        let rig = CoreRig(policy)
        let (_, view, _) = rig.open(visible: false)
        rig.run(untilMs: 10)
        try #require(rig.launcher.launched.first).crash(SIGKILL)
        rig.run(untilMs: 1_000)
        #expect(rig.named("recovery").isEmpty && rig.launcher.launched.count == 1)
        rig.supervisor.shown(view.load)
        rig.supervisor.show(view)
        rig.run(untilMs: 2_000)
        #expect(rig.named("recovery").first?.string("reason") == "shown" && rig.named("visible").count == 1)
    }

    /// A policy that does not suspend leaves a hidden worker running.
    @Test func aPolicyThatDoesNotSuspendNeverStops() throws {
        var policy = Policy.rebuild
        policy.suspends = false
        let rig = CoreRig(policy)
        rig.open(visible: false)
        rig.run(untilMs: 60_000)
        #expect(rig.named("prepare-to-suspend").isEmpty && rig.launcher.launched.allSatisfy { !$0.isStopped })
    }
}
