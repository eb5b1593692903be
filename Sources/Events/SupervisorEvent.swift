import Vocabulary
import WireProtocol

/// Everything a run can tell, one case per event. This enum is the event log's schema: each case is written as one
/// JSON Lines record whose `event` is the case's wire name (`SupervisorEvent.name`) and whose other keys are the
/// case's labels, beside the record's `time`, `mono`, `view` and `pid` (see `Event`). A label whose value is
/// optional is left out when nil, and the flags `reused` (spawn, spare), `shutdown` (death) and `editor` (visible)
/// are written only when true, as they always were; every other key is always written, and a reader that misses
/// one fails (`EventDecodingError`) instead of reading a default. Durations are milliseconds, rounded to the
/// microsecond.
///
/// `schemaVersion` goes up when a key is renamed or removed or changes meaning; adding an event or an optional
/// key leaves it.
public enum SupervisorEvent: Equatable, Sendable {
    public static let schemaVersion = 3

    // The run.
    /// `tabs` only for a run that browses a session.
    case runBegin(RunBegin)
    /// `simulatedMs`: the waits the run passed in simulated time (`Waits`), so that its stamps are read as its
    /// clock's and not the wall's; nil in a log written before runs said.
    case runEnd(interrupted: Bool, simulatedMs: Double?)
    case interrupt(signal: StopSignal)
    /// A failure of the run's own that stops it.
    case abort(reason: String)

    // Loads and views (the simulated user's side).
    /// A load of a page, when the run loads pages.
    case loadBegin(load: Int, url: String, hidden: Bool)
    /// A navigation of a session's tab, when the run browses one; written as `load-begin`.
    case navigationBegin(load: Int, tab: Int, action: NavigationAction)
    case loadEnd(LoadEnd)
    /// A load given up as blank at its deadline.
    case blank(load: Int)
    /// The view is on screen with content; `first` is false after a recovery.
    case visible(load: Int, timeToVisibleMs: Double, first: Bool, editor: Bool)
    case viewOpen(load: Int, visible: Bool)
    case viewClose
    /// The view entered the window: the foreground assertion is taken, the observer wired.
    case attach
    /// A hidden view came on screen.
    case show(load: Int)
    /// A view went off screen: the user switched tabs, or left it (a replayed death in the background).
    case hide(load: Int)

    // Workers.
    /// A worker given to a view: just launched, or `reused` from an earlier view.
    case spawn(load: Int, reused: Bool)
    /// A spare launched ahead of a view; `reused`: kept after its view closed, in a log written before the process
    /// cache (`cache-add` since).
    case spare(reused: Bool)
    /// A view was given a waiting spare; `ready`: it had said hello (nil in a log written before runs said).
    case spareTaken(ready: Bool?)
    /// A view opened with no spare waiting, and why.
    case noSpare(reason: NoSpareReason)
    /// A worker a holder kept alive across the death of the supervisor before (`run --keep-workers`) is taken
    /// back: it is asked to resynchronise, its answer stamped with `generation`, the holder's count of supervisors.
    case reclaim(generation: Int)
    /// A view took a worker taken back, showing `url` already: nothing is loaded again. With no view and `url`
    /// empty, a spare taken back into the pool.
    case adopt(url: String)
    /// A worker taken back is not adopted: what it said is not what the session saved. It is killed next.
    case adoptionRefused(reason: String)

