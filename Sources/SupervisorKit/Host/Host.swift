import CShim
import Glibc
import WireProtocol

/// The UI process of this model, shaped like WebKit's: it owns views, launches a worker behind each, relays their
/// fetches to the content provider, watches them die, and recovers views as the policy says.
///
/// A new view's worker starts at the policy's launch band (background, for WebKit). The view attaches to the window
/// after a short delay: only then is the foreground assertion taken and, for `Observe.attach` policies, the
/// termination observer wired. A worker that dies before that dies unobserved, and its view goes on believing in
/// it. Everything happens on the thread that calls `run()`, inside one epoll loop.
public final class Host {
    private let configuration: RunConfiguration
    private var policy: Policy { configuration.policy }
    private let content: ContentProvider
    private let log: EventLog
    private let loop: EventLoop
    private let launcher: WorkerLauncher
    private let schedule: FaultSchedule

    private var workers: [Int32: WorkerProcess] = [:]
    /// Open views by id. A worker only points weakly at its view, so this is what keeps a view alive.
    private var views: [Int: View] = [:]
    /// Launched workers waiting for the next view.
    private var spares: [WorkerProcess] = []
    private var nextLoadIndex = 0
    private var finishedLoads = 0
    private var nextViewID = 1
    private var stopping = false
    private var warnedPriorityDenied = false
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    private var signalFD: Int32 = -1
    private let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    public init(configuration: RunConfiguration, content: ContentProvider, log: EventLog) throws(SystemError) {
        self.configuration = configuration
        self.content = content
        self.log = log
        schedule = FaultSchedule(seed: configuration.seed)
        // A write to a worker that just died must fail with EPIPE, not kill the supervisor.
        Sys.ignoreSignal(SIGPIPE)
        loop = try EventLoop()
        launcher = try WorkerLauncher(executable: configuration.workerPath)
    }

    deinit {
        if signalFD >= 0 { Sys.close(signalFD) }
    }

    /// Runs every load to its end and reaps every worker. The summary is computed from the events of this run.
    public func run() throws(SystemError) -> RunSummary {
        let summary = RunSummary(policy: policy.name)
        log.observers.append(summary.record)
        log.emit("run-begin", [
            ("policy", .string(policy.name)), ("loads", .int(configuration.loads)),
            ("views", .int(configuration.views)), ("hidden", .int(configuration.hidden)),
            ("seed", .int(Int(truncatingIfNeeded: configuration.seed))),
            ("raceRate", .double(configuration.raceRate)), ("killRate", .double(configuration.killRate)),
        ])
        let jetsam = try configuration.jetsam.map { settings throws(SystemError) in try JetsamProcess(settings) }
        defer { jetsam?.stop() }
        if configuration.arrivalNanoseconds > 0 {
            arrive(at: Sys.monotonicNanoseconds())
        } else {
            for slot in 0..<min(configuration.views, configuration.loads) { beginNextLoad(slot: slot) }
        }
        try loop.run(
            until: { [unowned self] in workers.isEmpty && (stopping || finishedLoads == configuration.loads) },
            afterBatch: log.flush)
        log.emit("run-end", [("interrupted", .bool(stopping))])
        log.flush()
        return summary
    }

    /// Ends the run early on SIGINT or SIGTERM: every worker is killed and reaped before `run()` returns. The
    /// caller must have blocked both signals in every thread.
    public func stopOnTerminationSignals() throws(SystemError) {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        signalFD = try retrying("signalfd") { signalfd(-1, &signals, Int32(SFD_CLOEXEC | SFD_NONBLOCK)) }
        _ = try loop.watch(signalFD) { [unowned self] _ in
            var info = signalfd_siginfo()
            _ = Glibc.read(signalFD, &info, MemoryLayout<signalfd_siginfo>.size)
            log.emit("interrupt", [("signal", .string(signalName(Int32(info.ssi_signo))))])
            stop()
        }
    }

