import Testing
import TestSupport

@testable import Core
@testable import Events
@testable import SupervisorTesting

/// WebKit's background CPU limit in virtual time: a hidden view's worker is measured over whole windows begun at
/// each change of visibility, and killed for `ExceededCPULimit` at the end of one it spent over the limit.
@Suite struct CPULimit {
    static var limited: Policy {
        var policy = Policy.none
        policy.cpuLimitPercent = 50
        policy.cpuWindowNanoseconds = 1_000 * CoreRig.ms
        return policy
    }

    /// 60% of a CPU for a whole hidden window is over a 50% limit: killed at the window's end, for that reason.
    @Test func aHiddenWorkerOverTheLimitForAWindowIsKilled() throws {
        let rig = CoreRig(Self.limited)
        rig.open(visible: false)
        rig.run(untilMs: 10)
        let worker = try #require(rig.launcher.launched.first)
        worker.cpu += 600 * CoreRig.ms
        rig.run(untilMs: 999)
        #expect(rig.named("cpu-limit").isEmpty)
        rig.run(untilMs: 1_001)
        let limit = try #require(rig.named("cpu-limit").first)
        #expect(limit["usedPercent"] == .double(60) && limit["limitPercent"] == .int(50) && limit.atMs == 1_000)
        #expect(rig.named("death").first?["terminationReason"] == .string("exceeded-cpu-limit"))
    }

    /// Under the limit, a new window begins; CPU used while the view is on screen never counts, as the window
    /// begins again when it is hidden; a visible view's worker is never measured.
    @Test func onlyWholeHiddenWindowsOverTheLimitCount() throws {
        let rig = CoreRig(Self.limited)
        let (_, view, _) = rig.open(visible: false)
        rig.run(untilMs: 10)
        let worker = try #require(rig.launcher.launched.first)
        worker.cpu += 400 * CoreRig.ms
        rig.run(untilMs: 1_500)
        #expect(rig.named("cpu-limit").isEmpty)
        // Shown at 1.5 s: a second of a whole CPU on screen is no one's business.
        rig.supervisor.shown(view.load)
        rig.supervisor.show(view)
        worker.cpu += 1_000 * CoreRig.ms
        rig.run(untilMs: 2_500)
        rig.supervisor.hide(view)
        worker.cpu += 300 * CoreRig.ms
        rig.run(untilMs: 3_600)
        #expect(rig.named("cpu-limit").isEmpty && rig.named("kill").isEmpty)
        // The next hidden window, over the limit.
        worker.cpu += 700 * CoreRig.ms
        rig.run(untilMs: 4_600)
        #expect(rig.named("cpu-limit").first?.atMs == 4_500)
    }

    /// A policy without a limit never measures.
    @Test func noLimitNoKill() throws {
        var policy = Self.limited
        policy.cpuLimitPercent = 0
        let rig = CoreRig(policy)
        rig.open(visible: false)
        rig.run(untilMs: 10)
        try #require(rig.launcher.launched.first).cpu += 5_000 * CoreRig.ms
        rig.run(untilMs: 5_000)
        #expect(rig.named("cpu-limit").isEmpty && rig.named("kill").isEmpty)
    }
}
