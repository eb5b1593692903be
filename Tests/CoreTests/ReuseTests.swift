import Glibc
import Testing
import Vocabulary

@testable import Browser
@testable import Core
@testable import Events
@testable import Scenario
@testable import SupervisorTesting

extension Processes {
    /// `guarded` keeps closed views' healthy workers in the process cache, for later views of the same site only
    /// (issue 32, item 1), on real workers.
    @Suite struct Reuse {
        /// Which pid showed which site, read from the event log alone: a `load` sent to a worker names the URL it
        /// shows. A worker reused across sites would show two.
        static func sitesShownByEachWorker(_ events: [Event]) -> [Int32: Set<String>] {
            var shown: [Int32: Set<String>] = [:]
            for event in events where event.name == "load" {
                guard let pid = event.pid, let url = event.string("url"), let site = Site(url: url) else { continue }
                shown[pid, default: []].insert(site.description)
            }
            return shown
        }

        /// 1,000 loads over 5 sites, one page in ten wedging its worker once rendered (so that it never answers the
        /// ping after its view closes): no worker shows two sites; no wedged worker is ever handed to a view; a cached
        /// worker killed from outside is evicted, never handed out; and the cache serves a share of the views.
        @Test func closedViewsWorkersServeLaterViewsOfTheirSiteOnly() throws {
            let before = try openSupervisorDescriptors()
            var killedCached: Int32?
            var killedAt = 0
            var added = 0
            let pages = (0..<9).map { ("page\($0).html", page("Page \($0)")) }
                + [("wedge.html", page("Wedge", fault: "hang; when=rendered"))]
            do {
                let (summary, events) = try simulate({
                    $0.loads = 1_000
                    $0.views = 4
                    $0.sites = 5
                    $0.dwellNanoseconds = 2_000_000
                    $0.hangTimeoutNanoseconds = 200_000_000
                    $0.policy = .guarded
                }, content: ContentProvider(pages: pages)) { event in
                    // The tenth worker cached is killed from outside while it waits.
                    guard event.name == "cache-add", let pid = event.pid else { return }
                    added += 1
                    if added == 10 {
                        (killedCached, killedAt) = (pid, event.monotonic)
                        killFromOutside(pid)
                    }
                }
                #expect(summary.rendered == 1_000)
                let shown = Self.sitesShownByEachWorker(events)
                let crossSite = shown.filter { $0.value.count > 1 }
                #expect(crossSite.isEmpty, "workers that showed more than one site: \(crossSite)")
                #expect(Set(shown.values.flatMap { $0 }).count == 5)
                #expect(summary.reuses == summary.cache.taken && summary.cache.taken >= 200, "\(summary.cache.json)")
                // Every wedged worker was found out by its ping, and none went to a view after its page.
                var wedgedAt: [Int32: Int] = [:]
                for load in events.named("load") where load.string("url")?.hasSuffix("/wedge.html") == true {
                    if let pid = load.pid { wedgedAt[pid] = load.monotonic }
                }
                let wedged = Set(wedgedAt.keys)
                #expect(wedged.count >= 50)
                let handedAfter = events.filter { event in
                    guard ["cache-taken", "cache-add"].contains(event.name), let pid = event.pid, let at = wedgedAt[pid]
                    else { return false }
                    return event.monotonic > at
                }
                #expect(handedAfter.isEmpty, "\(handedAfter.map(\.name))")
                // Each was found out by its unanswered ping, or, closed once no more loads were coming, shut down.
                let foundOut = Set(events.filter { $0.string("reason") == "not-responsive" }.compactMap(\.pid))
                let lastBegin = try #require(events.named("load-begin").last).monotonic
                let shutAtTheEnd = Set(events.named("death").filter { $0["shutdown"] == .bool(true) && $0.monotonic > lastBegin }
                    .compactMap(\.pid))
                let unaccounted = wedged.subtracting(foundOut).subtracting(shutAtTheEnd)
                #expect(unaccounted.isEmpty && foundOut.intersection(wedged).count >= 50,
                        "\(unaccounted.count) wedged workers neither found out nor shut down at the end")
                let killed = try #require(killedCached)
                // Its death is handled in the cache, or on its way to a view, which then gets another worker.
                let evicted = events.named("cache-evict").last { $0.pid == killed }
                #expect(evicted?.string("reason") == "process-exited", "\(events.filter { $0.pid == killed }.map(\.name))")
                // Never handed out after the kill.
                #expect(!events.named("cache-taken").contains { $0.pid == killed && $0.monotonic > killedAt })
            }
            let leaked = try leakedDescriptors(since: before)
            #expect(leaked.isEmpty, "\(leaked)")
            #expect(childProcesses().isEmpty)
        }
    }
}
