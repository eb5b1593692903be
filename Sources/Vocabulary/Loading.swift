/// How a load ended.
public enum LoadOutcome: String, Sendable, CaseIterable {
    case rendered, blank, failed
    /// Ended without content before anyone looked at it (a hidden tab whose recoveries gave up before it was
    /// shown): no user waited on it, so it is neither a blank nor a wait.
    case lostHidden = "lost-hidden"
}

/// When a navigation failed, in WebKit's terms: before it committed (`didFailProvisionalNavigation`) or after.
public enum FailureKind: String, Sendable, CaseIterable {
    case provisional, committed
}

/// A fault the run dealt a worker on purpose.
public enum FaultKind: String, Sendable, CaseIterable {
    /// `--inject-race`: killed between its spawn and its view's attach.
    case race
    /// `--inject-kill`: killed after it rendered.
    case killAfterRender = "kill-after-render"
    /// A replayed incident's death: a kill, a crash, a hang, or a kill of unknown cause.
    case replayKill = "replay-kill"
    case replayCrash = "replay-crash"
    case replayHang = "replay-hang"
    case replayUnknown = "replay-unknown"

    public var isReplay: Bool {
        switch self {
        case .race, .killAfterRender: false
        case .replayKill, .replayCrash, .replayHang, .replayUnknown: true
        }
    }
}

/// How far a raced page had got when its worker was killed (always before its view attached): before its commit,
/// after it, or after its first paint.
public enum RaceStage: String, Sendable, CaseIterable {
    case beforeCommit = "before-commit"
    case afterCommit = "after-commit"
    case afterRender = "after-render"
}

/// Why a view opened with no spare worker waiting for it, as Chromium records for every navigation that needed a
/// process (`NoSpareRendererReason`, content/browser/renderer_host/spare_render_process_host_manager_impl.h).
public enum NoSpareReason: String, Sendable, CaseIterable {
    /// The policy keeps none (`spares=0`).
    case notEnabled = "not-enabled"
    /// None launched yet: the run's first views, or none needed since the last was taken.
    case notYetCreated = "not-yet-created"
    /// The last was taken by an earlier view, and its replacement waits for that view to render.
    case takenByPreviousLoad = "taken-by-previous-load"
    /// It died while it waited (a killer took it first).
    case processExited = "process-exited"
    /// The kernel refused to launch it (`ulimit -u`).
    case processLimit = "process-limit"
}
