import Events
import Browser
import Core
import System
import Vocabulary

/// A user browsing the session's tabs (`run --session`): `loads` navigations one after another, each chosen by
/// the seed: a link to the next page, back, forward, reload, or another tab brought to the front. Each ends when
/// its page (or the error page standing in for it) has finished, and is logged as a load.
struct Browsing {
    /// The navigation under way, and when it began.
    var current: (tab: Tab, index: Int, startedAt: Int, deadline: TimerID?)?
    var started = false
    var ended = false
    /// Someone else drives the tabs (a test, through the browser's tab methods): nothing is chosen here, and the
    /// run lasts until `endBrowsing`.
    var scripted = false
}

extension Browsing {
    typealias Action = NavigationAction
}

extension Simulation {
    /// Browsing begins once every worker taken back has been adopted into its tab or refused: a tab shown before
    /// would get a new worker beside the one that shows it already. The workers the holder labelled with the shown
    /// tab and the editor are taken back first, alone, so that what the user sees does not wait behind the others.
    func reclaimThenBrowse() {
        guard let (generation, workers) = takenBack.take(), !workers.isEmpty else { return beginBrowsing() }
        let first = Set([browser.tabs.first(where: \.visible).map(Self.label(of:)), Self.editorLabel].compactMap { $0 })
        var batches = [workers.filter { first.contains($0.label) }, workers.filter { !first.contains($0.label) }]
            .map { $0.map(\.process) }.filter { !$0.isEmpty }
        let reclaimNext = { [unowned self] in
            guard !batches.isEmpty else {
                browser.openEditor()
                return beginBrowsing()
            }
            for worker in batches.removeFirst() { supervisor.reclaim(worker, generation: generation) }
        }
        supervisor.reclaimsSettled = reclaimNext
        reclaimNext()
    }

    /// The holder's label of a tab's worker, and of the editor's.
    static func label(of tab: Tab) -> String { "tab \(tab.id)" }
    static let editorLabel = "editor"

    /// The shown tab first, then the tabs kept live (`RunConfiguration.liveTabs`).
    func beginBrowsing() {
        guard let tab = browser.tabs.first(where: \.visible) ?? browser.tabs.first else { return endBrowsing() }
        // A tab that adopted a worker taken back is shown already if the session saved it so.
        let adopted = tab.realized
        if !adopted || !tab.visible { browser.show(tab) }
        realizeLiveTabs(from: 0)
        // Its page is there, with nothing to load.
        if adopted { navigationEnded(tab, error: nil) }
    }

    /// Realizes the live tabs from `index` on, one a turn of the loop: the loop goes on reaping and reading between
    /// launches, however many there are.
    func realizeLiveTabs(from index: Int) {
        var index = index
        let tabs = browser.tabs.prefix(configuration.liveTabs)
        while index < tabs.count, tabs[index].realized { index += 1 }
        guard index < tabs.count, !supervisor.stopping else { return }
        browser.realize(tabs[index], because: .live)
        clock.schedule(afterNanoseconds: 0) { [weak self] in self?.realizeLiveTabs(from: index + 1) }
    }

    /// A tab's page finished (an error page with `error`), or nothing did in time (`blank`): the navigation under
    /// way ends if it was this tab's.
    func navigationEnded(_ tab: Tab, error: String?, blank: Bool = false) {
        guard !browsing.ended, !browsing.scripted, !supervisor.stopping else { return }
        if let current = browsing.current {
            guard current.tab === tab else { return }
            browsing.current = nil
            clock.cancel(current.deadline)
            let ms = milliseconds(clock.now - current.startedAt)
            let outcome: LoadOutcome = blank ? .blank : error == nil ? .rendered : .failed
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
        let tabs = browser.tabs
        guard !supervisor.stopping, !browsing.ended, browsing.current == nil,
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
        log.emit(.navigationBegin(load: index, tab: Int(target.id), action: action))
        let deadline = clock.schedule(afterNanoseconds: configuration.blankTimeoutNanoseconds) { [weak self, weak target] in
            guard let self, let target else { return }
            navigationEnded(target, error: nil, blank: true)
        }
        browsing.current = (target, index, clock.now, deadline)
        switch action {
        case .link:
            let pages = browser.content.pages
            browser.navigate(tab, to: pages[schedule.index(.page, load: index, count: pages.count)], type: .linkActivated)
        case .back: browser.goBack(tab)
        case .forward: browser.goForward(tab)
        case .reload: browser.reload(tab)
        case .switchTab:
            let wasRealized = target.realized
            browser.show(target)
            // An already live tab has nothing to load: it is on screen as soon as it is shown.
            if wasRealized { navigationEnded(target, error: nil) }
        }
        // A navigation the policy refused never starts; the user stays where they were.
        if browsing.current?.tab === target, action != .switchTab, !target.navigating {
            navigationEnded(target, error: nil)
        }
    }

    private func otherTab(than tab: Tab, choice: Int) -> Tab {
        let others = browser.tabs.filter { $0 !== tab }
        return others[schedule.index(.tab, load: choice, count: others.count)]
    }

    /// The last navigation ended: the session is saved and every tab's view closed, so the run can end.
    package func endBrowsing() {
        guard !browsing.ended else { return }
        browsing.ended = true
        browser.saveSession()
        for tab in browser.tabs { if let view = tab.load?.view, !view.closed { supervisor.close(view) } }
        supervisor.retireSpares()
        browser.finishEditor()
    }
}
