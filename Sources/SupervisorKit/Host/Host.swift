import CShim
import Glibc
import WireProtocol

/// The UI process of this model: it owns views, spawns a worker behind each, relays their fetches to the content
/// provider, watches them die, and recovers their views according to the policy.
///
/// Everything happens on the thread that calls `run()`, inside one epoll loop.
public final class Host {
    private let configuration: RunConfiguration
    private let content: ContentProvider
    private let log: EventLog
    private let loop: EventLoop
    private let launcher: WorkerLauncher
    private var random: SplitMix64

    private var workers: [Int32: WorkerProcess] = [:]
    /// Open views by id. A worker only points weakly at its view, so this is what keeps a view alive.
    private var views: [Int: View] = [:]
    private var nextLoadIndex = 0
    private var finishedLoads = 0
    private var nextViewID = 1
    private var stopping = false
    private var warnedPriorityDenied = false
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    private var signalFD: Int32 = -1

    public init(configuration: RunConfiguration, content: ContentProvider, log: EventLog) throws(SystemError) {
        self.configuration = configuration
        self.content = content
        self.log = log
        random = SplitMix64(seed: configuration.seed)
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
        let summary = RunSummary(policy: configuration.policy.name)
        log.observers.append(summary.record)
        log.emit("run-begin", [
            ("policy", .string(configuration.policy.name)), ("loads", .int(configuration.loads)),
            ("views", .int(configuration.views)), ("seed", .int(Int(truncatingIfNeeded: configuration.seed))),
        ])
        for _ in 0..<min(configuration.views, configuration.loads) { beginNextLoad() }
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

    // MARK: - Loads and views

    private func beginNextLoad() {
        guard nextLoadIndex < configuration.loads, !stopping else { return }
        let url = content.pages[Int(random.next() % UInt64(content.pages.count))]
        let load = Load(index: nextLoadIndex, url: url, startedAt: Sys.monotonicNanoseconds())
        nextLoadIndex += 1
        log.emit("load-begin", [("load", .int(load.index)), ("url", .string(url))])
        openView(for: load)
    }

    private func openView(for load: Load) {
        let view = View(id: nextViewID, load: load)
        nextViewID += 1
        views[view.id] = view
        log.emit("view-open", view: view.id, [("load", .int(load.index))])
        startWorker(for: view)
    }

    private func closeView(_ view: View) {
        view.closed = true
        views[view.id] = nil
        loop.cancel(view.dwellTimer)
        if let worker = view.worker {
            view.worker = nil
            worker.view = nil
            shutDown(worker)
        }
        log.emit("view-close", view: view.id)
    }

    private func endLoad(_ view: View) {
        let load = view.load
        var fields: [(String, JSON)] = [
            ("load", .int(load.index)), ("outcome", .string(load.renderedAt == nil ? "blank" : "rendered")),
            ("recoveries", .int(load.recoveries)),
        ]
        if let renderedAt = load.renderedAt {
            fields.append(("timeToVisibleMs", JSON.milliseconds(renderedAt - load.startedAt)))
        }
        log.emit("load-end", view: view.id, fields)
        finishedLoads += 1
        closeView(view)
        loop.soon { [unowned self] in beginNextLoad() }
    }

    // MARK: - Workers

    private func startWorker(for view: View) {
        guard !stopping else { return }
        let worker: WorkerProcess
        do {
            worker = try launcher.launch()
        } catch {
            let status = TerminationStatus.launchFailed(reason: error.description)
            log.emit("death", view: view.id, [
                ("status", .string(status.name)), ("reason", .string(error.description)), ("rendered", .bool(false)),
            ])
            recover(view, after: status)
            return
        }
        workers[worker.pid] = worker
        worker.view = view
        view.worker = worker
        log.emit("spawn", view: view.id, pid: worker.pid, [("load", .int(view.load.index))])
        do {
            worker.pidfdToken = try loop.watch(worker.pidfd) { [unowned self, unowned worker] _ in died(worker) }
            worker.channelToken = try loop.watch(worker.channel.readFD) { [unowned self, unowned worker] _ in
                received(from: worker)
            }
        } catch {
            kill(worker, because: "cannot watch worker: \(error)", verdict: .launchFailed(reason: error.description))
        }
        // Like WebKit, a new process starts in the background and is raised when its view attaches.
        setBand(.background, of: worker)
        watchLiveness(of: worker)
    }

    private func shutDown(_ worker: WorkerProcess) {
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
        worker.timer = loop.schedule(afterNanoseconds: configuration.pingIntervalNanoseconds) { [weak self, weak worker] in
            guard let self, let worker, workers[worker.pid] === worker else { return }
            let interval = "\(configuration.pingIntervalNanoseconds / 1_000_000) ms"
            if worker.helloAt == nil {
                kill(worker, because: "no hello within \(interval)", verdict: .launchFailed(reason: "no hello within \(interval)"))
            } else if worker.awaitingPong {
                kill(worker, because: "no pong within \(interval)", verdict: .unresponsive)
            } else {
                worker.lastPing += 1
                worker.awaitingPong = true
                send(.ping(seq: worker.lastPing), to: worker)
                watchLiveness(of: worker)
            }
        }
    }

    private func setBand(_ band: PriorityBand, of worker: WorkerProcess) {
        let result = configuration.bands.apply(band, to: worker.pid)
        var fields: [(String, JSON)] = [
            ("band", .string(band.rawValue)), ("nice", .int(Int(configuration.bands.nice(band)))),
            ("oomScoreAdj", .int(Int(configuration.bands.oomScoreAdjust(band)))), ("result", .string(result.name)),
        ]
        switch result {
        case .noSuchProcess where band == .foreground:
            fields.append(("rbs", .string(rbsTargetMissingLine)))
            printError(rbsTargetMissingLine)
        case .denied(let error) where !warnedPriorityDenied:
            warnedPriorityDenied = true
            printError("supervisor: warning: cannot change worker priority (\(error)); continuing without it")
        default:
            break
        }
        log.emit("priority", view: worker.view?.id, pid: worker.pid, fields)
    }

    // MARK: - Channel

    private func send(_ message: Message, to worker: WorkerProcess) {
        guard worker.channelOpen else { return }
        do {
            let wasPending = worker.channel.hasPendingOutput
            try worker.channel.send(message)
            if !wasPending && worker.channel.hasPendingOutput {
                worker.writeToken = try loop.watch(worker.channel.writeFD, events: EPOLLOUT.rawValue) {
                    [unowned self, unowned worker] _ in drain(worker)
                }
            }
        } catch {
            // The worker is gone or going; its pidfd reports how.
            log.emit("send-failed", view: worker.view?.id, pid: worker.pid, [("error", .string(error.description))])
            closeChannel(of: worker)
        }
    }

    private func drain(_ worker: WorkerProcess) {
        do {
            try worker.channel.flush()
            if !worker.channel.hasPendingOutput {
                loop.unwatch(worker.channel.writeFD, token: worker.writeToken)
                worker.writeToken = 0
            }
        } catch {
            closeChannel(of: worker)
        }
    }

    private func closeChannel(of worker: WorkerProcess) {
        guard worker.channelOpen else { return }
        worker.channelOpen = false
        loop.unwatch(worker.channel.readFD, token: worker.channelToken)
        if worker.writeToken != 0 { loop.unwatch(worker.channel.writeFD, token: worker.writeToken) }
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
        case .title, .inputApplied:
            break
        case .hello, .load, .reload, .shutdown, .fetchReply, .titleQuery, .ping, .input:
            violation(by: worker, "worker sent supervisor-only message \(message.tag)")
        }
    }

