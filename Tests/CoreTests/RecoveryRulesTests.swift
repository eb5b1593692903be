import Vocabulary
import Testing
import TestSupport

@testable import Core
@testable import SupervisorTesting

/// The policies' limits, decided on a virtual clock: WebKit's recent crashes, crash loop, backoff and give-up, with
/// no process and no real time.
@Suite struct RecoveryRules {
    static let ms = 1_000_000

    /// A view dies at each of `deaths` (ms), crashed or killed, and a page finishes loading in it at each of
    /// `finishes` (ms); each recovery the policy decides is carried out on the clock after its delay. Returns what
    /// was decided, and when (ms) each recovery was carried out.
    func simulate(
        _ policy: Policy, deaths: [(at: Int, crash: Bool)], finishes: [Int] = []
    ) -> (decisions: [RecoveryDecision], performed: [Int]) {
        let clock = VirtualClock()
        var history = RecoveryHistory()
        var recent = RecentCrashes()
        var decisions: [RecoveryDecision] = []
        var performed: [Int] = []
        for at in finishes {
            clock.schedule(afterNanoseconds: at * Self.ms) {
                recent.finished(at: clock.now, cooldown: policy.recoveryCooldownNanoseconds)
            }
        }
        for death in deaths {
            clock.advance(by: death.at * Self.ms - clock.now)
            if death.crash { history.crashes.append(clock.now) }
            let decision = policy.decideRecovery(at: clock.now, crash: death.crash, recent: &recent, history: &history)
            decisions.append(decision)
            if case .recover(_, let delay) = decision {
                clock.schedule(afterNanoseconds: delay) { performed.append(clock.now / Self.ms) }
            }
        }
        clock.advance(by: 60_000 * Self.ms)
        return (decisions, performed)
    }

    /// `tryReloadAfterProcessTermination`: one reload after a crash, none after the next, which starts the count
    /// again; with no page finished, that alternates however far apart the crashes are.
    @Test func webKitReloadsAfterOneCrashGivesUpOnTheNextAndCountsAgain() {
        let deaths = [0, 10_000, 40_000, 50_000].map { (at: $0, crash: false) }
        let (decisions, performed) = simulate(.webkitDefault, deaths: deaths)
        #expect(decisions == [.recover(attempt: 1, delay: 0), .suppressed, .recover(attempt: 2, delay: 0), .suppressed])
        #expect(performed == [0, 40_000])
    }

    /// `resetRecentCrashCountSoon`: 30 s after a page finished loading with no crash, the count is forgotten; a
    /// crash before that stops the timer, so a later finish must start it again.
    @Test func webKitForgetsItsCrashesThirtySecondsAfterAPageFinishesWithNoCrashBetween() {
        let late = simulate(.webkitDefault, deaths: [(0, false), (31_001, false)], finishes: [1_000])
        #expect(late.decisions == [.recover(attempt: 1, delay: 0), .recover(attempt: 2, delay: 0)])
        let early = simulate(.webkitDefault, deaths: [(0, false), (30_999, false)], finishes: [1_000])
        #expect(early.decisions == [.recover(attempt: 1, delay: 0), .suppressed])
        // The crash at 20 s stops the timer the finish at 1 s started: at 35 s nothing has been forgotten.
        let stopped = simulate(.webkitDefault, deaths: [(0, false), (20_000, false), (25_000, false), (35_000, false)], finishes: [1_000])
        #expect(stopped.decisions == [.recover(attempt: 1, delay: 0), .suppressed, .recover(attempt: 2, delay: 0), .suppressed])
    }

