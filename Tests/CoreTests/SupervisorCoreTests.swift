import CShim
import Glibc
import Testing
import TestSupport
import Vocabulary
import WireProtocol

@testable import Core
@testable import Events
@testable import Process
@testable import System
@testable import SupervisorTesting

/// A load's client for the core's tests: it loads one URL, serves every fetch with a small page, and records what
/// the supervisor tells it.
final class RecordingClient: LoadClient {
    weak var supervisor: Supervisor?
    let url: String
    private(set) var renders: [(view: Int, title: String)] = []
    private(set) var failures: [(view: Int, provisional: Bool, error: String)] = []
    private(set) var sightings: [(view: Int, first: Bool)] = []
    private(set) var endings: [(view: Int, error: String?)] = []
    /// Run each time a view of the load is on screen with content, after it is recorded.
    var onVisible: (View) -> Void = { _ in }

    init(_ supervisor: Supervisor, url: String) {
        self.supervisor = supervisor
        self.url = url
    }

    func start(_ worker: Worker, in view: View) -> LoadStart { .load(url) }

    func serve(_ url: String, _ kind: ResourceKind, for worker: Worker) -> SchemeResponse {
        SchemeResponse(status: 200, mime: "text/html", body: Array("<title>Page</title>Page".utf8))
    }

    func committed(_ url: String, by worker: Worker, in view: View) -> Bool { url == self.url }
    func site(of view: View) -> Site? { Site(url: url) }
    func rendered(_ view: View, by worker: Worker, title: String) { renders.append((view.id, title)) }
    func failed(_ view: View, by worker: Worker, provisional: Bool, error: String) {
        failures.append((view.id, provisional, error))
    }
    func visible(_ view: View, first: Bool, at time: Int) {
        sightings.append((view.id, first))
        onVisible(view)
    }
    func ended(_ view: View, error: String?) { endings.append((view.id, error)) }
}

/// The real supervisor on a virtual clock with fake workers: every event it emits is kept, and time moves only
/// when a test says so.
final class CoreRig {
    static let ms = 1_000_000
    let clock = VirtualClock()
    let launcher: FakeLauncher
    let supervisor: Supervisor
    private(set) var events: [Event] = []

    init(_ policy: Policy, attachAfterMs: Int = 0, _ configure: (inout SupervisorSettings) -> Void = { _ in }) {
        var settings = SupervisorSettings()
        settings.policy = policy
        configure(&settings)
        launcher = FakeLauncher(clock: clock)
        let log = EventLog()
        supervisor = Supervisor(settings: settings, clock: clock, launcher: launcher, log: log)
        supervisor.attachDelay = { _ in attachAfterMs * Self.ms }
        log.observers.append { [unowned self] event in events.append(event) }
    }

    /// Opens a view for a new load, shown to the user first unless `visible` is false, as the workload does.
    @discardableResult
    func open(index: Int = 0, visible: Bool = true, host: String = "local") -> (load: Load, view: View, client: RecordingClient) {
        let client = RecordingClient(supervisor, url: "app://\(host)/page\(index).html")
        let load = Load(index: index, client: client, startedAt: clock.now)
        if visible { supervisor.shown(load) }
        return (load, supervisor.open(load), client)
    }

    /// Moves the clock to `ms` milliseconds after the start, firing every timer on the way.
    func run(untilMs ms: Int) { clock.advance(by: ms * Self.ms - clock.now) }
    /// Runs the work pending now (messages, exits), without moving the clock.
    func settle() { clock.advance(by: 0) }

    func named(_ name: String) -> [Event] { events.named(name) }
}

extension Event {
    /// When it happened, in milliseconds of the virtual clock.
    var atMs: Int { monotonic / CoreRig.ms }
}

extension FakeWorker {
    /// Like a healthy worker, but its page has an empty title: a blank view, whatever the process is doing.
    static func blank(_ message: ToWorker, _ worker: FakeWorker) {
        switch message {
        case .fetchReply: worker.say(.didCommit(url: worker.page), .didFinish(title: ""))
        case .titleQuery(let id): worker.say(.title(id: id, title: ""))
        default: healthy(message, worker)
        }
    }
}

