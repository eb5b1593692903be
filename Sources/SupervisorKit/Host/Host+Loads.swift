import Events
import LogAnalysis
import System
import Text

/// Loads: begun one per free view or one per arrival, shown to the user, visible or blank, ended.
extension Host {
    /// The open loop: one load per arrival interval, whatever the others are doing.
    func arrive(at time: Int) {
        beginNextLoad(slot: nextLoadIndex % configuration.views)
        guard nextLoadIndex < configuration.loads else { return }
        let next = time + configuration.arrivalNanoseconds
        clock.schedule(at: next) { [weak self] in self?.arrive(at: next) }
    }

    func beginNextLoad(slot: Int) {
        guard nextLoadIndex < configuration.loads, !stopping else {
            if finishedLoads == configuration.loads { retireSpares() }
            return
        }
        let index = nextLoadIndex
        nextLoadIndex += 1
        let url = content.pages[schedule.index(.page, load: index, count: content.pages.count)]
        let load = Load(
            index: index, url: url, slot: slot, hidden: slot < configuration.hidden, startedAt: clock.now)
        log.emit(.loadBegin(load: index, url: url, hidden: load.hidden))
        if load.hidden {
            // A background tab: the user switches to it after a while, whether or not it has rendered by then.
            clock.schedule(afterNanoseconds: configuration.hiddenNanoseconds) { [weak self, weak load] in
                guard let self, let load else { return }
                show(load)
            }
        } else {
            shown(load)
        }
        let view = openView(for: load)
        if schedule.happens(.race, load: index, rate: configuration.raceRate) { injectRace(into: view) }
    }

    /// The user starts looking at the load: the blank clock starts.
    func shown(_ load: Load) {
        let now = clock.now
        load.sight = .shown(at: now)
        // A tab is never closed as blank: it stays open, and its navigations are counted one by one.
        guard load.tab == nil else { return }
        load.blankDeadline = clock.schedule(at: now + configuration.blankTimeoutNanoseconds) { [weak self, weak load] in
            guard let self, let load, case .shown(let shownAt) = load.sight, let view = load.view else { return }
            load.sight = .blank(shownAt: shownAt)
            log.emit(.blank(load: load.index), view: view.id)
            endLoad(view)
        }
    }

    /// The view is on screen with content. The first time counts for the load; after a recovery the view stays
    /// up for the whole dwell again.
    func becameVisible(_ view: View) {
        let load = view.load
        guard let shownAt = load.shownAt, !stopping, !view.title.isEmpty else { return }
        let now = clock.now
        let first = load.visibleAt == nil
        if first {
            load.sight = .visible(shownAt: shownAt, at: now)
            clock.cancel(load.blankDeadline)
        }
        log.emit(
            .visible(load: load.index, timeToVisibleMs: milliseconds(now - shownAt), first: first, editor: load.editor),
            view: view.id, pid: view.worker?.pid)
        if load.editor { return editorShown(view) }
        if load.tab != nil { return }
        guard configuration.dwellNanoseconds > 0 else { return endLoad(view) }
        view.timers.append(clock.schedule(afterNanoseconds: configuration.dwellNanoseconds) { [weak self, weak view] in
            guard let self, let view, !view.closed else { return }
            endLoad(view)
        })
    }

    /// Closes the load's view. With `error`, the load failed and the view shows an internal error page naming it
    /// (a failed navigation, a crash loop), which is neither content nor a blank.
    func endLoad(_ view: View, error: String? = nil) {
        guard !view.closed else { return }
        let load = view.load
        if load.editor {
            finishEditor()
            return concludeEditor()
        }
        // A tab stays open whatever happened to its worker: the navigation under way failed, and the next one
        // starts a new worker.
        if let tab = load.tab { return navigationEnded(tab, error: error, blank: error == nil) }
        let now = clock.now
        let outcome: SupervisorEvent.Outcome = error != nil ? .failed : load.visibleAt == nil ? .blank : .rendered
        var end = SupervisorEvent.LoadEnd(
            load: load.index, outcome: outcome, recoveries: load.recoveries, hidden: load.hidden, error: error)
        if let shownAt = load.shownAt {
            end.blankMs = milliseconds((load.visibleAt ?? now) - shownAt)
            if let visibleAt = load.visibleAt, outcome == .rendered { end.timeToVisibleMs = milliseconds(visibleAt - shownAt) }
        }
        clock.cancel(load.blankDeadline)
        log.emit(.loadEnd(end), view: view.id)
        finishedLoads += 1
        closeView(view)
        if configuration.arrivalNanoseconds == 0 {
            clock.soon { [unowned self] in beginNextLoad(slot: load.slot) }
        } else if finishedLoads == configuration.loads {
            retireSpares()
        }
        if finishedLoads == configuration.loads { finishEditor() }
    }
}
