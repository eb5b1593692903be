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

        @Test func closedViewsWorkersServeLaterViewsOfTheirSiteOnly() throws {
            let before = try openSupervisorDescriptors()
            var killedCached: Int32?
            var killedAt = 0
            var added = 0
            do {
                let (summary, events) = try simulate({
                    $0.loads = 60
                    $0.views = 3
                    $0.sites = 3
                    $0.dwellNanoseconds = 5_000_000
                    $0.policy = .guarded
                }, content: ContentProvider()) { event in
                    // The tenth worker cached is killed from outside while it waits.
                    guard event.name == "cache-add", let pid = event.pid else { return }
                    added += 1
                    if added == 10 {
                        (killedCached, killedAt) = (pid, event.monotonic)
                        killFromOutside(pid)
                    }
                }
                #expect(summary.rendered == 60)
                #expect(summary.cache.taken >= 15, "only \(summary.cache.taken) of 60 views took a cached worker")
                #expect(summary.reuses == summary.cache.taken)
                let crossSite = Self.sitesShownByEachWorker(events).filter { $0.value.count > 1 }
                #expect(crossSite.isEmpty, "workers that showed more than one site: \(crossSite)")
                #expect(Set(Self.sitesShownByEachWorker(events).values.flatMap { $0 }).count == 3)
                let killed = try #require(killedCached)
                // Its death is handled in the cache, or on its way to a view, which then gets another worker.
                let evicted = events.named("cache-evict").last { $0.pid == killed }
                #expect(evicted?.string("reason") == "process-exited", "\(events.filter { $0.pid == killed }.map(\.name))")
                // Never handed out after the kill.
                #expect(!events.named("cache-taken").contains { $0.pid == killed && $0.monotonic > killedAt })
            }
            #expect(try leakedDescriptors(since: before).isEmpty)
            #expect(childProcesses().isEmpty)
        }
    }
}