    /// Kills every worker; `run()` returns once they are reaped.
    public func stop() {
        stopping = true
        for worker in workers.values { worker.signal(SIGKILL) }
    }

    // MARK: - Loads

    /// The open loop: one load per arrival interval, whatever the others are doing.
    private func arrive(at time: Int) {
        beginNextLoad(slot: nextLoadIndex % configuration.views)
        guard nextLoadIndex < configuration.loads else { return }
        let next = time + configuration.arrivalNanoseconds
        loop.schedule(at: next) { [weak self] in self?.arrive(at: next) }
    }

    private func beginNextLoad(slot: Int) {
        guard nextLoadIndex < configuration.loads, !stopping else {
            if finishedLoads == configuration.loads { retireSpares() }
            return
        }
        let index = nextLoadIndex
        nextLoadIndex += 1
        let url = content.pages[schedule.index(.page, load: index, count: content.pages.count)]
        let load = Load(
            index: index, url: url, slot: slot, hidden: slot < configuration.hidden, startedAt: Sys.monotonicNanoseconds())
        log.emit("load-begin", [("load", .int(index)), ("url", .string(url)), ("hidden", .bool(load.hidden))])
        if load.hidden {
            // A background tab: the user switches to it after a while, whether or not it has rendered by then.
            loop.schedule(afterNanoseconds: configuration.hiddenNanoseconds) { [weak self, weak load] in
                guard let self, let load else { return }
                show(load)
            }
        } else {
            shown(load)
        }
        let view = openView(for: load)
        if schedule.happens(.race, load: index, rate: configuration.raceRate) { injectRace(into: view) }
    }

    /// The user starts looking at the load: the blank clock starts.
    private func shown(_ load: Load) {
        let now = Sys.monotonicNanoseconds()
        load.shownAt = now
        load.blankDeadline = loop.schedule(at: now + configuration.blankTimeoutNanoseconds) { [weak self, weak load] in
            guard let self, let load, load.visibleAt == nil, let view = load.view else { return }
            load.blank = true
            log.emit("blank", view: view.id, [("load", .int(load.index))])
            endLoad(view)
        }
    }

    /// The view is on screen with content. The first time counts for the load; after a recovery the view stays
    /// up for the whole dwell again.
    private func becameVisible(_ view: View) {
        let load = view.load
        guard let shownAt = load.shownAt else { return }
        let now = Sys.monotonicNanoseconds()
        let first = load.visibleAt == nil
        if first {
            load.visibleAt = now
            loop.cancel(load.blankDeadline)
        }
        log.emit("visible", view: view.id, pid: view.worker?.pid, [
            ("load", .int(load.index)), ("timeToVisibleMs", JSON.milliseconds(now - shownAt)), ("first", .bool(first)),
        ])
        guard configuration.dwellNanoseconds > 0 else { return endLoad(view) }
        view.timers.append(loop.schedule(afterNanoseconds: configuration.dwellNanoseconds) { [weak self, weak view] in
            guard let self, let view, !view.closed else { return }
            endLoad(view)
        })
    }

    private func endLoad(_ view: View) {
        guard !view.closed else { return }
        let load = view.load
        let now = Sys.monotonicNanoseconds()
        var fields: [(String, JSON)] = [
            ("load", .int(load.index)), ("outcome", .string(load.blank || load.visibleAt == nil ? "blank" : "rendered")),
            ("recoveries", .int(load.recoveries)), ("hidden", .bool(load.hidden)),
        ]
        if let shownAt = load.shownAt {
            fields.append(("blankMs", JSON.milliseconds((load.visibleAt ?? now) - shownAt)))
            if let visibleAt = load.visibleAt, !load.blank {
                fields.append(("timeToVisibleMs", JSON.milliseconds(visibleAt - shownAt)))
            }
        }
        loop.cancel(load.blankDeadline)
        log.emit("load-end", view: view.id, fields)
        finishedLoads += 1
        closeView(view)
        if configuration.arrivalNanoseconds == 0 {
            loop.soon { [unowned self] in beginNextLoad(slot: load.slot) }
        } else if finishedLoads == configuration.loads {
            retireSpares()
        }
    }

