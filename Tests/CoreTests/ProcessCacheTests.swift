import Glibc
import Testing
import TestSupport
import WireProtocol

@testable import Core
@testable import Events
@testable import SupervisorTesting

/// The process cache, in virtual time with fake workers (issue 32, item 1): a closed view's worker is pinged, cached
/// if it answers, one per site up to the capacity, handed only to a view of its site and only after a fresh ping,
/// and evicted when it expires, when memory pressure is reported, when the limit needs room, or when it dies.
@Suite struct ProcessCacheCore {
    /// A policy that reuses and keeps no spare, so that every view either takes a cached worker or launches.
    static func reusing(capacity: Int = 4, lifetimeMs: Int = 60_000) -> Policy {
        var policy = Policy.guarded
        policy.spareWorkers = 0
        policy.cacheCapacity = capacity
        policy.cacheLifetimeNanoseconds = lifetimeMs * CoreRig.ms
        return policy
    }

    /// Opens a view of `host`, lets it render, closes it, and lets its worker answer the cache's ping.
    @discardableResult
    static func renderAndClose(_ rig: CoreRig, index: Int, host: String = "local") -> FakeWorker? {
        let opened = rig.open(index: index, host: host)
        rig.run(untilMs: rig.clock.now / CoreRig.ms + 10)
        let worker = rig.launcher.launched.first { $0.pid == opened.view.worker?.pid }
        rig.supervisor.close(opened.view)
        rig.settle()
        return worker
    }

    @Test func aClosedViewsWorkerIsCachedAndTakenOnlyByItsSiteAfterAFreshPing() throws {
        let rig = CoreRig(Self.reusing())
        let first = rig.open(index: 0)
        rig.run(untilMs: 10)
        let used = try #require(rig.launcher.launched.first)
        rig.supervisor.close(first.view)
        // Checked before it is cached: its page unloaded and a ping sent, and nothing cached until it answers.
        #expect(rig.named("cache-check").map(\.pid) == [used.pid] && rig.named("cache-add").isEmpty)
        #expect(used.received.suffix(2) == [.unload, .ping(seq: 1)])
        rig.settle()
        let added = try #require(rig.named("cache-add").first)
        #expect(added.pid == used.pid && added.string("site") == "app://local" && added.int("size") == 1)
        #expect(added.int("capacity") == 4)

        // Another site never gets it.
        let other = rig.open(index: 1, host: "site2.test")
        let miss = try #require(rig.named("cache-miss").last)
        #expect(miss.view == other.view.id && miss.string("site") == "app://site2.test" && miss["evicted"] == nil)
        #expect(other.view.worker?.pid != used.pid && rig.launcher.launched.count == 2)

        // Its own site does, once it answers a fresh ping; until then the view has no worker.
        let same = rig.open(index: 2)
        #expect(same.view.worker == nil && used.received.last == .ping(seq: 2) && rig.named("cache-taken").isEmpty)
        rig.settle()
        let taken = try #require(rig.named("cache-taken").first)
        #expect(taken.pid == used.pid && taken.view == same.view.id && taken.int("size") == 0)
        #expect(same.view.worker?.pid == used.pid && rig.named("spawn").last?["reused"] == .bool(true))
        rig.run(untilMs: 100)
        #expect(same.client.sightings.map(\.first) == [true] && rig.launcher.launched.count == 2)
    }

    /// A page that hangs after its view closes never answers the check: its worker is not cached, and is killed.
    @Test func aWorkerThatHangsAfterCloseIsNeverCached() throws {
        let rig = CoreRig(Self.reusing())
        let first = rig.open(index: 0)
        rig.run(untilMs: 10)
        let used = try #require(rig.launcher.launched.first)
        used.script = FakeWorker.hung
        rig.supervisor.close(first.view)
        rig.run(untilMs: 3_100)
        #expect(rig.named("cache-add").isEmpty)
        #expect(rig.named("not-cached").map { $0.string("reason") } == ["not-responsive"])
        #expect(rig.named("death").first?.pid == used.pid && rig.named("death").first?.string("status") == "unresponsive")
        let next = rig.open(index: 1)
        #expect(rig.named("cache-miss").last?.view == next.view.id && next.view.worker?.pid != used.pid)
    }

    /// A cached worker that stops answering is evicted when a view's ping goes unanswered: the view is told why it
    /// found none, and gets a new worker that renders.
    @Test func aCachedWorkerThatHangsIsNeverHandedOut() throws {
        let rig = CoreRig(Self.reusing())
        let used = try #require(Self.renderAndClose(rig, index: 0))
        used.script = FakeWorker.hung
        let next = rig.open(index: 1)
        rig.settle()
        #expect(next.view.worker == nil && rig.named("cache-taken").isEmpty)
        rig.run(untilMs: rig.clock.now / CoreRig.ms + 3_100)
        #expect(rig.named("cache-evict").map { $0.string("reason") } == ["not-responsive"])
        let miss = try #require(rig.named("cache-miss").last)
        #expect(miss.view == next.view.id && miss.string("evicted") == "not-responsive")
        #expect(rig.named("cache-taken").isEmpty && next.view.worker?.pid != used.pid)
        #expect(next.client.sightings.map(\.first) == [true] && used.reaped)
    }

