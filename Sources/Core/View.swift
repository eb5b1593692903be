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

    /// A page committed: it is the view's URL and its back/forward list's current item.
    func committed(_ url: String) {
        self.url = url
        currentItem = url
    }

    /// Its process died: WebKit's page load state is reset, so the title and the URL are empty from now on.
    func processExited() {
        title = ""
        url = nil
    }
    /// `webView.title` and `webView.URL`: set as the page finishes and commits, and cleared when its process dies
    /// (WebKit's `PageLoadState::reset`), after the termination callback returns.
    package internal(set) var title = ""
    package internal(set) var url: String?
    /// The back/forward list's current item, kept by WebKit apart from any process: nil until a page commits in
    /// the view, then that page's URL. A death leaves it; a reload after a death loads it, or nothing without it.
    package internal(set) var currentItem: String?
    /// What the view's next worker is sent: what its client starts a load with, or only the current back/forward
    /// item (a reload's new process, as WebKit's `launchProcessForReload` starts it).
    enum NextStart { case request, currentItem }
    var nextStart = NextStart.request
    /// WebKit's recovery deferred until the view is next shown.
    package internal(set) var deferredRecovery: Policy.Recovery?
    var recentCrashes = RecentCrashes()
    package let createdAt: Int
    /// When it last came on screen (opened visible, or shown); nil for a hidden tab never shown. The process-count
    /// limit ends the worker of the hidden view shown least recently first.
    var lastShownAt: Int?
    /// When the view enters the window; faults aimed at the vulnerable window are timed against it.
    package internal(set) var attachAt = 0
    /// Timers set for it; closing it cancels them.
    package var timers: [TimerID] = []
    /// The blank watchdog's next title check, cancelled once the load is visible: a visible view sets no timer.
    var titleCheck: TimerID?
    /// Its worker's suspension, due once the view has been hidden for the policy's grace.
    var suspension: TimerID?

    init(id: Int, load: Load, visible: Bool, at time: Int) {
        self.id = id
        self.load = load
        self.visible = visible
        createdAt = time
        if visible { lastShownAt = time }
    }
}