    // MARK: - Views

    @discardableResult
    private func openView(for load: Load) -> View {
        let view = View(id: nextViewID, load: load, visible: load.shownAt != nil)
        nextViewID += 1
        views[view.id] = view
        load.view = view
        log.emit("view-open", view: view.id, [("load", .int(load.index)), ("visible", .bool(view.visible))])
        if let worker = takeSpare() {
            log.emit("spare-taken", view: view.id, pid: worker.pid)
            adopt(worker, into: view)
        } else {
            startWorker(for: view)
        }
        let range = configuration.attachDelayNanoseconds
        let attempt = load.recoveries
        let delay = range.lowerBound
            + Int(schedule.uniform(.attachDelay, load: load.index, attempt: attempt) * Double(range.upperBound - range.lowerBound))
        view.attachAt = view.createdAt + delay
        view.timers.append(loop.schedule(at: view.attachAt) { [weak self, weak view] in
            guard let self, let view, !view.closed else { return }
            attach(view)
        })
        if policy.onBlank != nil { watchTitle(of: view) }
        return view
    }

    /// The view enters the window: the foreground assertion is taken and only then is the termination observer
    /// wired. A death that happened before, even one not processed yet, stays unobserved.
    private func attach(_ view: View) {
        if let worker = view.worker { reapIfExited(worker) }
        view.attached = true
        log.emit("attach", view: view.id, pid: view.worker?.pid)
        if let worker = view.worker { setBand(band(for: worker), of: worker, assertion: true) }
        if view.visible, view.worker?.rendered == true, view.worker?.reaped == false { becameVisible(view) }
    }

    private func closeView(_ view: View) {
        view.closed = true
        views[view.id] = nil
        view.timers.forEach(loop.cancel)
        if let worker = view.worker {
            view.worker = nil
            worker.view = nil
            if !park(worker) { shutDown(worker) }
        }
        log.emit("view-close", view: view.id)
    }

    /// A hidden load comes on screen: raised to foreground, recovered if WebKit deferred that, visible if alive.
    private func show(_ load: Load) {
        guard let view = load.view, !view.closed else { return }
        shown(load)
        view.visible = true
        log.emit("show", view: view.id, pid: view.worker?.pid, [("load", .int(load.index))])
        if let worker = view.worker { reapIfExited(worker) }
        // A death just delivered took the worker from the view; an undelivered one left the dead proxy, which the
        // assertion then finds gone.
        if let worker = view.worker { setBand(band(for: worker), of: worker, assertion: true) }
        if view.recoverWhenShown, let recovery = policy.onTermination {
            view.recoverWhenShown = false
            recover(view, recovery, because: "shown")
        }
        if let worker = view.worker, worker.rendered, !worker.reaped, view.attached { becameVisible(view) }
    }

    /// The field app's 3 s timer: an empty title means a blank view, whatever the process is doing.
    private func watchTitle(of view: View) {
        view.timers.append(loop.schedule(afterNanoseconds: configuration.watchdogNanoseconds) { [weak self, weak view] in
            guard let self, let view, !view.closed, view.load.visibleAt == nil else { return }
            watchTitle(of: view)
            guard view.title.isEmpty else { return }
            if let worker = view.worker, !worker.reaped, worker.channelOpen {
                send(.titleQuery(id: UInt32(view.id)), to: worker)
            } else {
                deadChannel(view, "titleQuery")
                blankDetected(view)
            }
        })
    }

    private func blankDetected(_ view: View) {
        guard let recovery = policy.onBlank, !view.closed else { return }
        log.emit("watchdog", view: view.id, pid: view.worker?.pid, [("title", .string(""))])
        recover(view, recovery, because: "blank")
    }

