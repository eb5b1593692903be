import Events
import LogAnalysis
import System

/// A user browsing the session's tabs (`run --session`): `loads` navigations one after another, each chosen by
/// the seed: a link to the next page, back, forward, reload, or another tab brought to the front. Each ends when
/// its page (or the error page standing in for it) has finished, and is logged as a load.
struct Browsing {
    /// The navigation under way, and when it began.
    var current: (tab: Tab, index: Int, startedAt: Int, deadline: TimerID?)?
    var started = false
    var ended = false
    /// Someone else drives the tabs (a test, through the host's tab methods): nothing is chosen here, and the
    /// run lasts until `endBrowsing`.
    var scripted = false
}

extension Browsing {
    enum Action: String {
        case link, back, forward, reload, switchTab = "switch-tab"
    }
}

extension Host {
    func beginBrowsing() {
        guard let tab = tabs.first(where: \.visible) ?? tabs.first else { return endBrowsing() }
        show(tab)
    }

    /// A tab's page finished (an error page with `error`), or nothing did in time (`blank`): the navigation under
    /// way ends if it was this tab's.
    func navigationEnded(_ tab: Tab, error: String?, blank: Bool = false) {
        guard !browsing.ended, !browsing.scripted, !stopping else { return }
        if let current = browsing.current {
            guard current.tab === tab else { return }
            browsing.current = nil
            clock.cancel(current.deadline)
            let ms = milliseconds(clock.now - current.startedAt)
            let outcome: SupervisorEvent.Outcome = blank ? .blank : error == nil ? .rendered : .failed
            let end = SupervisorEvent.LoadEnd(
                load: current.index, tab: Int(tab.id), outcome: outcome, recoveries: 0, hidden: false, error: error,
                blankMs: ms, timeToVisibleMs: outcome == .rendered ? ms : nil)
            log.emit(.loadEnd(end), view: tab.load?.view?.id)
            finishedLoads += 1
        } else if browsing.started {
            return
        }
        browsing.started = true
        guard finishedLoads < configuration.loads else { return endBrowsing() }
        clock.schedule(afterNanoseconds: configuration.dwellNanoseconds) { [weak self] in self?.browseNext() }
    }

    func browseNext() {
        guard !stopping, !browsing.ended, browsing.current == nil,
            let tab = tabs.first(where: \.visible) ?? tabs.first
        else { return }
        let index = nextLoadIndex
        nextLoadIndex += 1
        let choice = schedule.uniform(.browse, load: index)
        var action: Browsing.Action =
            choice < 0.55 ? .link : choice < 0.7 ? .back : choice < 0.8 ? .forward : choice < 0.9 ? .reload : .switchTab
        if action == .back && !tab.canGoBack || action == .forward && !tab.canGoForward { action = .link }
        if action == .switchTab && tabs.count < 2 { action = .reload }
        let target = action == .switchTab ? otherTab(than: tab, choice: index) : tab
        log.emit(.navigationBegin(load: index, tab: Int(target.id), action: action.rawValue))
        let deadline = clock.schedule(afterNanoseconds: configuration.blankTimeoutNanoseconds) { [weak self, weak target] in
            guard let self, let target else { return }
            navigationEnded(target, error: nil, blank: true)
        }
        browsing.current = (target, index, clock.now, deadline)
        switch action {
        case .link:
            let page = content.pages[schedule.index(.page, load: index, count: content.pages.count)]
            navigate(tab, to: page, type: .linkActivated)
        case .back: goBack(tab)
        case .forward: goForward(tab)
        case .reload: reload(tab)
        case .switchTab:
            let wasRealized = target.realized
            show(target)
            // An already live tab has nothing to load: it is on screen as soon as it is shown.
            if wasRealized { navigationEnded(target, error: nil) }
        }
        // A navigation the policy refused never starts; the user stays where they were.
        if browsing.current?.tab === target, action != .switchTab, target.pending.isEmpty, target.queued.isEmpty,
            !target.restoring
        {
            navigationEnded(target, error: nil)
        }
    }

    private func otherTab(than tab: Tab, choice: Int) -> Tab {
        let others = tabs.filter { $0 !== tab }
        return others[schedule.index(.tab, load: choice, count: others.count)]
    }

    /// The last navigation ended: the session is saved and every tab's view closed, so the run can end.
    func endBrowsing() {
        guard !browsing.ended else { return }
        browsing.ended = true
        saveSession()
        for tab in tabs { if let view = tab.load?.view, !view.closed { closeView(view) } }
        retireSpares()
        finishEditor()
    }
}