/// The supervisor itself, driven through its launcher and clock: loads, watchdogs, deaths, recovery and spares,
/// each checked on its events and on what the fake workers were sent, in virtual time.
@Suite struct SupervisorCore {
    @Test func aHealthyLoadRendersAndIsVisibleOnceAttached() throws {
        let rig = CoreRig(.rebuild, attachAfterMs: 20)
        let (load, view, client) = rig.open()
        rig.run(untilMs: 10)
        let worker = try #require(rig.launcher.launched.first)
        // Rendered, but not in the window yet: not visible, and still in the launch band.
        #expect(client.renders.map(\.title) == ["Page"] && client.sightings.isEmpty && !view.attached)
        #expect(worker.bands == [.background])
        #expect(worker.received.first == .load(url: "app://local/page0.html", replace: false))

        rig.run(untilMs: 5_000)
        let steps = ["view-open", "spawn", "hello", "load", "fetch", "commit", "render", "attach", "visible"]
        #expect(rig.events.map(\.name).filter(steps.contains) == steps)
        #expect(rig.named("render").first?.atMs == 0 && rig.named("render").first?.string("title") == "Page")
        #expect(rig.named("attach").first?.atMs == 20 && rig.named("visible").first?.atMs == 20)
        #expect(load.visibleAt == 20 * CoreRig.ms && client.sightings.map(\.first) == [true])
        #expect(rig.named("fetch").first?.int("status") == 200)
        #expect(rig.launcher.launched.count == 1 && view.worker?.pid == worker.pid)
        #expect(rig.named("kill").isEmpty && rig.named("death").isEmpty && rig.named("watchdog").isEmpty)
        #expect(worker.bands.last == .foreground)
        #expect(client.failures.isEmpty && client.endings.isEmpty)
    }

    /// Once its load is visible, nothing is due: the blank watchdog's title check is cancelled, the worker is not
    /// pinged, and an idle supervisor sleeps (the scale bench found 1,024 title checks firing for nothing).
    @Test func aVisibleViewLeavesNoTimerPending() throws {
        let rig = CoreRig(.rebuild, attachAfterMs: 20)
        #expect(rig.supervisor.settings.policy.detect.byWatchdog)
        let (load, _, _) = rig.open()
        rig.run(untilMs: 100)
        #expect(load.visibleAt != nil)
        #expect(rig.clock.pending == 0)
    }

    /// A page that renders off screen is reported to the driver (which may inject a kill after render there); one
    /// rendered on screen is not, and the hidden one becomes visible only once shown.
    @Test func aRenderOffScreenIsReportedAndVisibleOnlyOnceShown() throws {
        let rig = CoreRig(.rebuild, attachAfterMs: 5)
        var offScreen: [Int] = []
        rig.supervisor.renderedOffScreen = { offScreen.append($0.id) }
        let shown = rig.open(index: 0)
        let hidden = rig.open(index: 1, visible: false)
        rig.run(untilMs: 10)
        #expect(offScreen == [hidden.view.id])
        #expect(shown.client.sightings.count == 1 && hidden.client.sightings.isEmpty && hidden.load.visibleAt == nil)
        rig.supervisor.shown(hidden.load)
        rig.supervisor.show(hidden.view)
        #expect(hidden.client.sightings.map(\.first) == [true] && offScreen.count == 1)
    }

    /// Pings do not reset the responsiveness timer: a worker that owes its load and answers nothing is killed
    /// exactly when the hang timeout has passed since the load was sent.
    @Test func aHungWorkerIsKilledAsUnresponsiveWhenTheHangTimeoutPasses() throws {
        let rig = CoreRig(.rebuild)
        rig.launcher.prepare = { $0.script = FakeWorker.hung }
        rig.open()
        rig.run(untilMs: 2_999)
        let worker = try #require(rig.launcher.launched.first)
        #expect(rig.named("hello").map(\.atMs) == [0] && rig.named("load").map(\.atMs) == [0])
        #expect(worker.received.contains(.ping(seq: 2)))
        #expect(rig.named("kill").isEmpty && !worker.reaped)

        rig.run(untilMs: 3_001)
        let kill = try #require(rig.named("kill").first)
        #expect(kill.atMs == 3_000 && kill.pid == worker.pid)
        #expect(kill.string("verdict") == "unresponsive" && kill.string("reason") == "no answer within 3000 ms")
        let death = try #require(rig.named("death").first)
        #expect(death.pid == worker.pid && death.string("status") == "unresponsive" && death.atMs == 3_000)
    }