    /// Past its lifetime a cached worker exits idle; the next view of its site is told it expired.
    @Test func aCachedWorkerExpiresAndExitsIdle() throws {
        let rig = CoreRig(Self.reusing(lifetimeMs: 1_000))
        let used = try #require(Self.renderAndClose(rig, index: 0))
        rig.run(untilMs: 1_200)
        #expect(rig.named("cache-evict").map { $0.string("reason") } == ["expired"])
        let death = try #require(rig.named("death").first)
        #expect(death.pid == used.pid && death.string("terminationReason") == "idle-exit")
        rig.open(index: 1)
        #expect(rig.named("cache-miss").last?.string("evicted") == "expired")
    }

    /// One worker per site, up to the capacity: a newer one of a site replaces the older, and a full cache drops its
    /// oldest.
    @Test func oneWorkerPerSiteUpToTheCapacity() throws {
        let rig = CoreRig(Self.reusing(capacity: 2))
        let views = [rig.open(index: 0), rig.open(index: 1, host: "a.test"), rig.open(index: 2, host: "b.test"),
                     rig.open(index: 3, host: "a.test")]
        rig.run(untilMs: 10)
        let workers = views.map { $0.view.worker?.pid }
        for (index, view) in views.enumerated() {
            rig.supervisor.close(view.view)
            rig.settle()
            #expect(rig.named("cache-add").count == index + 1)
        }
        let evicted = rig.named("cache-evict").map { ($0.pid, $0.string("reason")) }
        // b.test found the cache full (local, a.test) and dropped local; the second a.test replaced the first.
        #expect(evicted.map(\.0) == [workers[0], workers[1]] && evicted.map(\.1) == ["capacity", "same-site"])
        #expect(rig.supervisor.cache.size == 2)
    }

    /// Under memory pressure the cache is cleared and nothing is cached; once it ends, caching resumes.
    @Test func memoryPressureClearsTheCacheAndRefusesIt() throws {
        let rig = CoreRig(Self.reusing())
        Self.renderAndClose(rig, index: 0)
        rig.supervisor.memoryPressure(critical: true)
        #expect(rig.named("memory-pressure").map { $0["critical"] } == [.bool(true)])
        #expect(rig.named("cache-evict").map { $0.string("reason") } == ["memory-pressure"])
        Self.renderAndClose(rig, index: 1, host: "a.test")
        #expect(rig.named("not-cached").map { $0.string("reason") } == ["memory-pressure"])
        rig.supervisor.memoryPressure(critical: false)
        Self.renderAndClose(rig, index: 2, host: "b.test")
        #expect(rig.named("cache-add").count == 2 && rig.supervisor.cache.size == 1)
        rig.open(index: 3)
        #expect(rig.named("cache-miss").last?.string("evicted") == "memory-pressure")
    }

    /// A cached worker that dies leaves the cache, and the next view of its site is told it exited.
    @Test func aCachedWorkerThatDiesIsEvicted() throws {
        let rig = CoreRig(Self.reusing())
        let used = try #require(Self.renderAndClose(rig, index: 0))
        used.crash(SIGKILL)
        rig.settle()
        #expect(rig.named("death").first?["spare"] == .bool(true))
        #expect(rig.named("cache-evict").map { $0.string("reason") } == ["process-exited"])
        rig.open(index: 1)
        #expect(rig.named("cache-miss").last?.string("evicted") == "process-exited")
    }

    /// A launch at the process-count limit ends a cached worker before any other.
    @Test func theCountLimitTakesACachedWorkerFirst() throws {
        var policy = Self.reusing()
        policy.maxWorkers = 2
        let rig = CoreRig(policy)
        let cached = try #require(Self.renderAndClose(rig, index: 0))
        let shown = rig.open(index: 1, host: "a.test")
        rig.open(index: 2, host: "b.test")
        rig.settle()
        #expect(rig.named("cache-evict").map { $0.string("reason") } == ["process-count-limit"])
        #expect(cached.reaped && rig.named("death").first?.string("terminationReason") == "idle-exit")
        #expect(shown.view.worker?.reaped == false && rig.launcher.launched.count == 3)
    }

    /// A cached worker on its way to a view is that view's: the limit never takes it, and a launch with nothing else
    /// to end waits instead.
    @Test func theCountLimitNeverTakesAWorkerOnItsWayToAView() throws {
        var policy = Self.reusing()
        policy.maxWorkers = 2
        let rig = CoreRig(policy)
        let cached = try #require(Self.renderAndClose(rig, index: 0))
        rig.open(index: 1, host: "a.test")
        let taking = rig.open(index: 2)
        let waiting = rig.open(index: 3, host: "b.test")
        #expect(rig.named("cache-evict").isEmpty && !cached.reaped)
        #expect(rig.named("process-count-limit").last?.view == waiting.view.id && waiting.view.worker == nil)
        rig.settle()
        #expect(taking.view.worker?.pid == cached.pid && rig.named("cache-taken").count == 1)
    }
}