    // The process cache (WebKit's WebProcessCache): workers of closed views kept for later views of their site.
    /// A closed view's worker is pinged before it is cached (`Checking if process is responsive before caching it`).
    case cacheCheck(site: String)
    /// It was not cached, and why; `site` nil when it had none.
    case notCached(site: String?, reason: NotCachedReason)
    /// It was cached: `size` workers are cached now, of at most `capacity`.
    case cacheAdd(site: String, size: Int, capacity: Int)
    /// A view of its site took it, once it answered a fresh ping; `size` are left.
    case cacheTaken(site: String, size: Int, capacity: Int)
    /// A view of `site` found no cached worker: none was (`evicted` nil), or the last left the cache for that reason.
    case cacheMiss(site: String, evicted: CacheEviction?)
    /// A cached worker left the cache, other than to a view, and is ended.
    case cacheEvict(site: String, reason: CacheEviction)
    /// The system reported memory pressure (`critical`), or its end.
    case memoryPressure(critical: Bool)
    /// The first message of a new worker.
    case hello(spawnToHelloMs: Double, sandbox: Sandbox)
    /// A priority band applied (`result` "ok") or refused ("ESRCH": the process is gone, with RunningBoard's error
    /// in `rbs` for a foreground raise; "EPERM" or "EACCES", with the call refused in `error`; "failed", with the
    /// error in `error`).
    case priority(
        band: PriorityBand, nice: Int, oomScoreAdj: Int, result: PriorityAnswer, error: String?, rbs: RunningBoardError?)
    /// A page sent to a worker; `attempt` counts the load's recoveries.
    case load(url: String, attempt: Int)
    case commit(url: String)
    /// The page rendered; `workersRSSBytes` is the live workers' resident memory then.
    case render(title: String, workersRSSBytes: Int)
    /// A failed navigation.
    case fail(kind: FailureKind, error: String)
    case fetch(url: String, kind: ResourceKind, status: Int, bytes: Int)
    /// The worker's own back/forward list, as it reported it.
    case workerHistory(index: Int, urls: [String])
    case shutdown
    /// The supervisor killed a worker; `verdict` is the termination status it will be classified as.
    case kill(reason: String, verdict: TerminationKind, terminationReason: TerminationReason)
    case death(Death)
    /// A launch refused before any process existed: no pid. Written as a `death` whose status is `launch-failed`.
    case launchFailed(reason: String)
    /// That refusal was the kernel's limit on processes (EAGAIN: `ulimit -u`, or its task limit): the view that
    /// needed a worker waits for another to end, and the run goes on with fewer.
    case processRefused
    case protocolViolation(reason: String)
    /// A message not sent: `message` is its wire tag.
    case sendRefused(message: Int, reason: String)
    case sendFailed(error: String)

    // Deaths and recovery.
    /// The death was not delivered: the view was not yet observing its worker.
    case unobserved
    /// The death was delivered to the view.
    /// The termination callback; the app is told the reason folded (`TerminationReason.told`).
    case termination(status: TerminationKind, reason: TerminationReason)
    case recovery(kind: RecoveryKind, reason: RecoveryReason, attempt: Int)
    case recoverySuppressed(kind: RecoveryKind)
    /// A reload gave a view whose load never committed a new process, with no back/forward item to load in it.
    case noItemToReload
    case crashLoop(load: Int, crashes: Int, windowMs: Int)
    case giveUp(load: Int, recoveries: Int)
    /// The worker owed an answer for the whole hang timeout (WebKit: `processDidBecomeUnresponsive`); the policy's
    /// choice follows.
    case unresponsive(timeoutMs: Int)
    /// It answered, `afterMs` after it was found unresponsive (`processDidBecomeResponsive`).
    case responsive(afterMs: Double)
    /// A hidden view's worker is told to prepare to suspend (WebKit's `PrepareToSuspend`).
    case prepareToSuspend
    /// It was stopped (SIGSTOP), having answered, or after the supervisor's patience ran out.
    case suspended(answered: Bool)
    /// Its view was shown: it goes on (SIGCONT, `ProcessDidResume`) after `suspendedMs` stopped.
    case resumed(suspendedMs: Double)
    /// Its resident memory passed the policy's warning share of its memory limit.
    case memoryWarning(residentBytes: Int, limitBytes: Int)
    /// Its resident memory passed the limit: it is killed next, `warnedMsBefore` after its warning (nil: none came).
    case memoryLimit(residentBytes: Int, limitBytes: Int, warnedMsBefore: Double?)
    /// A launch found `live` workers at the policy's limit: the worker named is ended to make room; with none
    /// named, the view named waits for one to end, or, with no view either, a spare is not launched.
    case processCountLimit(live: Int, limit: Int)
    /// Its view hidden for a whole CPU window, it used more CPU than the policy's limit (percent of one CPU): it
    /// is killed next.
    case cpuLimit(usedPercent: Double, limitPercent: Int, windowMs: Int)
    /// The title watchdog found the view blank.
    case watchdog(title: String)
    /// A message sent to a view's worker whose death was not delivered.
    case deadChannelSend(message: ViewRequest)
    /// An injected fault carried out, or spared because its worker was protected from the killer.
    case inject(kind: FaultKind, oomScoreAdj: Int)
    case injectSpared(kind: FaultKind, oomScoreAdj: Int)