    /// A worker that never says hello is killed as a failed launch at the first liveness check; two such failures
    /// before any hello in the run stop it, naming the worker executable.
    @Test func aWorkerWithoutHelloIsAFailedLaunchAndTwoAbortTheRun() throws {
        let rig = CoreRig(.rebuild)
        rig.launcher.silent = true
        rig.open()
        rig.run(untilMs: 999)
        #expect(rig.named("kill").isEmpty && rig.launcher.launched.count == 1)

        rig.run(untilMs: 1_000)
        let first = try #require(rig.named("kill").first)
        #expect(first.atMs == 1_000 && first.string("verdict") == "launch-failed")
        #expect(first.string("reason") == "no hello within 1000 ms")
        #expect(rig.named("death").first?.string("status") == "launch-failed")
        // One failure is not enough: the view is rebuilt with a new worker.
        #expect(rig.supervisor.failure == nil && rig.launcher.launched.count == 2)

        rig.run(untilMs: 10_000)
        #expect(rig.named("kill").map(\.atMs) == [1_000, 2_000])
        let failure = try #require(rig.supervisor.failure)
        #expect(failure.contains("worker 'fake-worker' failed to launch 2 times in a row"))
        #expect(rig.named("abort").map(\.atMs) == [2_000] && rig.supervisor.stopping)
        #expect(rig.launcher.launched.count == 2 && rig.named("recovery").count == 1)
    }

    /// Workers that crash as soon as their view is on screen: the first restart is immediate, the next two wait
    /// 100 ms and 200 ms, and the fourth crash within 5 s is a crash loop that ends the load with an error.
    @Test func crashesBackOffThenLoop() throws {
        let rig = CoreRig(.rebuild, attachAfterMs: 10)
        let (load, _, client) = rig.open()
        client.onVisible = { view in (view.worker?.handle as? FakeWorker)?.crash() }
        rig.run(untilMs: 10_000)

        let deaths = rig.named("death")
        let spawns = rig.named("spawn")
        #expect(deaths.map { $0.string("status") } == Array(repeating: "crashed", count: 4))
        #expect(deaths.map { $0.int("signal") } == Array(repeating: Int(SIGSEGV), count: 4))
        #expect(deaths.map(\.atMs) == [10, 20, 130, 340])
        #expect(spawns.map(\.atMs) == [0, 10, 120, 330])
        try #require(deaths.count == 4 && spawns.count == 4)
        #expect((0..<3).map { spawns[$0 + 1].atMs - deaths[$0].atMs } == [0, 100, 200])
        #expect(rig.named("recovery").map { $0.int("attempt") } == [1, 2, 3])

        let loop = try #require(rig.named("crash-loop").first)
        #expect(rig.named("crash-loop").count == 1 && loop.atMs == 340)
        #expect(loop.int("crashes") == 4 && loop.int("windowMs") == 5_000)
        #expect(client.endings.count == 1 && client.endings.first?.view == load.view?.id)
        #expect(client.endings.first?.error == "crash-loop: 4 crashes within 5000 ms")
        #expect(rig.launcher.launched.count == 4 && rig.named("give-up").isEmpty)
    }

    /// A worker that finished its page and crashed at once: what it sent before it died is heard before its death,
    /// even when the death's event comes first, so the page counts as rendered.
    @Test func whatADeadWorkerSentBeforeItDiedIsHeardFirst() throws {
        let rig = CoreRig(.rebuild, attachAfterMs: 20)
        rig.launcher.prepare = { worker in
            worker.script = { message, worker in
                guard case .fetchReply = message else { return FakeWorker.healthy(message, worker) }
                worker.sayThenCrash(.didCommit(url: "app://local/page0.html"), .didFinish(title: "Page"))
            }
        }
        let (_, _, client) = rig.open()
        rig.run(untilMs: 10)
        let steps = rig.events.map(\.name).filter { ["commit", "render", "death"].contains($0) }
        #expect(steps.prefix(3) == ["commit", "render", "death"])
        #expect(rig.named("death").first?["rendered"] == .bool(true))
        #expect(client.renders.map(\.title).first == "Page")
    }

