import CShim
import Core
import Glibc
import Process
import Scenario
import System

/// The UI process of this model, shaped like WebKit's: it owns views, launches a worker behind each, relays their
/// fetches to the content provider, watches them die, and recovers views as the policy says.
///
/// A new view's worker starts at the policy's launch band (background, for WebKit). The view attaches to the window
/// after a short delay: only then is the foreground assertion taken and, for `Observe.attach` policies, the
/// termination observer wired. A worker that dies before that dies unobserved, and its view goes on believing in
/// it. Everything happens on the thread that calls `run()`, inside one epoll loop.
///
/// Each concern lives in its own file, as an extension: loads, views, workers, spares, watchdogs, faults, recovery
/// and the channel. The state below is shared by them, hence internal rather than private.
public final class Host {
    let configuration: RunConfiguration
    var policy: Policy { configuration.policy }
    let content: ContentProvider
    let log: EventLog
    let loop: EventLoop
    /// The time every decision is made at and every timer is set on: the loop's.
    var clock: Clock { loop }
    let launcher: WorkerLauncher
    let schedule: FaultSchedule

    var workers: [Int32: WorkerProcess] = [:]
    /// Open views by id. A worker only points weakly at its view, so this is what keeps a view alive.
    var views: [Int: View] = [:]
    /// Launched workers waiting for the next view.
    var spares: [WorkerProcess] = []
    var nextLoadIndex = 0
    var finishedLoads = 0
    var nextViewID = 1
    var stopping = false
    /// Why the run was cut short by a failure of its own (a worker that cannot launch, a write that failed).
    public private(set) var failure: String?
    var launchFailuresInARow = 0
    var everSaidHello = false
    var warnedPriorityDenied = false
    var editor: Editor?
    /// The browser's tabs, in order, when the run browses a session.
    public internal(set) var tabs: [Tab] = []
    /// The key internal URLs must carry in this launch.
    public let launchKey = LaunchKey()
    var session: SessionStore?
    var browsing = Browsing()
    var typingTimer: TimerID?
    var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    /// The signalfd SIGINT and SIGTERM arrive on, once the caller has asked for them.
    var signals: FileDescriptor?
    let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Throws a `SystemError` when the loop or the launcher cannot be set up, a `FileError` when the journal
    /// cannot be used.
    public init(configuration: RunConfiguration, content: ContentProvider, log: EventLog) throws {
        self.configuration = configuration
        self.content = content
        self.log = log
        schedule = FaultSchedule(seed: configuration.seed)
        // A write to a worker that just died must fail with EPIPE, not kill the supervisor.
        Sys.ignoreSignal(SIGPIPE)
        loop = try EventLoop()
        launcher = try WorkerLauncher(executable: configuration.workerPath)
        if configuration.typingIntervalNanoseconds > 0 {
            let journal = try configuration.journalPath.map { path throws(FileError) in
                try InputJournal(path: path, salvage: configuration.salvageJournal)
            }
            if let journal { reportOpened(journal) }
            let load = Load(
                index: -1, url: ContentProvider.editorURL, slot: -1, hidden: false, startedAt: clock.now,
                editor: true)
            editor = Editor(load: load, journal: journal)
        }
    }

    /// Says what opening the journal found: a torn tail cut off, or damage salvaged at the user's word.
    private func reportOpened(_ journal: InputJournal) {
        if let damage = journal.salvaged {
            printError("supervisor: warning: journal '\(journal.path)': \(damage); kept the intact inputs and rewrote it")
        }
        log.emit(.journalOpened(
            records: journal.recovered.count, tornBytesDropped: journal.tornBytes, salvaged: journal.salvaged?.description))
    }

    /// Runs every load to its end and reaps every worker. The summary is computed from the events of this run.
    public func run() throws(SystemError) -> RunSummary {
        let summary = RunSummary(policy: policy.name)
        log.observers.append(summary.record)
        log.emit(.runBegin(.init(
            policy: policy.name, loads: configuration.loads, views: configuration.views, hidden: configuration.hidden,
            seed: Int(truncatingIfNeeded: configuration.seed), raceRate: configuration.raceRate,
            killRate: configuration.killRate, tabs: session == nil ? nil : tabs.count)))
        let jetsam = try configuration.jetsam.map { settings throws(SystemError) in try JetsamProcess(settings) }
        defer { jetsam?.stop() }
        if let jetsam {
            // The killer only ends when the run stops it: any earlier exit means the run goes on without one.
            var token: UInt64 = 0
            token = try loop.watch(jetsam.pidfd) { [unowned self] _ in
                loop.unwatch(jetsam.pidfd, token: token)
                abort(because: jetsam.exited())
            }
        }
        openEditor()
        if session != nil {
            beginBrowsing()
        } else if configuration.arrivalNanoseconds > 0 {
            arrive(at: clock.now)
        } else {
            for slot in 0..<min(configuration.views, configuration.loads) { beginNextLoad(slot: slot) }
        }
        if configuration.loads == 0 { finishEditor() }
        try loop.run(
            until: { [unowned self] in
                workers.isEmpty
                    && (stopping || ((finishedLoads == configuration.loads || browsing.ended) && editor?.concluded != false))
            },
            afterBatch: { [unowned self] in
                syncJournal()
                log.flush()
                if let error = log.writeError { abort(because: error.description) }
            })
        if editor?.concluded == false { concludeEditor() }
        finishSession()
        log.emit(.runEnd(interrupted: stopping))
        log.flush()
        return summary
    }

    /// Ends the run early on SIGINT or SIGTERM: every worker is killed and reaped before `run()` returns. The
    /// caller must have blocked both signals in every thread, and calls this once.
    public func stopOnTerminationSignals() throws(SystemError) {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        let fd = FileDescriptor(try retrying("signalfd") { signalfd(-1, &signals, Int32(SFD_CLOEXEC | SFD_NONBLOCK)) })
        let raw = fd.rawValue
        self.signals = consume fd
        _ = try loop.watch(raw) { [unowned self] _ in
            var info = signalfd_siginfo()
            _ = withUnsafeMutableBytes(of: &info) { buffer in try? Sys.read(raw, into: buffer) }
            log.emit(.interrupt(signal: signalName(Int32(info.ssi_signo))))
            stop()
        }
    }

    /// Ends the run: no new load, view or worker; every worker is told to shut down and killed if it has not
    /// exited after the grace period, the editor's once it has reported its document. `run()` returns once all
    /// are reaped. A second call kills them at once.
    public func stop() {
        guard !stopping else {
            for worker in workers.values { worker.signal(SIGKILL) }
            return
        }
        stopping = true
        for view in views.values {
            view.timers.forEach(clock.cancel)
            clock.cancel(view.load.blankDeadline)
        }
        finishEditor()
        // The editor's worker goes once it has reported its document (see `concludeEditor`).
        let reporting = editor?.concluded == false ? editor?.worker : nil
        for worker in workers.values where worker !== reporting { shutDown(worker) }
    }

    /// Stops the run for a failure that makes going on pointless or dishonest; `failure` says why.
    func abort(because reason: String) {
        guard failure == nil else { return }
        failure = reason
        log.emit(.abort(reason: reason))
        stop()
    }
}
