import Glibc
import Process
import System
import Text
import WireProtocol

/// Workers: launched, adopted by a view, banded by priority, told to load, shut down or killed.
extension Host {
    func startWorker(for view: View) {
        guard !stopping else { return }
        guard let worker = launchWorker(for: view) else {
            terminated(view, .launchFailed(reason: "see the death event"), pid: nil)
            return
        }
        adopt(worker, into: view)
    }

    /// A running, watched worker, or nil after logging why there is none.
    func launchWorker(for view: View? = nil) -> WorkerProcess? {
        let worker: WorkerProcess
        do {
            worker = try launcher.launch()
        } catch {
            log.emit(.launchFailed(reason: error.description), view: view?.id)
            if let limit = Self.limitReached(error.underlying.errno) {
                abort(because: "cannot start a worker: \(limit)")
            } else {
                launchFailed(error.description)
            }
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

    /// What a launch that failed for want of descriptors, processes or memory ran into: the machine's limit, not
    /// the worker binary's fault, and not something another try will get past.
    static func limitReached(_ errno: Int32) -> String? {
        switch errno {
        case EMFILE: "this process may open no more descriptors (ulimit -n: \(Sys.descriptorLimit()))"
        case ENFILE: "the system may open no more files (fs.file-max)"
        case EAGAIN: "the system refused a new process (ulimit -u, or the kernel's limit)"
        case ENOMEM: "out of memory"
        default: nil
        }
    }

    func adopt(_ worker: WorkerProcess, into view: View) {
        worker.view = view
        view.worker = worker
        worker.views += 1
        // What a reused worker's last page sent unasked says nothing of this one: a flood is counted per page.
        worker.unsolicited = 0
        log.emit(.spawn(load: view.load.index, reused: worker.views > 1), view: view.id, pid: worker.pid)
        setBand(band(for: worker), of: worker)
        if worker.helloAt != nil { sendLoad(to: worker, of: view) }
    }

    /// The band a worker should be in: foreground while its view is in the window; the policy's launch band while
    /// its view is about to be; the policy's hidden band while its view is a hidden tab.
    func band(for worker: WorkerProcess) -> PriorityBand {
        guard let view = worker.view else { return .background }
        guard view.visible else { return policy.hiddenBand }
        return view.attached ? .foreground : policy.launchBand
    }

    /// Moves `worker` to `band` if it is not there already. With `assertion`, the band is applied even if it
    /// seems current: that is the foreground assertion a view takes when it enters the window, and the call that
    /// finds out a process is gone.
    func setBand(_ band: PriorityBand, of worker: WorkerProcess, assertion: Bool = false) {
        guard assertion || worker.band != band else { return }
        let result = configuration.bands.apply(band, to: worker.pid)
        if result == .applied { worker.band = band }
        var rbs: String?
        switch result {
        case .noSuchProcess where band == .foreground:
            rbs = rbsTargetMissingLine
        case .denied(let error) where !warnedPriorityDenied:
            warnedPriorityDenied = true
            printError("supervisor: warning: cannot change worker priority (\(error)); continuing without it")
        default:
            break
        }
        log.emit(
            .priority(
                band: band.rawValue, nice: Int(configuration.bands.nice(band)),
                oomScoreAdj: Int(configuration.bands.oomScoreAdjust(band)), result: result.name, rbs: rbs),
            view: worker.view?.id, pid: worker.pid)
    }

    func sendLoad(to worker: WorkerProcess, of view: View) {
        if let tab = view.load.tab {
            // A tab's new worker is given its whole history natively, not a page that rebuilds it (seed 002), in
            // pieces that each fit a frame however long the list and its URLs.
            let urls = tab.history.entries.map(\.url)
            let pieces = ToWorker.restorePieces(index: UInt32(max(tab.history.index, 0)), urls: urls)
            guard !urls.isEmpty else {
                pieces.forEach { send($0, to: worker) }
                return restoredEmpty(tab)
            }
            tab.restoring = true
            tab.pending = [.stay]
            pieces.forEach { send($0, to: worker) }
        } else {
            send(.load(url: view.load.url, replace: false), to: worker)
        }
        watchLiveness(of: worker)
        log.emit(.load(url: view.load.url, attempt: view.load.recoveries), view: view.id, pid: worker.pid)
    }

    func shutDown(_ worker: WorkerProcess) {
        guard !worker.reaped else { return }
        log.emit(.shutdown, view: worker.view?.id, pid: worker.pid)
        worker.shutdownRequested = true
        send(.shutdown, to: worker)
        clock.cancel(worker.timer)
        heard(from: worker)
        worker.timer = clock.schedule(afterNanoseconds: configuration.shutdownGraceNanoseconds) { [weak self, weak worker] in
            guard let self, let worker, workers[worker.pid] === worker else { return }
            kill(worker, because: "did not exit after shutdown", verdict: .unresponsive)
        }
    }

    func kill(_ worker: WorkerProcess, because reason: String, verdict: TerminationStatus) {
        guard worker.verdict == nil else { return }
        worker.verdict = verdict
        log.emit(.kill(reason: reason, verdict: verdict.name), view: worker.view?.id, pid: worker.pid)
        worker.signal(SIGKILL)
        closeChannel(of: worker)
    }
}
