import Testing
import WireProtocol

@testable import Browser
@testable import SupervisorTesting

extension Processes {
    /// A tab restored with no history entries has nothing to load, and navigates like any other.
    @Suite struct EmptyTab {
        @Test func aRestoredTabWithNoEntriesNavigates() throws {
            let content = ContentProvider(pages: [("a.html", page("A"))])
            nonisolated(unsafe) var titles: [String] = []
            let (simulation, events) = try runTabs([savedTab(1, [], visible: true)], content: content) { simulation, tab, event in
                switch event {
                case .realized:
                    simulation.browser.navigate(tab, to: local + "a.html", type: .linkActivated)
                    simulation.loop.schedule(afterNanoseconds: 10_000_000_000) { simulation.endBrowsing() }
                case .finished(let title):
                    titles.append(title)
                    simulation.loop.soon { simulation.endBrowsing() }
                default: break
                }
            }
            #expect(titles == ["A"])
            #expect(simulation.browser.tabs[0].history.entries.map(\.url) == [local + "a.html"] && simulation.browser.tabs[0].history.index == 0)
            #expect(events.named("tab-realized").first?.int("entries") == 0)
        }
    }
}
