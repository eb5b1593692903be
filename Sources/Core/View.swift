import System

/// What the user looks at: WKWebView's place in this model. It holds at most one worker, which it may wrongly
/// believe alive: that is the race.
package final class View {
    package let id: Int
    package let load: Load
    package internal(set) var worker: Worker?
    package internal(set) var visible: Bool
    /// Where it is in its life: only an attached view has its termination observer wired (for `Observe.attach`
    /// policies) and its foreground assertion taken; a closed one is done with.
    package enum Stage: Equatable {
        case opening, attached, closed
    }
    package private(set) var stage = Stage.opening
    package var attached: Bool { stage == .attached }
    package var closed: Bool { stage == .closed }

    /// Attaches an opening view; false, and nothing changes, for one already closed (or attached).
    func enterWindow() -> Bool {
        guard stage == .opening else { return false }
        stage = .attached
        return true
    }

    /// Closed is for good: no later step reopens it.
    func close() { stage = .closed }
    package internal(set) var title = ""
    /// WebKit's recovery deferred until the view is next shown.
    package internal(set) var deferredRecovery: Policy.Recovery?
    var lastRecoveryAt: Int?
    package let createdAt: Int
    /// When the view enters the window; faults aimed at the vulnerable window are timed against it.
    package internal(set) var attachAt = 0
    /// Timers set for it; closing it cancels them.
    package var timers: [TimerID] = []
    /// The blank watchdog's next title check, cancelled once the load is visible: a visible view sets no timer.
    var titleCheck: TimerID?

    init(id: Int, load: Load, visible: Bool, at time: Int) {
        self.id = id
        self.load = load
        self.visible = visible
        createdAt = time
    }
}
