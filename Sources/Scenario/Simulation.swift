import Browser
import CShim
import Core
import Glibc
import Process
import System
import Vocabulary

/// One run of the simulated world: the workload's loads, or a user browsing the session's tabs, and the typist,
/// driving the browser and the supervisor on one event loop, with faults injected and Jetsam beside them.
public final class Simulation {
    let configuration: RunConfiguration
    var policy: Policy { configuration.policy }
    let log: EventLog
    /// The kernel's events: Jetsam, signals, session saves. Time and workers come from `clock` and the launcher.
    package let loop: EventLoop
    let clock: any RunClock
    package let supervisor: Supervisor
    package let browser: Browser
    let schedule: FaultSchedule
    var nextLoadIndex = 0
    var finishedLoads = 0
    var browsing = Browsing()
    var typingTimer: TimerID?
    /// The loads whose kill after render is planned: one each at most.
    var killsPlanned = Set<ObjectIdentifier>()
    /// When each replayed load's death is due, until it has come.
    var replayDeaths: [ObjectIdentifier: Int] = [:]
    /// The signalfd SIGINT and SIGTERM arrive on, or the eventfd they are relayed through, once the caller has asked
    /// for them.
    var signals: FileDescriptor?
    /// The kills Jetsam and the killers outside named: what makes a death a kill from outside.
    let claims = KillClaims()
    /// What the operator is warned of, once each, as the run meets it.
    let warnings = RunWarnings()
    /// Whose children the workers are: this process's, or the holder's (`RunConfiguration.keepWorkers`).
    var workersParent = getpid()
    /// The workers a holder kept for the session's last supervisor, to be taken back as the run begins, and the
    /// generation their resynchronisation is stamped with.
    var takenBack: (generation: UInt64, workers: [(process: WorkerProcess, label: String)])?

    /// A run of real workers on the event loop. Throws a `SystemError` when the loop or the launcher cannot be set
    /// up, a `FileError` when the journal cannot be used.
    public convenience init(configuration: RunConfiguration, content: ContentProvider, log: EventLog) throws {
        // A write to a worker that just died must fail with EPIPE, not kill the supervisor.
        Sys.ignoreSignal(SIGPIPE)
        let loop = try EventLoop()
        guard let keep = configuration.keepWorkers else {
            let launcher = try WorkerLauncher(
                executable: configuration.workerPath, loop: loop, sandboxed: configuration.sandbox)
            try self.init(configuration: configuration, content: content, log: log, loop: loop, clock: loop, launcher: launcher)
            return
        }
        // The session's last supervisor may have left a holder, still keeping its workers: they are taken back.
        let earlier = try keep.holderName.flatMap { name throws(SystemError) in try HolderLink.connect(name: name) }
        let holder = try earlier
            ?? HolderLink(
                holder: keep.holderPath, leaseMilliseconds: keep.leaseNanoseconds / 1_000_000, name: keep.holderName)
        let launcher = HeldLauncher(
            executable: configuration.workerPath, holder: holder, loop: loop, sandboxed: configuration.sandbox)
        try self.init(configuration: configuration, content: content, log: log, loop: loop, clock: loop, launcher: launcher)
        workersParent = holder.pid
        // Each tab's worker is labelled with the tab in the holder, and the editor's as the editor's: the next
        // supervisor takes those of the shown tab and the editor first.
        supervisor.workerServes = { [weak browser] worker, view in
            if view.load.client.isEditor { return launcher.label(worker.pid, Self.editorLabel) }
            guard let tab = browser?.tab(showing: view.load) else { return }
            launcher.label(worker.pid, Self.label(of: tab))
        }
        if earlier != nil {
            let (generation, held) = try holder.list()
            let workers = try held.map { held throws(SystemError) in (try launcher.takeBack(held), held.label) }
            takenBack = (UInt64(generation), workers)
        }
    }