    private func saidHello(_ worker: WorkerProcess) {
        let now = Sys.monotonicNanoseconds()
        worker.helloAt = now
        log.emit("hello", view: worker.view?.id, pid: worker.pid, [
            ("spawnToHelloMs", JSON.milliseconds(now - worker.spawnedAt)),
        ])
        guard let view = worker.view else { return }
        setBand(.foreground, of: worker)
        send(.load(url: view.load.url), to: worker)
        log.emit("load", view: view.id, pid: worker.pid, [
            ("url", .string(view.load.url)), ("attempt", .int(view.load.recoveries)),
        ])
    }

    private func rendered(_ worker: WorkerProcess, title: String) {
        worker.rendered = true
        loop.cancel(worker.timer)
        guard let view = worker.view else { return }
        let load = view.load
        let first = load.renderedAt == nil
        let now = Sys.monotonicNanoseconds()
        if first { load.renderedAt = now }
        log.emit("render", view: view.id, pid: worker.pid, [
            ("title", .string(title)), ("timeToVisibleMs", JSON.milliseconds(now - load.startedAt)),
            ("first", .bool(first)),
        ])
        loop.cancel(view.dwellTimer)
        guard configuration.dwellNanoseconds > 0 else { return endLoad(view) }
        view.dwellTimer = loop.schedule(afterNanoseconds: configuration.dwellNanoseconds) { [weak self, weak view] in
            guard let self, let view, !view.closed else { return }
            endLoad(view)
        }
    }

    // MARK: - Death and recovery

    private func died(_ worker: WorkerProcess) {
        guard let (code, status) = try? worker.reap() else { return }
        loop.unwatch(nil, token: worker.pidfdToken)
        closeChannel(of: worker)
        loop.cancel(worker.timer)
        workers[worker.pid] = nil
        let termination = TerminationStatus.classify(
            code: code, status: status, saidHello: worker.helloAt != nil, verdict: worker.verdict)
        var fields: [(String, JSON)] = [("status", .string(termination.name))]
        switch termination {
        case .killed(let signal), .crashed(let signal): fields.append(("signal", .int(Int(signal))))
        case .abnormal(let code): fields.append(("code", .int(Int(code))))
        case .launchFailed(let reason), .protocolViolation(let reason): fields.append(("reason", .string(reason)))
        case .normal, .unresponsive: break
        }
        fields += [
            ("rendered", .bool(worker.rendered)),
            ("lifetimeMs", JSON.milliseconds(Sys.monotonicNanoseconds() - worker.spawnedAt)),
        ]
        log.emit("death", view: worker.view?.id, pid: worker.pid, fields)
        if let view = worker.view, !view.closed {
            view.worker = nil
            worker.view = nil
            recover(view, after: termination)
        }
    }

    private func recover(_ view: View, after status: TerminationStatus) {
        guard !stopping else { return }
        let load = view.load
        let policy = configuration.policy
        guard load.recoveries < policy.maxRecoveries else {
            log.emit("give-up", view: view.id, [("load", .int(load.index)), ("recoveries", .int(load.recoveries))])
            return endLoad(view)
        }
        load.recoveries += 1
        log.emit("recovery", view: view.id, [
            ("kind", .string(policy.recovery.rawValue)), ("after", .string(status.name)),
            ("attempt", .int(load.recoveries)),
        ])
        switch policy.recovery {
        case .reload:
            loop.soon { [unowned self] in startWorker(for: view) }
        case .rebuild:
            closeView(view)
            loop.soon { [unowned self] in openView(for: load) }
        }
    }
}

/// A small, fast, seedable generator: every run with the same seed makes the same choices.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
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
