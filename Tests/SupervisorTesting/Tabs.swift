import WireProtocol

@testable import Browser
@testable import Core
@testable import Events
@testable import Scenario

/// A simulation browsing `tabs` with nothing chosen for it: `script` sees every tab event, on the event loop, and drives
/// the tabs through its browser until it calls `endBrowsing()`. A run longer than 30 s is ended from outside.
func runTabs(
    _ tabs: [SavedTab], content: ContentProvider, configure: (inout RunConfiguration) -> Void = { _ in },
    script: @escaping (Simulation, Tab, TabEvent) -> Void
) throws -> (simulation: Simulation, events: [Event]) {
    ProcessGateTrait.expectAlone("runTabs")
    var configuration = RunConfiguration(workerPath: workerPath)
    configuration.policy = .guarded
    configuration.policy.spareWorkers = 0
    configuration.loads = 0
    configuration.outsideKillsPath = outsideKills
    configure(&configuration)
    let log = EventLog()
    nonisolated(unsafe) var events: [Event] = []
    log.observers.append { events.append($0) }
    let simulation = try Simulation(configuration: configuration, content: content, log: log)
    simulation.browser.restore(
        SessionFile.decodeRecords(SessionFile.encode(Session(tabs: tabs))).records, into: SessionStore(readOnly: "/nonexistent/session"))
    simulation.browsing.scripted = true
    for tab in simulation.browser.tabs { tab.observe { [unowned simulation, unowned tab] event in script(simulation, tab, event) } }
    simulation.loop.schedule(afterNanoseconds: 30_000_000_000) { [unowned simulation] in simulation.endBrowsing() }
    _ = try simulation.run()
    return (simulation, events)
}

func savedTab(_ id: UInt64, _ urls: [String], index: Int? = nil, visible: Bool = false) -> SavedTab {
    SavedTab(
        id: id, history: BackForwardList(entries: urls.map { HistoryEntry(url: $0, title: "") }, index: index ?? urls.count - 1),
        visible: visible)
}

let local = ContentProvider.origin