    /// A run on the clock and launcher given: the event loop and real workers, or, for the policies' tests, a
    /// virtual clock and workers that are no processes. Jetsam and session saves need the event loop's own time.
    package init(
        configuration: RunConfiguration, content: ContentProvider, log: EventLog, loop: EventLoop, clock: any RunClock,
        launcher: any Launcher
    ) throws {
        precondition(
            clock === loop
                || (configuration.jetsam == nil && configuration.sessionPath == nil
                    && configuration.browser.journalPath == nil),
            "Jetsam, session saves and the input journal run on the event loop's time")
        precondition(
            configuration.waits == .real
                || (configuration.jetsam == nil && configuration.sessionPath == nil
                    && configuration.typingIntervalNanoseconds == 0),
            "Jetsam, session saves and typing need their waits in real time")
        self.configuration = configuration
        self.log = log
        self.loop = loop
        self.clock = clock
        schedule = FaultSchedule(seed: configuration.seed)
        supervisor = Supervisor(settings: configuration.supervisor, clock: clock, launcher: launcher, log: log)
        browser = try Browser(
            supervisor: supervisor, settings: configuration.browser, content: content, loop: loop,
            editor: configuration.typingIntervalNanoseconds > 0)
        let range = configuration.attachDelayNanoseconds
        let replay = configuration.replay
        supervisor.attachDelay = { [weak self, schedule] view in
            let (index, attempt) = (view.load.index, view.load.recoveries)
            let draw = schedule.uniform(.attachDelay, load: index, attempt: attempt)
            if let incident = replay?.incident(forLoad: index) {
                guard attempt > 0 else { return self?.moments(of: incident, load: index).attach ?? 0 }
                return Int(incident.attach.at(draw) * 1e6)
            }
            return range.at(draw)
        }
        let latency = configuration.fetchLatencyNanoseconds
        supervisor.fetchLatency = { [weak self, schedule] view in
            let (index, attempt) = (view.load.index, view.load.recoveries)
            let drawn = latency.at(schedule.uniform(.fetchLatency, load: index, attempt: attempt))
            // A replayed incident's first page goes as the device's went: painted before a death it had painted
            // before, not yet committed at one it had not.
            guard attempt == 0, let incident = replay?.incident(forLoad: index), let rendered = incident.rendered else {
                return drawn
            }
            return rendered ? 0 : (self?.moments(of: incident, load: index).death ?? 0) + drawn
        }
        let loads = configuration.loads
        supervisor.moreViewsComing = { [weak self] in (self?.nextLoadIndex ?? loads) < loads }
        supervisor.workerDied = { [weak browser] in browser?.workerDied($0) }
        supervisor.claimedKill = { [claims] in claims.take($0) }
        // Read while a death is handled, too: the report is acted on once that is done.
        claims.pressure = { [weak supervisor, clock] critical in clock.soon { supervisor?.memoryPressure(critical: critical) } }
        if let path = configuration.outsideKillsPath {
            // Claims written before this run began are of other runs' workers.
            let file = try InputFile(path)
            try Sys.seek(file.fd, to: file.status.size)
            claims.add(try Sys.duplicate(file.fd, above: 0))
        }
        supervisor.renderedOffScreen = { [weak self] in self?.renderedOffScreen($0) }
        supervisor.stopRun = { [weak self] in self?.stop() }
        browser.onNavigationEnded = { [weak self] in self?.navigationEnded($0, error: $1, blank: $2) }
        browser.editorFinishing = { [weak self] in self?.clock.cancel(self?.typingTimer) }
    }

    /// Why the run was cut short by a failure of its own (a worker that cannot launch, a write that failed).
    public var failure: String? { supervisor.failure }

