import Testing

@testable import Core
@testable import Events
@testable import Scenario
@testable import SupervisorTesting

extension Processes {
    /// A page that hangs for a while and then goes on (`hang=400ms`), on a real worker, at a tenth of the device's
    /// times: found unresponsive after the 200 ms hang timeout (pinged every 50 ms), then treated as the policy
    /// chooses. `unresponsive=kill` kills it; `wait:500` lets it answer, and it renders; `reload` kills it and its
    /// view renders on a new worker, whose page hangs again; `ignore` (WebKit's way) never kills it.
    @Suite struct HangChoice {
        static func hangs(_ choice: Policy.Unresponsive, loads: Int = 1) throws -> (RunSummary, [Event]) {
            let content = try TemporaryFolder(["page.html": page("Page", fault: "hang=400ms; when=committed")])
            return try simulate({
                $0.policy = .none
                $0.policy.unresponsive = choice
                $0.policy.maxRecoveries = 1
                $0.loads = loads
                $0.pingIntervalNanoseconds = 50_000_000
                $0.hangTimeoutNanoseconds = 200_000_000
            }, content: try content.provider)
        }

        @Test func killKillsTheHungWorker() throws {
            let (summary, events) = try Self.hangs(.kill)
            #expect(events.named("unresponsive").count == 1 && events.named("responsive").isEmpty)
            #expect(events.named("death").first?.string("status") == "unresponsive")
            #expect(summary.rendered == 0 && summary.hangs == (found: 1, recovered: 0))
        }

        @Test func waitLetsItAnswerAndRender() throws {
            let (summary, events) = try Self.hangs(.wait(nanoseconds: 500_000_000))
            let found = try #require(events.named("unresponsive").first)
            let answered = try #require(events.named("responsive").first)
            guard case .responsive(let afterMs) = answered.kind else {
                Issue.record("\(answered.kind)")
                return
            }
            #expect(answered.pid == found.pid && afterMs > 0)
            #expect(events.named("kill").isEmpty && summary.deathsByStatus[.unresponsive] == nil)
            #expect(summary.rendered == 1 && summary.hangs == (found: 1, recovered: 1))
            #expect(summary.text.contains("hangs: 1 worker found unresponsive, 1 of them answered later"))
        }

        /// Past the wait, a worker still silent is killed, its reason counting both waits.
        @Test func waitKillsOneStillSilentAfterIt() throws {
            let (summary, events) = try Self.hangs(.wait(nanoseconds: 100_000_000))
            #expect(events.named("kill").first?.string("reason") == "no answer within 300 ms")
            #expect(summary.rendered == 0 && summary.hangs == (found: 1, recovered: 0))
        }

        /// Left alone, as WebKit leaves a process that has pages, the worker answers in its own time and renders;
        /// webkit-default does this.
        @Test func ignoreLeavesItAloneAsWebKitDoes() throws {
            #expect(Policy.webkitDefault.unresponsive == .ignore)
            let (summary, events) = try Self.hangs(.ignore)
            #expect(events.named("unresponsive").count == 1 && events.named("responsive").count == 1)
            #expect(events.named("kill").isEmpty && summary.rendered == 1 && summary.hangs == (found: 1, recovered: 1))
        }

        @Test func reloadGivesTheViewANewWorker() throws {
            let (summary, events) = try Self.hangs(.reload)
            let recoveries = events.named("recovery")
            #expect(recoveries.first?.string("reason") == "unresponsive" && recoveries.first?.string("kind") == "reload")
            // The hung worker's death is the app's own doing: no termination reaches the view.
            #expect(events.named("termination").isEmpty)
            #expect(events.named("spawn").count == 2 && summary.hangs.found == 2)
        }
    }
}