    private func deadChannel(_ view: View, _ message: String) {
        log.emit("dead-channel-send", view: view.id, pid: view.worker?.pid, [("message", .string(message))])
    }

    // MARK: - Workers

    private func startWorker(for view: View) {
        guard !stopping else { return }
        guard let worker = launchWorker(for: view) else {
            return terminated(view, .launchFailed(reason: "see the death event"), pid: nil)
        }
        adopt(worker, into: view)
    }

    /// A running, watched worker, or nil after logging why there is none.
    private func launchWorker(for view: View? = nil) -> WorkerProcess? {
        let worker: WorkerProcess
        do {
            worker = try launcher.launch()
        } catch {
            log.emit("death", view: view?.id, [
                ("status", .string("launch-failed")), ("reason", .string(error.description)), ("rendered", .bool(false)),
            ])
            return nil
        }
        workers[worker.pid] = worker
        do {
            worker.pidfdToken = try loop.watch(worker.pidfd) { [unowned self, unowned worker] _ in reapIfExited(worker) }
            worker.channelToken = try loop.watch(worker.channel.readFD) { [unowned self, unowned worker] _ in
                received(from: worker)
            }
        } catch {
            kill(worker, because: "cannot watch worker: \(error)", verdict: .launchFailed(reason: error.description))
        }
        watchLiveness(of: worker)
        return worker
    }

    private func adopt(_ worker: WorkerProcess, into view: View) {
        worker.view = view
        view.worker = worker
        worker.views += 1
        var fields: [(String, JSON)] = [("load", .int(view.load.index))]
        if worker.views > 1 { fields.append(("reused", .bool(true))) }
        log.emit("spawn", view: view.id, pid: worker.pid, fields)
        setBand(band(for: worker), of: worker)
        if worker.helloAt != nil { sendLoad(to: worker, of: view) }
    }

    /// Launches a spare when none is left, at background priority since it serves no one yet.
    private func replenishSpare() {
        guard policy.spareWorkers > 0, spares.isEmpty, !stopping, nextLoadIndex < configuration.loads,
            let worker = launchWorker()
        else { return }
        spares.append(worker)
        log.emit("spare", pid: worker.pid)
        setBand(.background, of: worker)
    }

    /// Keeps a closed view's healthy worker as a spare, its page unloaded, if the policy reuses workers, there is
    /// room, and more loads are coming.
    private func park(_ worker: WorkerProcess) -> Bool {
        guard policy.reuseWorkers, spares.count < policy.spareWorkers, !stopping, nextLoadIndex < configuration.loads,
            worker.rendered, worker.channelOpen, worker.verdict == nil, !worker.reaped
        else { return false }
        loop.cancel(worker.timer)
        worker.rendered = false
        worker.awaitingPong = false
        send(.unload, to: worker)
        spares.append(worker)
        log.emit("spare", pid: worker.pid, [("reused", .bool(true))])
        setBand(.background, of: worker)
        return true
    }

    /// The most recently parked live spare, if any. A new one is launched only once the view that took it has
    /// rendered, so that the launch never competes with the load it was meant to speed up.
    private func takeSpare() -> WorkerProcess? {
        while let worker = spares.popLast() {
            reapIfExited(worker)
            if !worker.reaped { return worker }
        }
        return nil
    }

    private func retireSpares() {
        let retired = spares
        spares = []
        retired.forEach(shutDown)
    }

    /// The band a worker should be in: foreground while its view is in the window; the policy's launch band while
    /// its view is about to be; the policy's hidden band while its view is a hidden tab.
    private func band(for worker: WorkerProcess) -> PriorityBand {
        guard let view = worker.view else { return .background }
        guard view.visible else { return policy.hiddenBand }
        return view.attached ? .foreground : policy.launchBand
    }

