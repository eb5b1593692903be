/// The pool of spare workers: launched ahead, or parked from a closed view, and taken by the next view.
extension Supervisor {
    /// The spares waiting for a view: workers a killer may take before any view's.
    package var waitingSpares: [Worker] { spares.filter { !$0.reaped } }

    /// Launches a spare when none is left, at background priority since it serves no one yet.
    func replenishSpare() {
        guard policy.spareWorkers > 0, spares.isEmpty, !stopping, moreViewsComing(),
            let worker = launchWorker()
        else { return }
        spares.append(worker)
        log.emit(.spare(reused: false), pid: worker.pid)
        setBand(.background, of: worker)
    }

    /// Keeps a closed view's healthy worker as a spare, its page unloaded, if the policy reuses workers, there is
    /// room, and more loads are coming.
    func park(_ worker: Worker) -> Bool {
        guard policy.reuseWorkers, spares.count < policy.spareWorkers, !stopping, moreViewsComing(),
            worker.rendered, worker.channelOpen, worker.verdict == nil, !worker.reaped
        else { return false }
        clock.cancel(worker.timer)
        worker.rendered = false
        send(.unload, to: worker)
        // A parked worker must still be alive and answering when a view takes it.
        step(worker, .ping)
        spares.append(worker)
        log.emit(.spare(reused: true), pid: worker.pid)
        setBand(.background, of: worker)
        return true
    }

    /// The most recently parked live spare, if any. A new one is launched only once the view that took it has
    /// rendered, so that the launch never competes with the load it was meant to speed up.
    func takeSpare() -> Worker? {
        while let worker = spares.popLast() {
            reapIfExited(worker)
            if !worker.reaped { return worker }
        }
        return nil
    }

    package func retireSpares() {
        let retired = spares
        spares = []
        retired.forEach(shutDown)
    }
}
