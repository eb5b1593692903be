import Glibc
import Testing
import TestSupport
import WireProtocol

@testable import Core
@testable import Events
@testable import SupervisorTesting

/// What a view is after its process dies, as WebKit has it (`WebPageProxy::resetStateAfterProcessExited` and
/// `launchProcessForReload`), in virtual time: no title and no URL once the termination callback has returned, and
/// a reload that loads the back/forward list's current item, which a load that never committed does not have.
@Suite struct AfterDeath {
    static let page = "app://local/page0.html"

    /// Workers that say hello but never fetch a page they are sent: killed, they die before any commit; asked,
    /// they have no title. Workers launched after the first `workers` are healthy.
    static func stallBeforeCommit(_ rig: CoreRig, workers: Int = .max) {
        var stalled = 0
        rig.launcher.prepare = { worker in
            guard stalled < workers else { return }
            stalled += 1
            worker.script = { message, worker in
                switch message {
                case .load, .reload: break
                case .titleQuery(let id): worker.say(.title(id: id, title: ""))
                default: FakeWorker.healthy(message, worker)
                }
            }
        }
    }

    @Test func theCallbackStillReadsTheTitleWhichIsGoneOnceItReturns() throws {
        var policy = Policy.rebuild
        policy.detect = .callback
        policy.recover = nil
        let rig = CoreRig(policy)
        let (_, view, _) = rig.open()
        var seenByTheCallback: (title: String, url: String?)?
        rig.supervisor.log.observers.append { event in
            if event.name == "termination" { seenByTheCallback = (view.title, view.url) }
        }
        rig.run(untilMs: 10)
        #expect(view.title == "Page" && view.url == Self.page && view.attached)
        try #require(view.worker?.handle as? FakeWorker).crash(SIGKILL)
        rig.settle()
        #expect(seenByTheCallback?.title == "Page" && seenByTheCallback?.url == Self.page)
        #expect(view.title.isEmpty && view.url == nil && view.currentItem == Self.page)
    }

    /// Killed after its commit, in the window: the reload gives the view a new process, which loads the page the
    /// view had committed.
    @Test func aReloadAfterADeathLoadsTheCommittedPage() throws {
        let rig = CoreRig(.reload)
        let (load, view, client) = rig.open()
        rig.run(untilMs: 10)
        try #require(rig.launcher.launched.first).crash(SIGKILL)
        rig.run(untilMs: 1_000)
        #expect(rig.named("termination").count == 1 && rig.named("recovery").map { $0.string("kind") } == ["reload"])
        let second = try #require(rig.launcher.launched.dropFirst().first)
        #expect(rig.launcher.launched.count == 2 && second.received.first == .load(url: Self.page, replace: false))
        #expect(load.view === view && view.worker === rig.supervisor.workers[second.pid])
        #expect(client.sightings.map(\.first) == [true, false] && rig.named("no-item-to-reload").isEmpty)
    }

    /// Killed before its commit, in the window: the reload's new process has nothing to load, as WebKit logs "no
    /// current item to reload", and the view stays blank through every reload the policy allows.
    @Test func aReloadOfALoadThatNeverCommittedLoadsNothing() throws {
        let rig = CoreRig(.reload)
        Self.stallBeforeCommit(rig)
        let (load, view, client) = rig.open()
        rig.run(untilMs: 10)
        #expect(view.attached && rig.named("commit").isEmpty)
        try #require(rig.launcher.launched.first).crash(SIGKILL)
        rig.run(untilMs: 20_000)
        #expect(view.currentItem == nil && rig.named("no-item-to-reload").count == 1)
        let second = try #require(rig.launcher.launched.dropFirst().first)
        #expect(rig.launcher.launched.count == 2 && !second.received.contains { if case .load = $0 { true } else { false } })
        // The watchdog's reloads go to the new process, which has nothing to reload either; then the load is given
        // up.
        #expect(rig.named("recovery").map(\.atMs) == [10, 3_000, 6_000] && rig.named("give-up").first?.atMs == 9_000)
        #expect(client.sightings.isEmpty && load.visibleAt == nil && client.renders.isEmpty)
    }

    /// WebKit's own reload (no delegate) retries the request still pending when the death is delivered
    /// (`tryReloadAfterProcessTermination`): a death before the commit is recovered, where the app's `reload()`
    /// has nothing to load.
    @Test(arguments: [("webkit-default", true), ("reload", false)])
    func webKitsOwnReloadRetriesTheRequestThatNeverCommitted(policy: String, recovered: Bool) throws {
        let rig = CoreRig(Policy.named(policy)!)
        Self.stallBeforeCommit(rig, workers: 1)
        let (_, view, client) = rig.open()
        rig.run(untilMs: 10)
        #expect(view.attached && rig.named("commit").isEmpty)
        try #require(rig.launcher.launched.first).crash(SIGKILL)
        rig.run(untilMs: 1_000)
        #expect(rig.named("termination").count == 1 && rig.launcher.launched.count == 2)
        #expect(client.sightings.map(\.first) == (recovered ? [true] : []))
        #expect(rig.named("no-item-to-reload").count == (recovered ? 0 : 1))
    }
}