    private func shutDown(_ worker: WorkerProcess) {
        guard !worker.reaped else { return }
        log.emit("shutdown", view: worker.view?.id, pid: worker.pid)
        send(.shutdown, to: worker)
        loop.cancel(worker.timer)
        worker.timer = loop.schedule(afterNanoseconds: configuration.shutdownGraceNanoseconds) { [weak self, weak worker] in
            guard let self, let worker, workers[worker.pid] === worker else { return }
            kill(worker, because: "did not exit after shutdown", verdict: nil)
        }
    }

    private func kill(_ worker: WorkerProcess, because reason: String, verdict: TerminationStatus?) {
        guard worker.verdict == nil else { return }
        worker.verdict = verdict
        log.emit("kill", view: worker.view?.id, pid: worker.pid, [("reason", .string(reason))])
        worker.signal(SIGKILL)
        closeChannel(of: worker)
    }

    /// Pings a busy worker every interval. A worker that has not said hello by the first check, or has not
    /// answered the previous ping by the next, is killed. Idle workers are not pinged, so an idle supervisor
    /// has no timers and never wakes.
    private func watchLiveness(of worker: WorkerProcess) {
        loop.cancel(worker.timer)
        worker.timer = loop.schedule(afterNanoseconds: configuration.pingIntervalNanoseconds) { [weak self, weak worker] in
            guard let self, let worker, workers[worker.pid] === worker else { return }
            let interval = "\(configuration.pingIntervalNanoseconds / 1_000_000) ms"
            if worker.helloAt == nil {
                kill(worker, because: "no hello within \(interval)", verdict: .launchFailed(reason: "no hello within \(interval)"))
            } else if worker.awaitingPong {
                kill(worker, because: "no pong within \(interval)", verdict: .unresponsive)
            } else if worker.view != nil {
                worker.lastPing += 1
                worker.awaitingPong = true
                send(.ping(seq: worker.lastPing), to: worker)
                watchLiveness(of: worker)
            }
        }
    }

    /// Moves `worker` to `band` if it is not there already. With `assertion`, the band is applied even if it
    /// seems current: that is the foreground assertion a view takes when it enters the window, and the call that
    /// finds out a process is gone.
    private func setBand(_ band: PriorityBand, of worker: WorkerProcess, assertion: Bool = false) {
        guard assertion || worker.band != band else { return }
        let result = configuration.bands.apply(band, to: worker.pid)
        if result == .applied { worker.band = band }
        var fields: [(String, JSON)] = [
            ("band", .string(band.rawValue)), ("nice", .int(Int(configuration.bands.nice(band)))),
            ("oomScoreAdj", .int(Int(configuration.bands.oomScoreAdjust(band)))), ("result", .string(result.name)),
        ]
        switch result {
        case .noSuchProcess where band == .foreground:
            fields.append(("rbs", .string(rbsTargetMissingLine)))
        case .denied(let error) where !warnedPriorityDenied:
            warnedPriorityDenied = true
            printError("supervisor: warning: cannot change worker priority (\(error)); continuing without it")
        default:
            break
        }
        log.emit("priority", view: worker.view?.id, pid: worker.pid, fields)
    }

    private func sendLoad(to worker: WorkerProcess, of view: View) {
        send(.load(url: view.load.url), to: worker)
        watchLiveness(of: worker)
        log.emit("load", view: view.id, pid: worker.pid, [
            ("url", .string(view.load.url)), ("attempt", .int(view.load.recoveries)),
        ])
    }

    // MARK: - Faults

    /// Kills the load's first worker inside the vulnerable window: after spawn, before attach, and only if it is
    /// at background priority, as jetsam would find it. Foreground workers are spared.
    private func injectRace(into view: View) {
        // Timed against the view's own attach deadline, so the kill always lands inside the window, however long
        // the spawn took and however late the loop runs.
        let moment = 0.2 + 0.6 * schedule.uniform(.raceMoment, load: view.load.index)
        let at = view.createdAt + Int(Double(view.attachAt - view.createdAt) * moment)
        view.timers.append(loop.schedule(at: at) { [weak self, weak view] in
            guard let self, let view, !view.closed, !view.attached, let worker = view.worker, !worker.reaped else { return }
            injectKill(worker, view: view, kind: "race")
        })
    }

