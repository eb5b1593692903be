import Testing

@testable import Browser
@testable import Core
@testable import Scenario
@testable import Text
@testable import SupervisorTesting

extension Processes {
    /// Messages nothing asked for are counted per page: a reused worker does not inherit its last page's count.
    @Suite struct FloodCount {
        /// Each page asks for five navigations nobody can take (no tab): five unasked-for messages a page, which
        /// would pass the flood limit on the fourth page a worker served if the count were never reset.
        @Test func reusedWorkersAreNotKilledAsFloodsForWhatEarlierPagesSent() throws {
            let links = (1...5).map { "<meta name=\"x-navigate\" content=\"url=app://local/\($0).html\">" }.joined()
            let content = ContentProvider(pages: [("links.html", "<title>Links</title>" + links)])
            let (summary, events) = try simulate({ $0.policy = .guarded; $0.loads = 12 }, content: content)
            #expect(summary.rendered == 12)
            #expect(summary.reuses >= 8, "only \(summary.reuses) reuses")
            #expect(events.named("protocol-violation").isEmpty)
        }
    }
}