    // The browser.
    case tabRealized(tab: Int, reason: TabRealizeReason, entries: Int, index: Int)
    case navigationDecision(
        tab: Int, type: NavigationType, frame: NavigationFrame, url: String, decision: NavigationVerdict, reason: String)
    case errorPage(tab: Int, url: String, code: Int, kind: ErrorPageKind)
    case openExternally(tab: Int, url: String)
    /// An internal URL without this launch's key.
    case internalRefused(url: String, reason: InternalRefusal)
    case sessionCreated(tabs: Int)
    case sessionRestored(tabs: Int, journalRecords: Int?, digest: String?, damage: String?)
    case sessionSaved(SessionSaved)
    case journalOpened(records: Int, tornBytesDropped: Int, salvaged: String?)
    /// The journal's fdatasync returned: inputs 1…`records` are on the disk, `digest` (hex) is the FNV-1a 64 of the
    /// document they make, and `typed` inputs were known then (restored ones included).
    case journalSynced(records: Int, typed: Int, digest: String)
    /// The session counts more journal records than the journal holds.
    case journalBehind(saved: Int, found: Int)
    /// Another process cut the session file or the journal short, or wrote to it, during the run: it held
    /// `foundBytes`, not the `writtenBytes` the run wrote, and was written again whole from what the run holds.
    case fileRewritten(file: BrowsingFile, foundBytes: Int, writtenBytes: Int)
    case editorOpen(restored: Int)
    /// The editor's audit at the end of the run.
    case editor(EditorAudit)
}

extension SupervisorEvent {
    public struct RunBegin: Equatable, Sendable {
        public var schemaVersion = SupervisorEvent.schemaVersion
        public var policy: String
        /// The policy's app implements the termination callback; without one, WebKit recovers by itself.
        public var delegate: Bool
        public var loads: Int
        public var views: Int
        public var hidden: Int
        public var seed: Int
        public var raceRate: Double
        public var killRate: Double
        public var tabs: Int?

        public init(
            policy: String, delegate: Bool, loads: Int, views: Int, hidden: Int, seed: Int, raceRate: Double,
            killRate: Double, tabs: Int?
        ) {
            (self.policy, self.delegate, self.loads, self.views, self.hidden) = (policy, delegate, loads, views, hidden)
            (self.seed, self.raceRate, self.killRate, self.tabs) = (seed, raceRate, killRate, tabs)
        }
    }

    /// How a load ended. A load that rendered has `timeToVisibleMs`; `blankMs` is how long its user looked at a
    /// blank view, from when it was shown.
    public struct LoadEnd: Equatable, Sendable {
        public var load: Int
        /// Only for a tab's navigation.
        public var tab: Int?
        public var outcome: LoadOutcome
        public var recoveries: Int
        public var hidden: Bool
        public var error: String?
        public var blankMs: Double?
        public var timeToVisibleMs: Double?