    /// Kills a hidden load's rendered worker while it is off screen (case 1: killed after render), halfway between
    /// its render and the moment it is shown.
    private func injectKillAfterRender(into view: View) {
        let showAt = view.load.startedAt + configuration.hiddenNanoseconds
        let delay = max(0, showAt - Sys.monotonicNanoseconds()) / 2
        view.timers.append(loop.schedule(afterNanoseconds: delay) { [weak self, weak view] in
            guard let self, let view, !view.closed, !view.visible, let worker = view.worker, worker.rendered,
                !worker.reaped
            else { return }
            injectKill(worker, view: view, kind: "kill-after-render")
        })
    }

    private func injectKill(_ worker: WorkerProcess, view: View, kind: String) {
        let adjust = (try? Sys.oomScoreAdjust(worker.pid)) ?? 0
        guard adjust > configuration.bands.foregroundOOMScoreAdjust else {
            log.emit("inject-spared", view: view.id, pid: worker.pid, [("kind", .string(kind)), ("oomScoreAdj", .int(Int(adjust)))])
            return
        }
        log.emit("inject", view: view.id, pid: worker.pid, [("kind", .string(kind)), ("oomScoreAdj", .int(Int(adjust)))])
        worker.signal(SIGKILL)
        // An injected fault is exact: the process is gone before the host takes its next step, as it was on the
        // phone, where the kill came well before the view attached. After SIGKILL this wait is short and certain.
        if let (code, status) = try? worker.reap(wait: true) { died(worker, code: code, status: status) }
    }

    // MARK: - Death and recovery

    /// Handles the death of `worker` if it has exited: from its pidfd event, or before the host acts on its pid
    /// while that event is still queued, so that what the host does next (raise priority, wire an observer)
    /// happens after the death, as it did in real time.
    private func reapIfExited(_ worker: WorkerProcess) {
        guard !worker.reaped, let (code, status) = try? worker.reap() else { return }
        died(worker, code: code, status: status)
    }

    private func died(_ worker: WorkerProcess, code: Int32, status: Int32) {
        loop.unwatch(nil, token: worker.pidfdToken)
        closeChannel(of: worker)
        loop.cancel(worker.timer)
        workers[worker.pid] = nil
        let termination = TerminationStatus.classify(
            code: code, status: status, saidHello: worker.helloAt != nil, verdict: worker.verdict)
        let view = worker.view.flatMap { $0.closed ? nil : $0 }
        // The raw status goes beside the classification: a worker killed before hello is a failed launch that
        // still died of SIGKILL.
        var fields: [(String, JSON)] = [
            ("status", .string(termination.name)), (code == sv_cld_exited() ? "code" : "signal", .int(Int(status))),
        ]
        switch termination {
        case .launchFailed(let reason), .protocolViolation(let reason): fields.append(("reason", .string(reason)))
        default: break
        }
        fields += [
            ("rendered", .bool(worker.rendered)), ("attached", .bool(view?.attached ?? false)),
            ("spare", .bool(spares.contains { $0 === worker })), ("band", .string(worker.band?.rawValue ?? "none")),
            ("lifetimeMs", JSON.milliseconds(Sys.monotonicNanoseconds() - worker.spawnedAt)),
        ]
        log.emit("death", view: view?.id, pid: worker.pid, fields)
        // A dead spare is replaced after the next render, not now: under memory pressure an instant replacement
        // would only be the killer's next victim.
        spares.removeAll { $0 === worker }
        guard let view, view.worker === worker else { return }
        if policy.observe == .attach && !view.attached {
            // The observer is not wired yet: nobody is told, and the view keeps its dead proxy.
            log.emit("unobserved", view: view.id, pid: worker.pid)
            return
        }
        view.worker = nil
        terminated(view, termination, pid: worker.pid)
    }

