import Foundation
import Testing

@testable import Browser
@testable import Core
@testable import Scenario
@testable import SupervisorTesting

extension Processes {
    /// Every opened view says how it got its worker: a cached worker of its site, a waiting spare, or why none
    /// waited (issue 32, items 1 and 4).
    @Suite struct SpareAccounting {
        /// Each policy's views, counted from the event log: every `view-open` has one `cache-taken`, `spare-taken` or
        /// `no-spare`, and a policy that keeps no spares says so for every view it gave no cached worker.
        static var guardedWithoutReuse: Policy {
            var policy = Policy.guarded
            policy.reuseWorkers = false
            return policy
        }

        @Test(arguments: [Policy.none, .guarded, guardedWithoutReuse])
        func everyOpenedViewIsAccountedFor(chosen: Policy) throws {
            let (summary, events) = try simulate({
                $0.loads = 30
                $0.views = 3
                // Over several sites, some views find no cached worker of theirs and take a spare.
                $0.sites = 5
                $0.policy = chosen
            }, content: ContentProvider())
            #expect(summary.rendered == 30)
            let opened = events.named("view-open").compactMap(\.view)
            let told = events.filter { ["cache-taken", "spare-taken", "no-spare"].contains($0.name) }.compactMap(\.view)
            #expect(opened.count >= 30 && told.sorted() == opened.sorted(), "\(opened) \(told)")
            let reasons = Set(events.named("no-spare").compactMap { $0.string("reason") })
            if chosen.spareWorkers == 0 {
                #expect(reasons == ["not-enabled"] && events.named("spare-taken").isEmpty)
            } else {
                #expect(!reasons.contains("not-enabled") && !events.named("spare-taken").isEmpty, "\(reasons)")
            }
            #expect(summary.cache.taken + summary.sparesTaken + summary.noSpare.values.reduce(0, +) == summary.viewsOpened)
            // A policy that reuses looks in the cache for every view first: each finds one of its site or misses.
            #expect(summary.cache.taken + summary.cache.misses == (chosen.reuseWorkers ? summary.viewsOpened : 0))
        }

        /// In `compare`'s JSON, every policy's cached workers and spares taken and reasons for none sum to its views
        /// opened: a load's first view and each rebuild's.
        @Test func compareAccountsForEveryViewOfEveryPolicy() throws {
            let result = try runSupervisorBounded(
                ["compare", "--loads", "60", "--inject-race", "1/10", "--blank-timeout", "300", "--json"], seconds: 60)
            try #require(result.status == 0, "\(result.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let runs = try #require(json?["runs"] as? [[String: Any]])
            #expect(runs.count == 6)
            for run in runs {
                let spares = try #require(run["spares"] as? [String: Any])
                let none = try #require(spares["none"] as? [String: Int])
                let opened = try #require(run["viewsOpened"] as? Int)
                let taken = try #require(spares["taken"] as? Int)
                let cached = try #require((run["cache"] as? [String: Any])?["taken"] as? Int)
                #expect(opened >= 60 && cached + taken + none.values.reduce(0, +) == opened, "\(run["policy"] ?? ""): \(spares)")
            }
        }

        /// The spare launched after the first view rendered is killed while it waits: the next view is told it
        /// exited, and the one after takes its replacement.
        @Test func aSpareKilledWhileItWaitsIsCountedAsExited() throws {
            var killed: Int32?
            let (summary, events) = try simulate({
                $0.loads = 4
                $0.dwellNanoseconds = 100_000_000
                $0.policy = Self.guardedWithoutReuse
            }, content: ContentProvider()) { event in
                guard event.name == "spare", killed == nil, let pid = event.pid else { return }
                killed = pid
                killFromOutside(pid)
            }
            #expect(summary.rendered == 4)
            let views = events.named("view-open").compactMap(\.view)
            try #require(views.count == 4)
            let second = events.first { ["spare-taken", "no-spare"].contains($0.name) && $0.view == views[1] }
            #expect(second?.name == "no-spare" && second?.string("reason") == "process-exited", "\(events.map(\.name))")
            let third = events.first { ["spare-taken", "no-spare"].contains($0.name) && $0.view == views[2] }
            #expect(third?.name == "spare-taken" && third?.pid != killed)
            #expect(summary.noSpare[.processExited] == 1)
        }
    }
}
