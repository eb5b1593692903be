import Core
import System
import WireProtocol
import Vocabulary

/// Tabs (seeds 002–004): realized on demand, navigated with browser semantics, every navigation decided by the
/// navigation policy, and failures shown as internal error pages that stand in history for what failed.
extension Browser {
    /// Gives `tab` a view and a worker, which receives the tab's history over the channel, or the worker taken back
    /// that shows it already (`adopting`: the caller screened the list and checked the worker against it). One-way;
    /// observers are told.
    package func realize(
        _ tab: Tab, because reason: TabRealizeReason, adopting reclaimed: (worker: Worker, page: WorkerClaim)? = nil
    ) {
        guard !stopping, tab.markRealized() else { return }
        if reclaimed == nil { screenHistory(of: tab) }
        let load = Load(index: -1, client: TabClient(browser: self, tab: tab), startedAt: clock.now)
        tab.load = load
        if tab.visible { supervisor.shown(load) }
        log.emit(.tabRealized(tab: Int(tab.id), reason: reason, entries: tab.history.entries.count, index: tab.history.index))
        supervisor.open(load, adopting: reclaimed)
    }

    /// The tab `load` shows, if it is a tab's.
    package func tab(showing load: Load) -> Tab? {
        (load.client as? TabClient)?.tab
    }

    /// Brings `tab` to the front, realizing it if it was not; the tab shown before goes to the background.
    package func show(_ tab: Tab) {
        guard !stopping else { return }
        for other in tabs where other.visible && other !== tab {
            other.visible = false
            sessionChanged(other)
            if let view = other.load?.view { supervisor.hide(view) }
        }
        tab.visible = true
        sessionChanged(tab)
        guard let load = tab.load else { return realize(tab, because: .shown) }
        if let view = load.view, !view.closed, supervisor.shown(load) { supervisor.show(view) }
    }

    /// Loads `url` in `tab` as a new entry, if the policy allows it.
    package func navigate(_ tab: Tab, to url: String, type: NavigationType = .other) {
        tab.pageNavigations = 0
        guard decide(tab, type, .main, url) == .allow else { return }
        perform(on: tab, .push(url), .load(url: url, replace: false))
    }

    package func goBack(_ tab: Tab) { go(tab, by: -1) }
    package func goForward(_ tab: Tab) { go(tab, by: 1) }

    func go(_ tab: Tab, by offset: Int) {
        tab.pageNavigations = 0
        let target = tab.history.index + offset
        guard tab.history.entries.indices.contains(target) else { return }
        let url = tab.history.entries[target].url
        guard decide(tab, .backForward, .main, url) == .allow else { return }
        perform(on: tab, .go(url), .goTo(index: UInt32(target))) { _ = $0.history.go(to: offset) }
    }

    /// Reloads the current entry. An error page retries the URL it stands for, in its place: history does not grow.
    package func reload(_ tab: Tab) {
        tab.pageNavigations = 0
        guard let current = tab.url else { return }
        if let original = errorPageTarget(current) {
            guard decide(tab, .reload, .main, original) == .allow else { return }
            return perform(on: tab, .replace(original), .load(url: original, replace: true))
        }
        guard decide(tab, .reload, .main, current) == .allow else { return }
        perform(on: tab, .reload, .reload)
    }

    /// Asks the tab's worker for its back/forward list (a tab observer hears the answer). That needs the live
    /// tab: an unrealized one is realized first.
    package func queryWorkerHistory(_ tab: Tab) {
        guard let worker = liveWorker(of: tab, because: .liveState, then: { [unowned self] in queryWorkerHistory(tab) })
        else { return }
        supervisor.send(.historyQuery, to: worker)
    }

    /// The worker serving `tab` once its history is back; until then nil, and `retry` waits for it, the tab being
    /// realized first if need be. A tab whose worker was given up on (a crash loop) gets a new one.
    func liveWorker(of tab: Tab, because reason: TabRealizeReason, then retry: @escaping () -> Void) -> Worker? {
        if tab.realized, !tab.restoring, let worker = tab.load?.view?.worker, worker.channelOpen { return worker }
        tab.queued.append(retry)
        if let view = tab.load?.view, view.worker == nil, view.deferredRecovery == nil { supervisor.startWorker(for: view) }
        realize(tab, because: reason)
        return nil
    }