    @Test func crashesBackOffTwiceAsLongEachTimeThenLoop() {
        let crashes = [0, 10, 20, 30, 40].map { (at: $0, crash: true) }
        let (decisions, performed) = simulate(.rebuild, deaths: crashes)
        #expect(decisions == [
            .recover(attempt: 1, delay: 0), .recover(attempt: 2, delay: 100 * Self.ms), .recover(attempt: 3, delay: 200 * Self.ms),
            .crashLoop(crashes: 4, windowMs: 5000), .crashLoop(crashes: 5, windowMs: 5000),
        ])
        #expect(performed == [0, 110, 220])
    }

    @Test func crashesOutsideTheWindowAreForgotten() {
        let crashes = [0, 6_000, 12_000, 18_000].map { (at: $0, crash: true) }
        var guarded = Policy.guarded
        guarded.maxRecoveries = .max
        let (decisions, _) = simulate(guarded, deaths: crashes)
        #expect(decisions.allSatisfy { if case .recover(_, 0) = $0 { true } else { false } })
    }

    @Test func killsFromOutsideAreNotCrashesAndGuardedNeverGivesUp() {
        let kills = (0..<50).map { (at: $0 * 10, crash: false) }
        let (guarded, _) = simulate(.guarded, deaths: kills)
        #expect(guarded.last == .recover(attempt: 50, delay: 0))
        let (rebuild, performed) = simulate(.rebuild, deaths: kills)
        #expect(rebuild[2] == .recover(attempt: 3, delay: 0) && rebuild[3] == .giveUp(recoveries: 3))
        #expect(performed == [0, 10, 20])
    }

    @Test func aHiddenViewIsRecoveredWhenShownOnlyWhereThePolicySaysSo() {
        #expect(Policy.webkitDefault.onTermination(visible: false, reason: .crash) == .whenShown(.reload))
        #expect(Policy.webkitDefault.onTermination(visible: true, reason: .crash) == .now(.reload))
        #expect(Policy.guarded.onTermination(visible: false, reason: .crash) == .whenShown(.rebuild))
        #expect(Policy.rebuild.onTermination(visible: false, reason: .crash) == .now(.rebuild))
        #expect(Policy.none.onTermination(visible: true, reason: .crash) == .nothing)
    }

    /// WebKit's own reload follows WebKit's reasons; an app's delegate acts on the reason it is told, as far as
    /// its policy says.
    @Test func theCallbackRecoversFromTheReasonsThePolicyNames() {
        for reason in [TerminationReason.crash, .unresponsive, .exceededMemoryLimit, .evictedForMemory] {
            #expect(Policy.webkitDefault.onTermination(visible: true, reason: reason) == .now(.reload), "\(reason)")
        }
        for reason in [TerminationReason.requestedByClient, .idleExit, .exceededProcessCountLimit] {
            #expect(Policy.webkitDefault.onTermination(visible: true, reason: reason) == .nothing, "\(reason)")
        }
        var crashesOnly = Policy.rebuild
        crashesOnly.recoverOn = [.crash]
        #expect(crashesOnly.onTermination(visible: true, reason: .oomProtected) == .now(.rebuild))
        #expect(crashesOnly.onTermination(visible: true, reason: .exceededMemoryLimit) == .nothing)
        #expect(Policy.rebuild.onTermination(visible: true, reason: .exceededMemoryLimit) == .now(.rebuild))
    }

    @Test func theVirtualClockFiresInDeadlineOrderWithTheTimeOfEach() {
        let clock = VirtualClock()
        var fired: [(String, Int)] = []
        clock.schedule(afterNanoseconds: 30) { fired.append(("c", clock.now)) }
        clock.schedule(afterNanoseconds: 10) {
            fired.append(("a", clock.now))
            clock.schedule(afterNanoseconds: 5) { fired.append(("b", clock.now)) }
        }
        let cancelled = clock.schedule(afterNanoseconds: 20) { fired.append(("x", clock.now)) }
        clock.cancel(cancelled)
        clock.advance(by: 25)
        #expect(fired.map(\.0) == ["a", "b"] && fired.map(\.1) == [10, 15] && clock.now == 25)
        clock.advance(by: 5)
        #expect(fired.map(\.0) == ["a", "b", "c"])
    }
}
