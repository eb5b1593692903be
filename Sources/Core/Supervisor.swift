import Glibc
import Events
import Process
import System
import Vocabulary

/// The supervisor, shaped like WebKit's UI process: it opens views, launches a worker behind each, relays their
/// messages to the load's client, watches them die, and recovers views as the policy says. Commands come in as
/// calls (open, show, hide, close, navigate, send, reload, beginStop and shutDownAll); what happens goes out as
/// `SupervisorEvent`s to the log and as calls to each load's `LoadClient`.
///
/// A new view's worker starts at the policy's launch band (background, for WebKit). The view attaches to the window
/// after a delay its opener decides: only then is the foreground assertion taken and, for `Observe.attach` policies,
/// the termination observer wired. A worker that dies before that dies unobserved, and its view goes on believing
/// in it. It runs on one thread, on the `Clock` it is given, and starts workers with the `Launcher` it is given: an
/// event loop and real processes in a run, a virtual clock and fake workers in tests.
///
/// Each concern lives in its own file, as an extension: views, workers, channel, recovery, watchdogs and spares.
package final class Supervisor {
    package let settings: SupervisorSettings
    var policy: Policy { settings.policy }
    package let clock: any Clock
    let launcher: any Launcher
    package let log: EventLog

    package private(set) var workers: [Int32: Worker] = [:]
    /// Open views by id. A worker only points weakly at its view, so this is what keeps a view alive.
    var views: [Int: View] = [:]
    /// Launched workers waiting for the next view.
    var spares: [Worker] = []
    /// Workers of closed views kept for later views of their site (`Supervisor+ProcessCache`).
    var cache = ProcessCache()
    /// Whether the system reports memory pressure now: nothing is cached under it.
    var underMemoryPressure = false
    /// The workers of each ranked band, most recent first (`Supervisor+Ranks`).
    var ranked: [PriorityBand: [Worker]] = [:]
    /// Why no spare waits, once the last left the pool: what the next view opened without one is told.
    var noSpareReason = NoSpareReason.notYetCreated
    var nextViewID = 1
    package private(set) var stopping = false
    /// Why the run was cut short by a failure of its own (a worker that cannot launch, a write that failed).
    package private(set) var failure: String?
    var launchFailuresInARow = 0
    var everSaidHello = false
    /// Views whose worker the kernel refused for want of a process, oldest first, and the retry timer.
    var waitingForProcess: [View] = []
    var processRetry: TimerID?
    var refusalsWithNoneAlive = 0
    /// Workers taken back (their pids) that have not yet been adopted, refused or died.
    var reclaiming = Set<Int32>()
    /// The ranks left to write once they are all settled: from which index on, by band.
    var deferredReranks: [PriorityBand: Int] = [:]

    /// How long after its creation a view enters the window (its opener's choice; at once by default).
    package var attachDelay: (View) -> Int = { _ in 0 }
    /// How long the scheme handler takes to answer the fetch of a view's page, in nanoseconds.
    package var fetchLatency: (View) -> Int = { _ in 0 }
    /// Whether more views are to come: spares are launched and kept only then.
    package var moreViewsComing: () -> Bool = { true }
    /// Called with every view whose page rendered while it was off screen.
    package var renderedOffScreen: (View) -> Void = { _ in }
    /// Called with every worker that died, whatever it served.
    package var workerDied: (Worker) -> Void = { _ in }
    /// Whether a killer outside the supervisor (Jetsam, chaos) named the worker with this pid as one it killed, and
    /// so takes that claim: asked at each death, and the only thing that makes a death by a signal the supervisor
    /// did not send a kill from outside. By default nobody claims anything.
    package var claimedKill: (Int32) -> Bool = { _ in false }
    /// Called with each worker taken back once it has said what it shows: the browser opens a view adopting it
    /// (`open(_:adopting:)`) or refuses it (`refuse`). With none, every such worker is refused.
    package var reclaimed: ((Worker, WorkerClaim) -> Void)?
    /// Called with each worker given to a view: launched for it, a spare, a cached worker or one taken back.
    package var workerServes: (Worker, View) -> Void = { _, _ in }
    /// Called once the last worker taken back has been adopted, refused or has died.
    package var reclaimsSettled: () -> Void = {}
    /// How its driver stops the run when the supervisor aborts it; by default, every worker is shut down.
    package var stopRun: (() -> Void)?

    package init(settings: SupervisorSettings, clock: any Clock, launcher: any Launcher, log: EventLog) {
        self.settings = settings
        self.clock = clock
        self.launcher = launcher
        self.log = log
        log.now = { [weak clock] in clock?.now ?? Sys.monotonicNanoseconds() }
    }

    /// Ends the run: no new view or worker, and no timer of a view fires. Returns false if the run was already
    /// stopping: a second stop kills every worker at once.
    package func beginStop() -> Bool {
        guard !stopping else {
            for worker in workers.values { worker.handle.signal(SIGKILL, by: .supervisor) }
            return false
        }
        stopping = true
        for view in views.values { view.timers.forEach(clock.cancel) }
        stopWaitingForProcesses()
        return true
    }

    /// Tells every worker but `kept` to shut down; each is killed if it has not exited after the grace period.
    package func shutDownAll(except kept: Worker? = nil) {
        for worker in workers.values where worker !== kept { shutDown(worker) }
    }

    /// The views open now.
    package var openViews: Dictionary<Int, View>.Values { views.values }

    /// Stops the run for a failure that makes going on pointless or dishonest; `failure` says why.
    package func abort(because reason: String) {
        guard failure == nil else { return }
        failure = reason
        log.emit(.abort(reason: reason))
        if let stopRun { stopRun() } else if beginStop() { shutDownAll() }
    }

    func register(_ worker: Worker) { workers[worker.pid] = worker }
    func forget(_ worker: Worker) { workers[worker.pid] = nil }
}
