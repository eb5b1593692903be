/// Timers that watch for trouble: the blank watchdog's title probe, and the liveness pings of busy workers.
extension Host {
    /// The field app's 3 s timer: an empty title means a blank view, whatever the process is doing.
    func watchTitle(of view: View) {
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

    func blankDetected(_ view: View) {
        guard let recovery = policy.onBlank, !view.closed else { return }
        log.emit("watchdog", view: view.id, pid: view.worker?.pid, [("title", .string(""))])
        recover(view, recovery, because: "blank")
    }

    func deadChannel(_ view: View, _ message: String) {
        log.emit("dead-channel-send", view: view.id, pid: view.worker?.pid, [("message", .string(message))])
    }

    /// Pings a busy worker every interval. A worker that has not said hello by the first check, or has not
    /// answered the previous ping by the next, is killed. Idle workers are not pinged, so an idle supervisor
    /// has no timers and never wakes.
    func watchLiveness(of worker: WorkerProcess) {
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
}
