import Process
import WireProtocol
import Vocabulary

/// Timers that watch for trouble: the blank watchdog's title probe, and the liveness pings of busy workers.
extension Supervisor {
    /// The 3 s title timer of the app whose field reports the project began from: an empty title means a blank view, whatever the process is doing.
    func watchTitle(of view: View) {
        let period = settings.watchdogNanoseconds ?? policy.watchdogNanoseconds
        view.titleCheck = clock.schedule(afterNanoseconds: period) { [weak self, weak view] in
            guard let self, let view, !view.closed, view.load.visibleAt == nil else { return }
            watchTitle(of: view)
            guard view.title.isEmpty else { return }
            if let worker = view.worker, !worker.reaped, worker.channelOpen {
                send(.titleQuery(id: UInt32(view.id)), to: worker)
            } else {
                deadChannel(view, .titleQuery)
                blankDetected(view)
            }
        }
        view.timers.append(view.titleCheck!)
    }

    func blankDetected(_ view: View) {
        guard policy.detect.byWatchdog, !view.closed else { return }
        log.emit(.watchdog(title: ""), view: view.id, pid: view.worker?.pid)
        if let recovery = policy.recover { recover(view, recovery, because: .blank) }
    }

    func deadChannel(_ view: View, _ message: ViewRequest) {
        log.emit(.deadChannelSend(message: message), view: view.id, pid: view.worker?.pid)
    }

    /// Pings a busy worker every interval, so that a hung one is found even when nothing else is asked of it; a
    /// worker that has not said hello by the first check is killed as a failed launch. Idle workers are not
    /// pinged, so an idle supervisor has no timers and never wakes.
    func watchLiveness(of worker: Worker) {
        clock.cancel(worker.timer)
        worker.timer = clock.schedule(afterNanoseconds: settings.pingIntervalNanoseconds) { [weak self, weak worker] in
            guard let self, let worker, workers[worker.pid] === worker else { return }
            if case .killed = worker.stage {
                return
            } else if worker.helloAt == nil {
                let reason = "no hello within \(settings.pingIntervalNanoseconds / 1_000_000) ms"
                kill(worker, because: reason, verdict: .launchFailed(reason: reason))
            } else if worker.view != nil {
                worker.lastPing += 1
                send(.ping(seq: worker.lastPing), to: worker)
                watchLiveness(of: worker)
            }
        }
    }

    /// WebKit's responsiveness timer: started when the supervisor sends something that needs an answer (a ping, a
    /// load, a title probe, typed input), stopped by any message from the worker. A worker that says nothing for
    /// the whole timeout (stopped, spinning, or not reading its input) is killed as `unresponsive`.
    func expectAnswer(from worker: Worker) {
        guard worker.hangTimer == nil, worker.channelOpen else { return }
        worker.hangTimer = clock.schedule(afterNanoseconds: settings.hangTimeoutNanoseconds) { [weak self, weak worker] in
            guard let self, let worker, workers[worker.pid] === worker else { return }
            worker.hangTimer = nil
            kill(worker, because: "no answer within \(settings.hangTimeoutNanoseconds / 1_000_000) ms", verdict: .unresponsive)
        }
    }

    func heard(from worker: Worker) {
        clock.cancel(worker.hangTimer)
        worker.hangTimer = nil
    }
}