    /// WebKit's default reloads once after a crash. A kill more than 30 s after the reloaded page finished is
    /// reloaded again, the count forgotten; one 8.5 s after the next finish is given up on, and the view is left
    /// without a worker.
    @Test func webKitReloadsAgainOnlyThirtySecondsAfterAPageFinished() throws {
        let rig = CoreRig(.webkitDefault)
        let (load, view, client) = rig.open()
        func killCurrentWorker() throws {
            try #require(view.worker?.handle as? FakeWorker).crash(SIGKILL)
            rig.settle()
        }
        rig.run(untilMs: 1_000)
        try killCurrentWorker()
        #expect(rig.named("recovery").map(\.atMs) == [1_000])
        #expect(rig.named("recovery").first?.string("kind") == "reload")
        #expect(rig.launcher.launched.count == 2 && view.worker?.pid == rig.launcher.launched[1].pid)

        rig.run(untilMs: 31_500)
        try killCurrentWorker()
        #expect(rig.named("recovery").map(\.atMs) == [1_000, 31_500] && rig.named("recovery-suppressed").isEmpty)
        #expect(rig.launcher.launched.count == 3)

        rig.run(untilMs: 40_000)
        try killCurrentWorker()
        #expect(rig.named("recovery-suppressed").map(\.atMs) == [40_000])
        #expect(rig.named("recovery-suppressed").first?.string("kind") == "reload")
        rig.run(untilMs: 120_000)
        #expect(rig.named("recovery").count == 2 && rig.launcher.launched.count == 3 && view.worker == nil)
        #expect(rig.named("death").map { $0.string("status") } == ["killed", "killed", "killed"])
        // The same view, reloaded twice: visible each time, the first time first.
        #expect(client.sightings.map(\.view) == [view.id, view.id, view.id])
        #expect(client.sightings.map(\.first) == [true, false, false] && load.view === view)
    }

    /// Opens a visible view attaching after 50 ms and kills its rendered worker from outside at 10 ms.
    func raceBeforeAttach(_ policy: Policy) throws -> (rig: CoreRig, load: Load, view: View, client: RecordingClient) {
        let rig = CoreRig(policy, attachAfterMs: 50)
        let (load, view, client) = rig.open()
        rig.run(untilMs: 10)
        let worker = try #require(rig.launcher.launched.first)
        #expect(client.renders.count == 1 && !view.attached)
        worker.crash(SIGKILL)
        rig.run(untilMs: 10_000)
        return (rig, load, view, client)
    }

    /// The race under an attach-time observer: nobody hears of the death, and the view keeps its dead worker,
    /// whose foreground assertion at attach finds it gone. WebKit has reset the page all the same: with no title
    /// left, the blank watchdog finds it, and rebuild recovers it.
    @Test func aDeathBeforeAttachIsUnobservedButItsEmptyTitleIsFound() throws {
        let (rig, load, view, client) = try raceBeforeAttach(.rebuild)
        let death = try #require(rig.named("death").first)
        #expect(death.atMs == 10 && death.string("status") == "killed" && death["attached"] == .bool(false))
        #expect(rig.named("unobserved").map(\.atMs) == [10] && rig.named("unobserved").first?.view == view.id)
        #expect(rig.named("termination").isEmpty && rig.named("attach").first?.atMs == 50)
        #expect(view.title.isEmpty && view.url == nil && view.currentItem == "app://local/page0.html")
        let assertion = try #require(rig.named("priority").first { $0.atMs == 50 })
        #expect(assertion.string("band") == "foreground" && assertion.string("result") == "ESRCH")
        #expect(rig.named("watchdog").map(\.atMs) == [3_000] && rig.named("recovery").map { $0.string("reason") } == ["blank"])
        #expect(rig.launcher.launched.count == 2 && load.view !== view && client.sightings.map(\.first) == [true])
    }

    /// The same death under `guarded`, which observes from spawn: delivered at once, and the view rebuilt on the
    /// spare launched after the first render.
    @Test func guardedObservesTheSameDeathAndRebuildsTheView() throws {
        let (rig, load, view, client) = try raceBeforeAttach(.guarded)
        #expect(rig.named("unobserved").isEmpty)
        let termination = try #require(rig.named("termination").first)
        #expect(termination.atMs == 10 && termination.string("status") == "killed")
        #expect(rig.named("termination").count == 1)
        let recovery = try #require(rig.named("recovery").first)
        #expect(recovery.atMs == 10 && recovery.string("kind") == "rebuild" && recovery.view == view.id)
        let rebuilt = try #require(load.view)
        #expect(view.closed && rebuilt !== view && rebuilt.attached)
        #expect(rig.named("spare-taken").first?.view == rebuilt.id)
        #expect(rebuilt.worker?.pid == rig.launcher.launched[1].pid)
        #expect(client.sightings.map(\.view) == [rebuilt.id] && load.visibleAt == 60 * CoreRig.ms)
    }

