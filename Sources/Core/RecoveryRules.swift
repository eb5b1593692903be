import Vocabulary

/// What a load has been through, as the policy's limits judge it: its recoveries, and when its workers crashed.
package struct RecoveryHistory: Equatable {
    package var recoveries = 0
    /// Crash times (monotonic ns), only those within the policy's window kept.
    package var crashes: [Int] = []

    package init() {}
}

/// What the policy does about a dead or blank view, decided from the clock and the load's history alone, so every
/// limit (cooldown, crash loop, backoff, give-up) is tested in virtual time.
package enum RecoveryDecision: Equatable {
    /// Recover now (`delay` 0) or after the crash backoff; `attempt` counts the load's recoveries.
    case recover(attempt: Int, delay: Int)
    /// WebKit's limit on its own reloads: the view's second recent crash (`RecentCrashes`).
    case suppressed
    /// More crashes within the window than the policy restarts.
    case crashLoop(crashes: Int, windowMs: Int)
    /// The load has had all the recoveries the policy gives it.
    case giveUp(recoveries: Int)
}

/// What the termination callback does.
package enum TerminationResponse: Equatable {
    case nothing
    /// WebKit without a delegate: a hidden view is recovered when it is next shown.
    case whenShown(Policy.Recovery)
    case now(Policy.Recovery)
}

extension Policy {
    /// What the termination callback does for a death of `reason`: an app's delegate acts on the reason it is told,
    /// if it is one the policy recovers from; WebKit's own reload, without a delegate, on the reasons
    /// `WebPageProxy::tryReloadAfterProcessTermination` reloads for (a crash, a hang, a limit; not a process ended
    /// on purpose).
    package func onTermination(visible: Bool, reason: TerminationReason) -> TerminationResponse {
        guard detect.byCallback, let recovery = recover else { return .nothing }
        let recovers = delegate
            ? recoverOn.contains(reason.told)
            : ![.requestedByClient, .idleExit, .navigationSwap, .exceededProcessCountLimit].contains(reason)
        guard recovers else { return .nothing }
        // A worker ended for the process-count limit made room for another: its view's comes back when it is
        // shown, not now, which would only end the next one.
        let deferred = recoverWhenVisible || reason == .exceededProcessCountLimit
        return deferred && !visible ? .whenShown(recovery) : .now(recovery)
    }

    /// Decides a recovery at `now` and, when there is one, records it in `history`. `recent` is the view's count of
    /// recent crashes, which a policy with a cooldown limits as WebKit does; `crash` says a crash prompted this one,
    /// for the backoff: the first restart after a crash is immediate, and each further one within the window waits
    /// `crashBackoffGrowth` times as long as the one before.
    package func decideRecovery(
        at now: Int, crash: Bool, recent: inout RecentCrashes, history: inout RecoveryHistory
    ) -> RecoveryDecision {
        if recoveryCooldownNanoseconds > 0, !recent.admit(at: now) { return .suppressed }
        history.crashes.removeAll { now - $0 > crashWindowNanoseconds }
        if history.crashes.count > crashRestarts {
            return .crashLoop(crashes: history.crashes.count, windowMs: crashWindowNanoseconds / 1_000_000)
        }
        guard history.recoveries < maxRecoveries else { return .giveUp(recoveries: history.recoveries) }
        history.recoveries += 1
        let delay = crash && history.crashes.count > 1 ? backoff(after: history.crashes.count - 2) : 0
        return .recover(attempt: history.recoveries, delay: delay)
    }

    /// The backoff grown `steps` times (at most 8, as it always was), in whole nanoseconds.
    func backoff(after steps: Int) -> Int {
        var delay = Double(crashBackoffNanoseconds)
        for _ in 0..<min(steps, 8) { delay *= crashBackoffGrowth }
        return Int(delay)
    }
}

/// WebKit's count of a page's recent crashes (`WebPageProxy::m_recentCrashCount`), which bounds the reloads WebKit
/// makes itself (`tryReloadAfterProcessTermination`): it reloads after one crash (`maximumWebProcessRelaunchAttempts`
/// is 1), gives up on the next and starts counting again, and forgets every crash once a page has finished loading
/// and the cooldown (30 s, `resetRecentCrashCountDelay`) has passed without another; each crash stops that timer.
package struct RecentCrashes: Equatable {
    static let relaunchAttempts = 1
    private(set) var count = 0
    /// When the count goes back to 0, if no crash comes first: a cooldown after a page last finished loading.
    private(set) var resetAt: Int?

    package init() {}

    /// A page finished loading in the view at `now` (`resetRecentCrashCountSoon`).
    package mutating func finished(at now: Int, cooldown: Int) { resetAt = now + cooldown }

    /// One more crash at `now`: whether WebKit reloads for it.
    package mutating func admit(at now: Int) -> Bool {
        if let resetAt, now >= resetAt { count = 0 }
        resetAt = nil
        count += 1
        guard count > Self.relaunchAttempts else { return true }
        count = 0
        return false
    }
}
