import Testing
import WireProtocol

@testable import Browser
@testable import SupervisorTesting

extension Processes {
    /// A page cannot keep a tab navigating on its own: after Chromium's redirect limit of navigations without a
    /// user action, the tab ends on an error page.
    @Suite struct NavigationLoop {
        @Test func aSelfLinkingPageEndsOnAnErrorPage() throws {
            let looping = "<title>Loop</title><meta name=\"x-navigate\" content=\"type=link; url=\(local)loop.html\">"
            let content = ContentProvider(pages: [("start.html", page("Start")), ("loop.html", looping)])
            nonisolated(unsafe) var commits = 0
            nonisolated(unsafe) var ended = false
            let (simulation, events) = try runTabs([savedTab(1, [local + "start.html"], visible: true)], content: content) {
                simulation, tab, event in
                switch event {
                case .finished("Start"):
                    simulation.browser.navigate(tab, to: local + "loop.html", type: .linkActivated)
                case .committed:
                    commits += 1
                    if commits > 200 { simulation.endBrowsing() }
                case .finished("Cannot open page"):
                    ended = true
                    simulation.loop.soon { simulation.endBrowsing() }
                default: break
                }
            }
            #expect(ended)
            // The restore, the user's navigation, the page's own ones up to the limit, and the error page.
            #expect(commits == 1 + 1 + Browser.maxPageNavigations + 1)
            let page = try #require(events.named("error-page").first)
            #expect(page.string("kind") == "too-many-navigations" && page.int("code") == Browser.tooManyNavigationsCode)
            #expect(simulation.browser.tabs[0].url.flatMap(simulation.browser.errorPageTarget) == local + "loop.html")
        }
    }
}