    /// Sends a navigation to the tab's worker, realizing the tab first if need be (the navigation then waits for
    /// the restored page). `apply` changes the supervisor's list as the worker will change its own.
    func perform(on tab: Tab, _ pending: Tab.Pending, _ message: ToWorker, apply: ((Tab) -> Void)? = nil) {
        let retry = { [unowned self] in perform(on: tab, pending, message, apply: apply) }
        guard let worker = liveWorker(of: tab, because: .navigation, then: retry) else { return }
        apply?(tab)
        tab.pending.append(pending)
        supervisor.navigate(worker, message)
    }

    /// The decision on one navigation: a URL over `maxURLBytes` is cancelled (no frame, session file or error page
    /// could carry it whole); then the tab's own decider, then the policy. Every decision is logged.
    func decide(_ tab: Tab, _ type: NavigationType, _ frame: NavigationPolicy.Frame, _ url: String)
        -> NavigationPolicy.Decision.Verdict
    {
        let decision = decision(tab, type, frame, url)
        record(decision, tab, type, frame, url)
        return decision.verdict
    }

    /// `decide`'s decision, neither logged nor told.
    func decision(_ tab: Tab, _ type: NavigationType, _ frame: NavigationPolicy.Frame, _ url: String)
        -> NavigationPolicy.Decision
    {
        let length = url.utf8.count
        let tooLong = "a URL of \(length) bytes, over the \(maxURLBytes)-byte limit"
        return length > maxURLBytes
            ? NavigationPolicy.Decision(verdict: .cancel, reason: tooLong)
            : tab.decider?(type, frame, url).map { NavigationPolicy.Decision(verdict: $0, reason: "the tab's decider") }
                ?? settings.navigation.decide(type, frame: frame, url: url, key: launchKey)
    }

    /// Logs `decision` and tells the tab's observers.
    func record(
        _ decision: NavigationPolicy.Decision, _ tab: Tab, _ type: NavigationType, _ frame: NavigationPolicy.Frame,
        _ url: String
    ) {
        log.emit(.navigationDecision(
            tab: Int(tab.id), type: type, frame: frame, url: url, decision: decision.verdict, reason: decision.reason))
        tab.notify(.decided(type: type, frame: frame, url: url, verdict: decision.verdict))
    }

    /// The URL an error page of this launch stands for; nil for anything else.
    func errorPageTarget(_ url: String) -> String? {
        guard let parsed = WebURL(url), case .errorPage(let original, _)? = InternalURL.check(parsed, key: launchKey) else {
            return nil
        }
        return original
    }

    /// What a new worker of `tab` is sent: the tab's whole history natively, not a page that rebuilds it (seed
    /// 002), in pieces that each fit a frame however long the list and its URLs, and the URL it loads (none for a
    /// tab with no entries).
    func history(of tab: Tab) -> LoadStart {
        let urls = tab.history.entries.map(\.url)
        let pieces = ToWorker.restorePieces(index: UInt32(max(tab.history.index, 0)), urls: urls)
        guard !urls.isEmpty else { return LoadStart(pieces, url: nil) }
        tab.restoring = true
        tab.pending = [.go(tab.url ?? "")]
        return LoadStart(pieces, url: tab.url ?? "", restores: true)
    }

    /// A page committed in `tab`; false when no navigation sent to it was to `url`.
    func committed(_ tab: Tab, url: String) -> Bool {
        guard tab.committed(url) else { return false }
        sessionChanged(tab)
        return true
    }

    func finished(_ tab: Tab, by worker: Worker, title: String) {
        tab.restoring = false
        tab.history.setTitle(title)
        tab.notify(.finished(title: title))
        sessionChanged(tab)
        // The page a new worker restored is back: what was asked meanwhile goes now, and the navigation under way
        // ends with the last of those, not with the restore.
        if startQueued(tab) { return }
        navigationEnded(tab, error: tab.url.flatMap(errorPageTarget).map { "error page for \($0)" })
    }

