import Core
import WireProtocol

/// One browser tab: its back/forward list, whether it is shown, and once realized the long-lived load whose view
/// (and worker) shows it.
///
/// Restored tabs start unrealized (seed 004): no view, no worker, only their saved state, a few hundred bytes each.
/// Observers and a policy decider can be registered on them all the same, and the getters answer from the saved
/// list. The browser realizes a tab when it is shown or when something needs its live state; realization is one-way,
/// and observers are told of it.
public final class Tab {
    public let id: UInt64
    /// The list the supervisor holds for the tab: WebKit's UI-process `WebBackForwardList`. A worker gets a copy
    /// when it takes the tab over, and both apply the same commits. A restored tab decodes it from its saved
    /// record the first time it is read.
    public internal(set) var history: BackForwardList {
        get {
            if let decoded { return decoded }
            let history = record.map(SessionFile.history(of:)) ?? BackForwardList()
            decoded = history
            return history
        }
        set {
            decoded = newValue
            record = nil
        }
    }
    private var decoded: BackForwardList?
    public internal(set) var visible: Bool {
        // The record goes, and a restored tab's history is decoded from it first.
        didSet {
            guard visible != oldValue else { return }
            _ = history
            record = nil
        }
    }
    public private(set) var realized = false
    /// Decides this tab's navigations before the browser's policy does; nil leaves the decision to the policy.
    public var decider: ((NavigationType, NavigationPolicy.Frame, String) -> NavigationPolicy.Decision.Verdict?)?
    private var observers: [(TabEvent) -> Void] = []
    /// What each navigation sent to the worker is to commit, and what that does to the list (or it fails first),
    /// in order.
    var pending: [Pending] = []
    /// Navigations asked of the tab while its history was being restored; they start once its page is back.
    var queued: [() -> Void] = []
    /// A worker has been given the tab's history and has not finished loading its current entry.
    var restoring = false
    /// Main-frame navigations its pages started on their own (links, forms, redirects) since the user last
    /// navigated: what bounds a page that keeps navigating.
    var pageNavigations = 0
    /// Its place among the session's tabs: what the session file's saves name it by.
    var position = 0
    /// The load showing the tab, once realized.
    package internal(set) var load: Load?
    /// A navigation asked of it is under way: sent and not yet committed, waiting for its restore, or restoring.
    package var navigating: Bool { !pending.isEmpty || !queued.isEmpty || restoring }
    /// The tab's session record as last saved (or restored); nil once something in it changed.
    var record: ArraySlice<UInt8>?

    /// A navigation sent and not yet committed: the URL the worker was sent to, and where it goes in the list. A
    /// worker that commits anything else is lying about what it shows (`committed`).
    enum Pending: Equatable {
        /// A new entry (a load, a link): the forward entries go.
        case push(String)
        /// `location.replace`: the current entry becomes the new URL (an error page's retry, or its placeholder).
        case replace(String)
        /// The list already points at this entry (back, forward, restore).
        case go(String)
        /// The entry current when it commits, loaded again.
        case reload
    }

    public init(id: UInt64, history: BackForwardList, visible: Bool) {
        self.id = id
        decoded = history
        self.visible = visible
    }

    /// A restored tab: only its record is kept until its history is read.
    public init(_ saved: SessionRecord) {
        id = saved.id
        visible = saved.visible
        record = saved.bytes
    }

    public var saved: SavedTab { SavedTab(id: id, history: history, visible: visible) }
    public var url: String? { history.current?.url }
    public var title: String { history.current?.title ?? "" }
    public var canGoBack: Bool { history.canGoBack }
    public var canGoForward: Bool { history.canGoForward }

    /// Calls `handler` with everything that happens to the tab from now on, realized or not.
    public func observe(_ handler: @escaping (TabEvent) -> Void) {
        observers.append(handler)
    }

    func notify(_ event: TabEvent) {
        for observer in observers { observer(event) }
    }

    /// Marks the tab realized and tells its observers; false if it already was.
    func markRealized() -> Bool {
        guard !realized else { return false }
        realized = true
        notify(.realized)
        return true
    }

    /// Applies a commit of `url` as the oldest pending navigation says; false, and nothing changes, when no
    /// navigation sent was to `url`.
    func committed(_ url: String) -> Bool {
        guard let next = pending.first else { return false }
        let entry = HistoryEntry(url: url, title: "")
        switch next {
        case .push(url): history.push(entry)
        case .replace(url): history.replaceCurrent(entry)
        case .go(url) where history.current?.url != url: history.replaceCurrent(entry)
        case .go(url): break
        case .reload where history.current?.url == url: break
        case .push, .replace, .go, .reload: return false
        }
        pending.removeFirst()
        notify(.committed(url: url))
        return true
    }
}

/// What a tab's observers hear.
public enum TabEvent: Equatable, Sendable {
    /// A worker now serves the tab; it happens once.
    case realized
    case committed(url: String)
    case finished(title: String)
    /// A navigation failed before it committed (`didFailProvisionalNavigation`) or after (`didFail`).
    case failed(provisional: Bool, error: String)
    case decided(type: NavigationType, frame: NavigationPolicy.Frame, url: String, verdict: NavigationPolicy.Decision.Verdict)
    /// The back/forward list as the tab's worker holds it, asked for with `Browser.queryWorkerHistory`.
    case workerHistory(index: Int, urls: [String])
}
