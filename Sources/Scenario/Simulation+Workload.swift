import Browser
import Core
import Events
import System
import WireProtocol
import Vocabulary

/// One page of the workload, as the supervisor's client: loaded into a fresh view, shown to the user (or kept
/// hidden a while), visible or blank, then ended.
final class PageLoad: LoadClient {
    weak var simulation: Simulation?
    let url: String
    let slot: Int
    let hidden: Bool
    var blankDeadline: TimerID?

    init(_ simulation: Simulation, url: String, slot: Int, hidden: Bool) {
        self.simulation = simulation
        self.url = url
        self.slot = slot
        self.hidden = hidden
    }

    func start(_ worker: Worker, in view: View) -> LoadStart { .load(url) }

    func serve(_ url: String, _ kind: ResourceKind, for worker: Worker) -> SchemeResponse {
        simulation?.browser.serve(url, kind, for: nil) ?? .gone
    }

    var longestDocument: Int { simulation?.browser.longestDocument ?? pieceBytes }

    func site(of view: View) -> Site? { Site(url: url) }

    func committed(_ url: String, by worker: Worker, in view: View) -> Bool { url == self.url }

    func rendered(_ view: View, by worker: Worker, title: String) {}

    func failed(_ view: View, by worker: Worker, provisional: Bool, error: String) {
        simulation?.endLoad(view, of: self, error: error)
    }

    func visible(_ view: View, first: Bool, at time: Int) {
        guard let simulation else { return }
        if first { simulation.clock.cancel(blankDeadline) }
        simulation.dwell(in: view, of: self)
    }

    func ended(_ view: View, error: String?) { simulation?.endLoad(view, of: self, error: error) }
}

/// The workload: loads begun one per free view or one per arrival, shown to the user, visible or blank, ended.
extension Simulation {
    /// The open loop: one load per arrival interval, whatever the others are doing.
    func arrive(at time: Int) {
        beginNextLoad(slot: nextLoadIndex % configuration.views)
        guard nextLoadIndex < configuration.loads else { return }
        let next = time + configuration.arrivalNanoseconds
        clock.schedule(at: next) { [weak self] in self?.arrive(at: next) }
    }

    func beginNextLoad(slot: Int) {
        guard nextLoadIndex < configuration.loads, !supervisor.stopping else {
            if finishedLoads == configuration.loads { supervisor.retireSpares() }
            return
        }
        let index = nextLoadIndex
        nextLoadIndex += 1
        let pages = browser.content.pages
        let url = configuration.replay == nil
            ? onSite(pages[schedule.index(.page, load: index, count: pages.count)], load: index)
            : ReplayPages.url(forLoad: index, of: configuration.replay!)
        let page = PageLoad(self, url: url, slot: slot, hidden: slot < configuration.hidden)
        let load = Load(index: index, client: page, startedAt: clock.now)
        log.emit(.loadBegin(load: index, url: url, hidden: page.hidden))
        if page.hidden {
            // A background tab: the user switches to it after a while, whether or not it has rendered by then.
            clock.schedule(afterNanoseconds: configuration.hiddenNanoseconds) { [weak self, weak load] in
                guard let self, let load, let view = load.view, !view.closed, shown(load) else { return }
                supervisor.show(view)
            }
        } else {
            shown(load)
        }
        let view = supervisor.open(load)
        if let incident = configuration.replay?.incident(forLoad: index) { replay(incident, in: view) }
        if schedule.happens(.race, load: index, rate: configuration.raceRate) { injectRace(into: view) }
    }

    /// `page` as the load's site serves it: with more than one site, the same document at `app://siteN.test/`, the
    /// site drawn for the load.
    private func onSite(_ page: String, load: Int) -> String {
        guard configuration.sites > 1, page.hasPrefix(ContentProvider.origin) else { return page }
        let site = schedule.index(.site, load: load, count: configuration.sites) + 1
        return "app://site\(site).test/" + page.dropFirst(ContentProvider.origin.count)
    }

    /// The user starts looking at the load: the blank clock starts.
    @discardableResult
    func shown(_ load: Load) -> Bool {
        guard supervisor.shown(load), let page = load.client as? PageLoad else { return false }
        let now = clock.now
        page.blankDeadline = clock.schedule(at: now + configuration.blankTimeoutNanoseconds) { [weak self, weak load] in
            guard let self, let load, case .shown(let shownAt) = load.sight, let view = load.view else { return }
            load.sight = .blank(shownAt: shownAt)
            log.emit(.blank(load: load.index), view: view.id)
            endLoad(view, of: page)
        }
        return true
    }

    /// The view is on screen with content: it stays for the dwell, then closes. After a recovery it stays for the
    /// whole dwell again.
    func dwell(in view: View, of page: PageLoad) {
        let dwell = configuration.replay == nil ? configuration.dwellNanoseconds : replayDwell(of: view.load)
        guard dwell > 0 else { return endLoad(view, of: page) }
        view.timers.append(clock.schedule(afterNanoseconds: dwell) { [weak self, weak view] in
            guard let self, let view, !view.closed else { return }
            endLoad(view, of: page)
        })
    }

    /// Closes the load's view. With `error`, the load failed and the view shows an internal error page naming it
    /// (a failed navigation, a crash loop), which is neither content nor a blank.
    func endLoad(_ view: View, of page: PageLoad, error: String? = nil) {
        guard !view.closed else { return }
        let load = view.load
        let now = clock.now
        let outcome: LoadOutcome =
            error != nil ? .failed : load.visibleAt != nil ? .rendered : load.shownAt == nil ? .lostHidden : .blank
        var end = SupervisorEvent.LoadEnd(
            load: load.index, outcome: outcome, recoveries: load.recoveries, hidden: page.hidden, error: error)
        if let shownAt = load.shownAt {
            end.blankMs = milliseconds((load.visibleAt ?? now) - shownAt)
            if let visibleAt = load.visibleAt, outcome == .rendered { end.timeToVisibleMs = milliseconds(visibleAt - shownAt) }
        }
        clock.cancel(page.blankDeadline)
        killsPlanned.remove(ObjectIdentifier(load))
        replayDeaths[ObjectIdentifier(load)] = nil
        log.emit(.loadEnd(end), view: view.id)
        finishedLoads += 1
        supervisor.close(view)
        if configuration.arrivalNanoseconds == 0 {
            clock.soon { [unowned self] in beginNextLoad(slot: page.slot) }
        } else if finishedLoads == configuration.loads {
            supervisor.retireSpares()
        }
        if finishedLoads == configuration.loads { browser.finishEditor() }
    }
}