    /// `guarded` keeps a spare, launched after the first render, for the next view of any site; a closed view's
    /// worker goes to the process cache instead, for its own site; a spare that died while it waited is skipped.
    @Test func sparesAreLaunchedTakenBySiteLessViewsAndSkippedWhenDead() throws {
        let rig = CoreRig(.guarded)
        let first = rig.open(index: 0)
        rig.run(untilMs: 100)
        try #require(rig.launcher.launched.count == 2)
        let (used, spare) = (rig.launcher.launched[0], rig.launcher.launched[1])
        let launchedSpare = try #require(rig.named("spare").first)
        #expect(launchedSpare.pid == spare.pid && launchedSpare["reused"] == nil)
        let names = rig.events.map(\.name)
        #expect(try #require(names.firstIndex(of: "render")) < #require(names.firstIndex(of: "spare")))
        #expect(spare.bands == [.spare] && spare.received.isEmpty)

        // The closed view's worker is cached, not made a spare; a view of another site takes the spare.
        rig.supervisor.close(first.view)
        rig.settle()
        #expect(rig.named("cache-add").last?.pid == used.pid && rig.supervisor.spares.map(\.pid) == [spare.pid])
        let second = rig.open(index: 1, host: "site2.test")
        #expect(rig.named("cache-miss").last?.view == second.view.id)
        #expect(rig.named("spare-taken").last?.pid == spare.pid && second.view.worker?.pid == spare.pid)
        rig.run(untilMs: 200)
        #expect(second.client.sightings.map(\.first) == [true] && rig.launcher.launched.count == 3)

        // The new spare is killed before its death is handled: the next view of a third site skips it.
        let replacement = rig.launcher.launched[2]
        replacement.crash(SIGKILL)
        let third = rig.open(index: 2, host: "site3.test")
        #expect(rig.named("no-spare").last?.string("reason") == "process-exited")
        #expect(third.view.worker?.pid == rig.launcher.launched[3].pid && rig.launcher.launched.count == 4)
        rig.run(untilMs: 300)
        #expect(third.client.sightings.map(\.first) == [true])
    }

    /// A page that renders with an empty title is probed by the blank watchdog after its period, and the view
    /// is rebuilt with a worker that shows content.
    @Test func theBlankWatchdogProbesTheTitleAndRecoversTheView() throws {
        let rig = CoreRig(.rebuild)
        var launches = 0
        rig.launcher.prepare = { worker in
            launches += 1
            if launches == 1 { worker.script = FakeWorker.blank }
        }
        let (load, view, client) = rig.open()
        rig.run(untilMs: 2_999)
        let blank = try #require(rig.launcher.launched.first)
        #expect(rig.named("render").first?.string("title") == "" && view.attached && client.sightings.isEmpty)
        #expect(!blank.received.contains(.titleQuery(id: UInt32(view.id))) && rig.named("watchdog").isEmpty)

        rig.run(untilMs: 3_500)
        #expect(blank.received.contains(.titleQuery(id: UInt32(view.id))))
        let watchdog = try #require(rig.named("watchdog").first)
        #expect(watchdog.atMs == 3_000 && watchdog.view == view.id && watchdog.pid == blank.pid)
        let recovery = try #require(rig.named("recovery").first)
        #expect(recovery.atMs == 3_000 && recovery.string("reason") == "blank" && recovery.string("kind") == "rebuild")
        let names = rig.events.map(\.name)
        #expect(try #require(names.firstIndex(of: "watchdog")) < #require(names.firstIndex(of: "recovery")))
        #expect(view.closed && blank.received.last == .shutdown)
        let rebuilt = try #require(load.view)
        #expect(rebuilt !== view && rig.launcher.launched.count == 2)
        #expect(rebuilt.worker?.pid == rig.launcher.launched[1].pid)
        #expect(client.sightings.map(\.view) == [rebuilt.id] && load.visibleAt == 3_000 * CoreRig.ms)
        #expect(rig.named("watchdog").count == 1)
    }
}
