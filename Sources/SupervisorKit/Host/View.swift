import Core
import System
import Text

/// One load of one URL: what the user asked to see, however many views and workers it takes.
final class Load {
    let index: Int
    private let initialURL: String
    /// The URL it shows: a tab's current entry, as the tab navigates.
    var url: String { tab?.url ?? initialURL }
    let slot: Int
    let hidden: Bool
    let startedAt: Int
    /// The editor document's load: open for the whole run, never counted among the loads.
    let editor: Bool
    /// The tab this load shows for as long as the tab is realized: open for the whole run, never counted among the
    /// loads (its navigations are).
    let tab: Tab?
    /// What the user has seen of it: nothing yet (a hidden load), a view looked at since it was shown (created,
    /// for a visible load), content, or a blank it was given up as.
    enum Sight: Equatable {
        case unseen
        case shown(at: Int)
        case visible(shownAt: Int, at: Int)
        case blank(shownAt: Int)
    }
    var sight = Sight.unseen
    var shownAt: Int? {
        switch sight {
        case .unseen: nil
        case .shown(let at), .blank(let at), .visible(let at, _): at
        }
    }
    var visibleAt: Int? { if case .visible(_, let at) = sight { at } else { nil } }
    var history = RecoveryHistory()
    var recoveries: Int { history.recoveries }
    var blankDeadline: TimerID?
    var killScheduled = false
    /// The view currently showing this load; rebuilding replaces it.
    weak var view: View?

    init(index: Int, url: String, slot: Int, hidden: Bool, startedAt: Int, editor: Bool = false, tab: Tab? = nil) {
        self.editor = editor
        self.tab = tab
        self.index = index
        initialURL = url
        self.slot = slot
        self.hidden = hidden
        self.startedAt = startedAt
    }
}

/// What the user looks at: WKWebView's place in this model. It holds at most one worker, which it may wrongly
/// believe alive: that is the race.
final class View {
    let id: Int
    let load: Load
    var worker: WorkerProcess?
    var visible: Bool
    /// Where it is in its life: only an attached view has its termination observer wired (for `Observe.attach`
    /// policies) and its foreground assertion taken; a closed one is done with.
    enum Stage: Equatable {
        case opening, attached, closed
    }
    private(set) var stage = Stage.opening
    var attached: Bool { stage == .attached }
    var closed: Bool { stage == .closed }

    /// Attaches an opening view; false, and nothing changes, for one already closed (or attached).
    func enterWindow() -> Bool {
        guard stage == .opening else { return false }
        stage = .attached
        return true
    }

    /// Closed is for good: no later step reopens it.
    func close() { stage = .closed }
    var title = ""
    /// WebKit's recovery deferred until the view is next shown.
    var deferredRecovery: Policy.Recovery?
    var lastRecoveryAt: Int?
    let createdAt: Int
    /// When the view enters the window; faults aimed at the vulnerable window are timed against it.
    var attachAt = 0
    var timers: [TimerID] = []

    init(id: Int, load: Load, visible: Bool, at time: Int) {
        self.id = id
        self.load = load
        self.visible = visible
        createdAt = time
    }
}