        public init(
            load: Int, tab: Int? = nil, outcome: LoadOutcome, recoveries: Int, hidden: Bool, error: String? = nil,
            blankMs: Double? = nil, timeToVisibleMs: Double? = nil
        ) {
            (self.load, self.tab, self.outcome, self.recoveries, self.hidden) = (load, tab, outcome, recoveries, hidden)
            (self.error, self.blankMs, self.timeToVisibleMs) = (error, blankMs, timeToVisibleMs)
        }
    }

    /// How a worker ended: the raw exit (a code, or the signal that ended it), its classification (`status`,
    /// with the reason for a failed launch or a protocol violation), and what it was doing then.
    public struct Death: Equatable, Sendable {
        public var status: TerminationKind
        /// Why it ended, in WebKit's terms (`TerminationReason`).
        public var terminationReason: TerminationReason
        public var exit: ProcessExit
        public var reason: String?
        public var rendered: Bool
        /// Whether its view had attached: a death before attach is the race.
        public var attached: Bool
        public var spare: Bool
        /// Its priority band; nil (written `none`) if none was ever applied.
        public var band: PriorityBand?
        public var lifetimeMs: Double
        /// Who ended it: `worker` (its own exit or crash signal), `supervisor`, `injected`, `outside` (a signal a
        /// killer outside claimed: Jetsam, chaos) or `unknown` (a signal nobody claimed).
        public var cause: DeathCause
        /// It had been told to exit.
        public var shutdown: Bool

        public init(
            status: TerminationKind, terminationReason: TerminationReason, exit: ProcessExit, reason: String?,
            rendered: Bool, attached: Bool, spare: Bool, band: PriorityBand?, lifetimeMs: Double, cause: DeathCause,
            shutdown: Bool
        ) {
            (self.status, self.exit, self.reason, self.rendered, self.attached) = (status, exit, reason, rendered, attached)
            self.terminationReason = terminationReason
            (self.spare, self.band, self.lifetimeMs, self.cause, self.shutdown) = (spare, band, lifetimeMs, cause, shutdown)
        }
    }

    public struct SessionSaved: Equatable, Sendable {
        public var tabs: Int
        /// Written whole, rather than appended to.
        public var whole: Bool
        public var bytes: Int
        public var digest: String
        public var journalRecords: Int?
        /// Time on the event loop (encoding), and time writing (off it).
        public var loopMs: Double
        public var writeMs: Double

        public init(tabs: Int, whole: Bool, bytes: Int, digest: String, journalRecords: Int?, loopMs: Double, writeMs: Double) {
            (self.tabs, self.whole, self.bytes, self.digest) = (tabs, whole, bytes, digest)
            (self.journalRecords, self.loopMs, self.writeMs) = (journalRecords, loopMs, writeMs)
        }
    }
}

/// The editor's audit as its `editor` event tells it at the end of a run: every count is required.
public struct EditorAudit: Equatable, Sendable {
    public var typed: Int
    public var restored: Int
    public var acknowledged: Int
    /// Nil when the run kept no journal (written as null).
    public var saved: Int?
    public var replayed: Int
    public var lostInputs: Int
    public var duplicateInputs: Int
    public var mismatches: Int
    public var intact: Bool
    /// Where the final document was read from.
    public var documentFrom: DocumentSource
    public var tornBytesDropped: Int
    /// Typing ticks that waited for the worker.
    public var deferred: Int

    public init(
        typed: Int, restored: Int, acknowledged: Int, saved: Int?, replayed: Int, lostInputs: Int, duplicateInputs: Int,
        mismatches: Int, intact: Bool, documentFrom: DocumentSource, tornBytesDropped: Int, deferred: Int
    ) {
        (self.typed, self.restored, self.acknowledged, self.saved, self.replayed) = (typed, restored, acknowledged, saved, replayed)
        (self.lostInputs, self.duplicateInputs, self.mismatches, self.intact) = (lostInputs, duplicateInputs, mismatches, intact)
        (self.documentFrom, self.tornBytesDropped, self.deferred) = (documentFrom, tornBytesDropped, deferred)
    }
}