    /// The termination callback.
    private func terminated(_ view: View, _ status: TerminationStatus, pid: Int32?) {
        log.emit("termination", view: view.id, pid: pid, [("status", .string(status.name))])
        guard let recovery = policy.onTermination else { return }
        if policy.recoverWhenVisible && !view.visible {
            view.recoverWhenShown = true
            return
        }
        recover(view, recovery, because: "termination")
    }

    private func recover(_ view: View, _ recovery: Policy.Recovery, because reason: String) {
        guard !stopping, !view.closed else { return }
        let load = view.load
        let now = Sys.monotonicNanoseconds()
        if policy.recoveryCooldownNanoseconds > 0, let last = view.lastRecoveryAt,
            now - last < policy.recoveryCooldownNanoseconds
        {
            log.emit("recovery-suppressed", view: view.id, [("kind", .string(recovery.rawValue))])
            return
        }
        guard load.recoveries < policy.maxRecoveries else {
            log.emit("give-up", view: view.id, [("load", .int(load.index)), ("recoveries", .int(load.recoveries))])
            return endLoad(view)
        }
        load.recoveries += 1
        view.lastRecoveryAt = now
        log.emit("recovery", view: view.id, [
            ("kind", .string(recovery.rawValue)), ("reason", .string(reason)), ("attempt", .int(load.recoveries)),
        ])
        let perform = { [unowned self] in
            guard !view.closed else { return }
            switch recovery {
            case .reload: reload(view)
            case .rebuild:
                closeView(view)
                openView(for: load)
            }
        }
        let delay = policy.backoffNanoseconds > 0 ? policy.backoffNanoseconds << (load.recoveries - 1) : 0
        if delay > 0 && load.recoveries > 1 {
            view.timers.append(loop.schedule(afterNanoseconds: delay, perform))
        } else {
            loop.soon(perform)
        }
    }

    /// WKWebView's `reload()`: a new process if the view knows its old one died; otherwise a reload sent to the
    /// process it believes in, which does nothing at all if that process is gone.
    private func reload(_ view: View) {
        guard let worker = view.worker else { return startWorker(for: view) }
        guard !worker.reaped, worker.channelOpen else { return deadChannel(view, "reload") }
        worker.rendered = false
        view.title = ""
        send(.reload, to: worker)
        watchLiveness(of: worker)
    }

    // MARK: - Channel

    private func send(_ message: Message, to worker: WorkerProcess) {
        guard worker.channelOpen else { return }
        do {
            try worker.channel.send(message, on: loop) { [unowned self, unowned worker] in closeChannel(of: worker) }
        } catch {
            // The worker is gone or going; its pidfd reports how.
            log.emit("send-failed", view: worker.view?.id, pid: worker.pid, [("error", .string(error.description))])
            closeChannel(of: worker)
        }
    }

    private func closeChannel(of worker: WorkerProcess) {
        guard worker.channelOpen else { return }
        worker.channelOpen = false
        loop.unwatch(worker.channel.readFD, token: worker.channelToken)
        worker.channel.stopWatchingWrites(on: loop)
        worker.channel.close()
    }

    private func received(from worker: WorkerProcess) {
        let open = (try? worker.channel.fill(using: &scratch)) ?? false
        do {
            while worker.channelOpen, let message = try worker.channel.next() {
                handle(message, from: worker)
            }
        } catch {
            violation(by: worker, error.description)
        }
        if !open { closeChannel(of: worker) }
    }

    private func violation(by worker: WorkerProcess, _ reason: String) {
        log.emit("protocol-violation", view: worker.view?.id, pid: worker.pid, [("reason", .string(reason))])
        kill(worker, because: "protocol violation", verdict: .protocolViolation(reason: reason))
    }