    /// A tab whose history has no entries was given to a worker: there is nothing to load, so nothing to wait for.
    func restoredEmpty(_ tab: Tab) {
        tab.restoring = false
        tab.pending = []
        if !startQueued(tab) { navigationEnded(tab, error: nil) }
    }

    /// Starts what was asked of `tab` while its history was being restored; true if a navigation is under way.
    func startQueued(_ tab: Tab) -> Bool {
        guard !tab.queued.isEmpty else { return false }
        let queued = tab.queued
        tab.queued = []
        queued.forEach { $0() }
        return !tab.pending.isEmpty
    }

    /// A navigation failed, before its commit or after. Either way the tab shows an error page that takes the
    /// failed URL's place in history: a new entry for a new navigation that never committed, the current entry
    /// otherwise.
    func failed(_ tab: Tab, by worker: Worker, provisional: Bool, error: String) {
        tab.notify(.failed(provisional: provisional, error: error))
        let pending = provisional && !tab.pending.isEmpty ? tab.pending.removeFirst() : nil
        let pushed = if case .push? = pending { true } else { false }
        let failed = provisional ? worker.lastDocument?.url ?? tab.url ?? "" : tab.url ?? ""
        guard errorPageTarget(failed) == nil, WebURL(failed)?.scheme != InternalURL.scheme else {
            // An error page that cannot be shown: no error page for it, or this would never end.
            return navigationEnded(tab, error: error)
        }
        let code = Int(worker.lastDocument?.status ?? 0)
        showErrorPage(in: tab, for: failed, code: code, replace: !pushed, by: worker, because: error,
            kind: provisional ? .provisional : .committed)
    }

    /// Loads the error page standing for `url` into `tab`: in a new entry, or in place of the current one. One whose
    /// own URL would be over `maxURLBytes` (the failed URL is in it, percent-encoded) cannot be shown, and the
    /// navigation just ends failed.
    func showErrorPage(
        in tab: Tab, for url: String, code: Int, replace: Bool, by worker: Worker, because error: String,
        kind: ErrorPageKind
    ) {
        let page = InternalURL.errorPage(for: url, code: code, key: launchKey)
        guard page.utf8.count <= maxURLBytes else { return navigationEnded(tab, error: error) }
        log.emit(.errorPage(tab: Int(tab.id), url: url, code: code, kind: kind), view: tab.load?.view?.id, pid: worker.pid)
        tab.pending.append(replace ? .replace(page) : .push(page))
        supervisor.navigate(worker, .load(url: page, replace: replace))
    }

    /// The page asked to go somewhere: a link, a form, a redirect, a sub-frame. Pages cannot navigate on their own
    /// for ever: after `maxPageNavigations` main-frame navigations since the user last acted, the next one ends on
    /// an error page instead, as browsers stop a chain of redirects.
    func navigationRequested(_ tab: Tab, type: NavigationType, mainFrame: Bool, url: String, by worker: Worker) {
        let verdict = decide(tab, type, mainFrame ? .main : .sub, url)
        if verdict == .openExternally { log.emit(.openExternally(tab: Int(tab.id), url: url)) }
        guard verdict == .allow, mainFrame else { return }
        guard tab.pageNavigations < Self.maxPageNavigations else {
            let error = "\(Self.maxPageNavigations) navigations without a user action"
            return showErrorPage(in: tab, for: url, code: Self.tooManyNavigationsCode, replace: false, by: worker,
                because: error, kind: .tooManyNavigations)
        }
        tab.pageNavigations += 1
        perform(on: tab, .push(url), .load(url: url, replace: false))
    }

    static let maxNavigationsPerPage = 8
    /// Chromium's redirect limit.
    static let maxPageNavigations = 20
    /// The error page's code for a page that navigated too often: 310, after Chromium's ERR_TOO_MANY_REDIRECTS.
    static let tooManyNavigationsCode = 310
}
