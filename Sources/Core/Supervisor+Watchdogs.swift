import Events
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
    /// nothing for the whole timeout (stopped, spinning, or not reading its input) is found `unresponsive`.
    func expectAnswer(from worker: Worker) {
        clock.cancel(worker.hangTimer)
        worker.hangTimer = clock.schedule(afterNanoseconds: settings.hangTimeoutNanoseconds) { [weak self, weak worker] in
            guard let self, let worker else { return }
            worker.hangTimer = nil
            step(worker, .answerOverdue)
        }
    }

    /// The worker owed an answer for the whole hang timeout: the policy chooses. WebKit itself kills no WebContent
    /// process for it (`WebProcessProxy::didBecomeUnresponsive` tells its pages); Android asks the app.
    func unresponsive(_ worker: Worker) {
        if cachedWorkerUnresponsive(worker) { return }
        worker.unresponsiveAt = clock.now
        log.emit(.unresponsive(timeoutMs: settings.hangTimeoutNanoseconds / 1_000_000), view: worker.view?.id, pid: worker.pid)
        switch policy.unresponsive {
        case .kill:
            step(worker, .stillUnresponsive(waitedMs: 0))
        case .wait(let nanoseconds):
            worker.hangTimer = clock.schedule(afterNanoseconds: nanoseconds) { [weak self, weak worker] in
                guard let self, let worker else { return }
                worker.hangTimer = nil
                step(worker, .stillUnresponsive(waitedMs: nanoseconds / 1_000_000))
            }
        case .reload:
            // The view lets the worker go before it dies: a new one reloads the view, and the death is no news to it.
            let view = worker.view.flatMap { $0.worker === worker && !$0.closed ? $0 : nil }
            view?.worker = nil
            worker.endedFor = .requestedByClient
            step(worker, .stillUnresponsive(waitedMs: 0))
            if let view { recover(view, .reload, because: .unresponsive, crash: true) }
        case .ignore:
            break
        }
    }

    /// A worker found unresponsive answered after all.
    func responsive(_ worker: Worker) {
        guard let since = worker.unresponsiveAt else { return }
        log.emit(.responsive(afterMs: milliseconds(clock.now - since)), view: worker.view?.id, pid: worker.pid)
    }
}
