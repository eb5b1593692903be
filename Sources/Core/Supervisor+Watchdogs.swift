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
            guard let self, let worker else { return }
            step(worker, .livenessDue(serving: worker.view != nil))
        }
    }

    /// WebKit's responsiveness timer, armed when the conversation says an answer is owed: a worker that says
    /// nothing for the whole timeout (stopped, spinning, or not reading its input) is killed as `unresponsive`.
    func expectAnswer(from worker: Worker) {
        clock.cancel(worker.hangTimer)
        worker.hangTimer = clock.schedule(afterNanoseconds: settings.hangTimeoutNanoseconds) { [weak self, weak worker] in
            guard let self, let worker else { return }
            worker.hangTimer = nil
            step(worker, .answerOverdue)
        }
    }
}
