import Events
import Glibc
import Process
import System
import WireProtocol
import Vocabulary

/// Workers: launched, adopted by a view, banded by priority, told to load, shut down or killed.
extension Supervisor {
    package func startWorker(for view: View) {
        guard !stopping else { return }
        guard let worker = launchWorker(for: view) else {
            // A view the process limit keeps waiting gets its worker later; any other failure ends this one.
            guard !waitsForProcess(view) else { return }
            return terminated(view, .launchFailed(reason: "see the death event"), reason: .crash, pid: nil, crash: true)
        }
        adopt(worker, into: view)
    }

    /// A running, watched worker, or nil after logging why there is none.
    func launchWorker(for view: View? = nil) -> Worker? {
        guard roomForWorker(for: view) else { return nil }
        let worker: Worker
        do {
            worker = Worker(try launcher.launch(), limits: settings.conversationLimits)
        } catch {
            log.emit(.launchFailed(reason: error.description), view: view?.id)
            if error.underlying.errno == EAGAIN {
                refusedProcess(for: view)
            } else if let limit = Self.limitReached(error.underlying.errno) {
                abort(because: "cannot start a worker: \(limit)")
            } else {
                launchFailed(error.description)
            }
            return nil
        }
        watch(worker)
        return worker
    }

    /// Registers a worker and starts hearing from it: its messages, its exit, its liveness and its memory.
    func watch(_ worker: Worker) {
        register(worker)
        do {
            try worker.handle.watch(
                readable: { [unowned self, unowned worker] in received(from: worker) },
                exited: { [unowned self, unowned worker] in reapIfExited(worker) })
        } catch {
            kill(worker, because: "cannot watch worker: \(error)", verdict: .launchFailed(reason: error.description))
        }
        watchLiveness(of: worker)
        watchMemory(of: worker)
    }

    /// What a launch that failed for want of descriptors or memory ran into: the machine's limit, not the worker
    /// binary's fault, and not something another try will get past. (Processes are another matter: see
    /// `refusedProcess`.)
    static func limitReached(_ errno: Int32) -> String? {
        switch errno {
        case EMFILE: "this process may open no more descriptors (ulimit -n: \(Sys.descriptorLimit()))"
        case ENFILE: "the system may open no more files (fs.file-max)"
        case ENOMEM: "out of memory"
        default: nil
        }
    }

    /// Gives `view` its worker, which is sent the view's load once it has said hello; a worker taken back that
    /// shows `page` already is sent nothing.
    func adopt(_ worker: Worker, into view: View, showing page: WorkerClaim? = nil) {
        worker.view = view
        worker.load = view.load
        view.worker = worker
        worker.views += 1
        workerServes(worker, view)
        // What a reused worker's last page sent unasked says nothing of this one: a flood is counted per page.
        step(worker, .newPage)
        if let page {
            adoptShowing(page, worker, into: view)
        } else {
            log.emit(.spawn(load: view.load.index, reused: worker.views > 1), view: view.id, pid: worker.pid)
        }
        setBand(band(for: worker), of: worker)
        watchCPU(of: worker)
        guard page == nil else { return settleReclaim(of: worker) }
        if worker.conversation.saidHello { sendLoad(to: worker, of: view) }
    }

    /// The band a worker should be in: foreground while its view is in the window; the policy's launch band while
    /// its view is about to be; the policy's hidden band while its view is a hidden tab. A cached worker on its way
    /// to a view is already in that view's band.
    func band(for worker: Worker) -> PriorityBand {
        if worker.conversation.suspension == .suspended { return .suspended }
        guard let view = worker.view ?? cache.destination(of: worker) else {
            if cache.entry(of: worker) != nil { return .cached }
            return spares.contains { $0 === worker } ? .spare : .background
        }
        guard view.visible else { return policy.hiddenBand }
        return view.attached ? .foreground : policy.launchBand
    }

    /// Gives a worker that said hello what its view's load is to show.
    func sendLoad(to worker: Worker, of view: View) {
        if view.nextStart == .currentItem, view.currentItem == nil {
            // WebKit's reload of a page that never committed: a new process, and nothing to load in it.
            return log.emit(.noItemToReload, view: view.id, pid: worker.pid)
        }
        let start = view.load.client.start(worker, in: view)
        start.messages.forEach { send($0, to: worker) }
        if start.restores, let url = start.url { view.currentItem = url }
        guard let url = start.url else { return view.load.client.nothingToLoad(view) }
        watchLiveness(of: worker)
        log.emit(.load(url: url, attempt: view.load.recoveries), view: view.id, pid: worker.pid)
    }

    /// Sends a navigation to `worker`: its page is loading again, and what it sends unasked is counted afresh.
    package func navigate(_ worker: Worker, _ message: ToWorker) {
        worker.rendered = false
        step(worker, .newPage)
        send(message, to: worker)
        watchLiveness(of: worker)
    }

    func shutDown(_ worker: Worker) {
        guard !worker.reaped else { return }
        resume(worker)
        log.emit(.shutdown, view: worker.view?.id, pid: worker.pid)
        step(worker, .shutDown)
        clock.cancel(worker.timer)
        worker.timer = clock.schedule(afterNanoseconds: settings.shutdownGraceNanoseconds) { [weak self, weak worker] in
            guard let self, let worker else { return }
            kill(worker, because: "did not exit after shutdown", verdict: .unresponsive)
        }
    }

    func kill(_ worker: Worker, because reason: String, verdict: TerminationStatus) {
        step(worker, .kill(reason: reason, verdict: verdict))
    }

    /// Kills `worker` for going over one of the policy's limits, once `finding` is logged: its death carries `reason`.
    func kill(_ worker: Worker, over finding: SupervisorEvent, for reason: TerminationReason, because why: String) {
        log.emit(finding, view: worker.view?.id, pid: worker.pid)
        worker.endedFor = reason
        kill(worker, because: why, verdict: .killed(signal: SIGKILL))
    }
}