    private func handle(_ message: Message, from worker: WorkerProcess) {
        if worker.helloAt == nil {
            guard case .hello(let pid, let version) = message else {
                return violation(by: worker, "message \(message.tag) before hello")
            }
            guard version == protocolVersion else {
                return violation(by: worker, "protocol version \(version), expected \(protocolVersion)")
            }
            guard pid == worker.pid else { return violation(by: worker, "hello names pid \(pid)") }
            return saidHello(worker)
        }
        let view = worker.view
        switch message {
        case .fetch(let url):
            let response = content.fetch(url)
            send(.fetchReply(status: response.status, mime: response.mime, body: response.body), to: worker)
            log.emit("fetch", view: view?.id, pid: worker.pid, [
                ("url", .string(url)), ("status", .int(Int(response.status))), ("bytes", .int(response.body.count)),
            ])
        case .didCommit(let url):
            log.emit("commit", view: view?.id, pid: worker.pid, [("url", .string(url))])
        case .didFinish(let title):
            rendered(worker, title: title)
        case .didFailProvisional(let error), .didFail(let error):
            loop.cancel(worker.timer)
            let kind = if case .didFail = message { "committed" } else { "provisional" }
            log.emit("fail", view: view?.id, pid: worker.pid, [("kind", .string(kind)), ("error", .string(error))])
            if let view, !view.closed { endLoad(view) }
        case .pong(let seq):
            if seq == worker.lastPing { worker.awaitingPong = false }
        case .title(let id, let title):
            if let view = views[Int(id)], view.worker === worker, title.isEmpty, view.load.visibleAt == nil {
                blankDetected(view)
            }
        case .inputApplied:
            break
        case .hello, .load, .reload, .unload, .shutdown, .fetchReply, .titleQuery, .ping, .input:
            violation(by: worker, "worker sent supervisor-only message \(message.tag)")
        }
    }

    private func saidHello(_ worker: WorkerProcess) {
        let now = Sys.monotonicNanoseconds()
        worker.helloAt = now
        log.emit("hello", view: worker.view?.id, pid: worker.pid, [
            ("spawnToHelloMs", JSON.milliseconds(now - worker.spawnedAt)),
        ])
        if let view = worker.view { sendLoad(to: worker, of: view) }
    }

    private func rendered(_ worker: WorkerProcess, title: String) {
        worker.rendered = true
        loop.cancel(worker.timer)
        guard let view = worker.view, !view.closed else { return }
        view.title = title
        worker.residentBytes = ((try? Sys.residentPages(worker.pid)) ?? 0) * pageSize
        log.emit("render", view: view.id, pid: worker.pid, [
            ("title", .string(title)), ("workersRSSBytes", .int(workersRSS())),
        ])
        setBand(band(for: worker), of: worker)
        // After the view is on screen: a launch must not delay the load it was meant to speed up.
        loop.soon { [weak self] in self?.replenishSpare() }
        let load = view.load
        if view.visible {
            if view.attached { becameVisible(view) }
        } else if !load.killScheduled, schedule.happens(.kill, load: load.index, rate: configuration.killRate) {
            load.killScheduled = true
            injectKillAfterRender(into: view)
        }
    }

    /// Resident memory of every live worker, each as read from /proc/PID/statm when it last rendered: reading a
    /// process that is exiting can wait on its teardown, and the event loop must not.
    private func workersRSS() -> Int {
        workers.values.reduce(0) { $0 + $1.residentBytes }
    }
}

/// Writes `line` and a newline to standard error, unbuffered.
public func printError(_ line: String) {
    writeStandardError(line + "\n")
}

/// Writes `text` to standard error as it is, unbuffered: for progress lines that redraw themselves.
public func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { try? Sys.writeAll(2, UnsafeRawBufferPointer($0)) }
}