    /// Runs every load to its end and reaps every worker. The summary is computed from the events of this run.
    public func run() throws(SystemError) -> RunSummary {
        let summary = RunSummary(policy: policy.name)
        log.observers.append(summary.record)
        log.observers.append(warnings.record)
        log.emit(.runBegin(.init(
            policy: policy.name, delegate: policy.delegate, loads: configuration.loads, views: configuration.views, hidden: configuration.hidden,
            seed: Int(truncatingIfNeeded: configuration.seed), raceRate: configuration.raceRate,
            killRate: configuration.killRate, tabs: browser.browsesSession ? browser.tabs.count : nil)))
        let jetsam = try configuration.jetsam.map { settings throws(SystemError) in
            try JetsamProcess(settings, workersOf: workersParent)
        }
        defer { jetsam?.stop() }
        if let jetsam, let pipe = jetsam.claims.take() {
            let claimsFD = pipe.rawValue
            claims.add(pipe)
            // Read as it fills: Jetsam waits on a full pipe.
            let claimsToken = try loop.watch(claimsFD) { [claims] _ in claims.readAll() }
            // The killer only ends when the run stops it: any earlier exit means the run goes on without one.
            var token: UInt64 = 0
            token = try loop.watch(jetsam.pidfd) { [unowned self] _ in
                loop.unwatch(jetsam.pidfd, token: token)
                loop.unwatch(claimsFD, token: claimsToken)
                supervisor.abort(because: jetsam.exited())
            }
        }
        if browser.editor != nil {
            // A worker taken back may be the editor's: its view opens once they are all settled.
            if takenBack == nil { browser.openEditor() }
            typeNext()
        }
        if browser.browsesSession {
            reclaimThenBrowse()
        } else if configuration.arrivalNanoseconds > 0 {
            arrive(at: clock.now)
        } else {
            for slot in 0..<min(configuration.views, configuration.loads) { beginNextLoad(slot: slot) }
        }
        if configuration.loads == 0 { browser.finishEditor() }
        try clock.run(
            until: { [unowned self] in
                supervisor.workers.isEmpty
                    && (supervisor.stopping
                        || ((finishedLoads == configuration.loads || browsing.ended) && browser.editorConcluded))
            },
            afterBatch: { [unowned self] in
                browser.syncJournal()
                log.flush()
                if let error = log.writeError { supervisor.abort(because: error.description) }
            },
            quiet: configuration.waits == .simulated ? { [unowned self] in supervisor.quiet } : nil)
        if !browser.editorConcluded { browser.concludeEditor() }
        browser.syncJournalNow(final: true)
        browser.finishSession()
        log.emit(.runEnd(interrupted: supervisor.stopping, simulatedMs: Double(clock.simulatedNanoseconds) / 1e6))
        log.flush()
        return summary
    }

    /// The typist: one input per interval until the editor stops taking them.
    func typeNext() {
        guard let editor = browser.editor, !editor.finishing else { return }
        typingTimer = clock.schedule(afterNanoseconds: configuration.typingIntervalNanoseconds) { [weak self] in
            guard let self else { return }
            browser.type()
            typeNext()
        }
    }

    /// Ends the run early on SIGINT or SIGTERM: every worker is killed and reaped before `run()` returns. The
    /// caller must have blocked both signals in every thread, and calls this once.
    public func stopOnTerminationSignals() throws(SystemError) {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        let fd = FileDescriptor(try retrying("signalfd") { signalfd(-1, &signals, Int32(SFD_CLOEXEC | SFD_NONBLOCK)) })
        try stop(whenReadable: fd) { raw in
            var info = signalfd_siginfo()
            _ = withUnsafeMutableBytes(of: &info) { buffer in try? Sys.read(raw, into: buffer) }
            return Int32(bitPattern: info.ssi_signo)
        }
    }

    /// Ends the run early, as on a signal, when the signal's number is written to `eventFD` (an eventfd, which the
    /// run takes): how runs side by side on threads of one process all hear one SIGINT, which a signalfd gives to
    /// one reader only. Call this instead of `stopOnTerminationSignals`.
    package func stopOnRelayedSignals(_ eventFD: consuming FileDescriptor) throws(SystemError) {
        try stop(whenReadable: eventFD) { raw in
            var signal: UInt64 = 0
            _ = withUnsafeMutableBytes(of: &signal) { buffer in try? Sys.read(raw, into: buffer) }
            return Int32(truncatingIfNeeded: signal)
        }
    }

    private func stop(whenReadable fd: consuming FileDescriptor, signal: @escaping (Int32) -> Int32) throws(SystemError) {
        let raw = fd.rawValue
        signals = consume fd
        _ = try loop.watch(raw) { [unowned self] _ in
            log.emit(.interrupt(signal: signal(raw) == SIGINT ? .SIGINT : .SIGTERM))
            stop()
        }
    }

    /// Ends the run: no new load, view or worker; every worker is told to shut down and killed if it has not
    /// exited after the grace period, the editor's once it has reported its document. `run()` returns once all
    /// are reaped. A second call kills them at once.
    public func stop() {
        for view in supervisor.openViews { (view.load.client as? PageLoad).map { clock.cancel($0.blankDeadline) } }
        browser.stop()
    }
}

extension ClosedRange<Int> {
    /// The point a uniform `draw` in [0, 1) picks in the range.
    func at(_ draw: Double) -> Int { lowerBound + Int(draw * Double(upperBound - lowerBound)) }
}
