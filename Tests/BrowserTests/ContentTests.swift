import Glibc
import Testing
@testable import Core
@testable import Scenario

@testable import LogAnalysis
@testable import SupervisorTesting

extension Processes {
    /// The app:// scheme handler, and delivery of what it serves over the channel.
    @Suite struct Content {
        @Test func aPageLargerThanThePipeBufferReachesTheWorkerWhole() throws {
            let filler = String(repeating: "<p>lorem ipsum dolor sit amet</p>\n", count: 12_000)
            let folder = try TemporaryFolder(["big.html": "<title>Big</title>" + filler + "<!-- end -->"])
            let (summary, events) = try simulate({ $0.loads = 3 }, content: try folder.provider)
            #expect(events.named("fetch").allSatisfy { $0.int("bytes")! > 400_000 })
            #expect(events.named("render").map { $0.string("title") } == ["Big", "Big", "Big"])
            #expect(summary.rendered == 3)
        }

        @Test func theSchemeHandlerServesOnlyWhatIsUnderItsRoot() throws {
            let folder = try TemporaryFolder(["a.html": "<title>A</title>"])
            let content = try folder.provider
            #expect(content.pages == ["app://local/a.html"])
            #expect(content.fetch("app://local/a.html?x=1").status == 200)
            #expect(content.fetch("app://local/../../etc/passwd").status == 403)
            #expect(content.fetch("app://local/missing.html").status == 404)
            #expect(content.fetch("https://example.com/").status == 400)
        }

        @Test func aMissingPageIsAProvisionalFailureAndAFailedLoad() throws {
            let folder = try TemporaryFolder(["a.html": "<title>A</title>"])
            let content = try folder.provider
            try #require(unlink(folder.path + "/a.html") == 0)
            let (summary, events) = try simulate({ $0.loads = 1 }, content: content)
            #expect(events.named("fail").map { $0.string("kind") } == ["provisional"])
            #expect(summary.failed == 1 && summary.blank == 0 && summary.rendered == 0)
            #expect(events.named("load-end").first?.string("error")?.hasPrefix("status 404 fetching app://local/a.html") == true)
        }
    }
}
