/// The pool of spare workers: launched ahead, and taken by the next view of any site.
extension Supervisor {
    /// The spares waiting for a view: workers a killer may take before any view's.
    package var waitingSpares: [Worker] { spares.filter { !$0.reaped } }

    /// Launches a spare if fewer than the policy's wait, in the spare band since it serves no one yet.
    func replenishSpare() {
        guard spares.count < policy.spareWorkers, !stopping, moreViewsComing() else { return }
        // What the next view is told if this launch fails: none was created, or the kernel refused it, which
        // `refusedProcess` says.
        noSpareReason = .notYetCreated
        guard let worker = launchWorker() else { return }
        spares.append(worker)
        log.emit(.spare(reused: false), pid: worker.pid)
        setBand(band(for: worker), of: worker)
    }

    /// Gives `view` the most recently launched live spare, or says why none waits: the accounting Chromium keeps for
    /// every navigation. A new spare is launched only once the view that took the last has rendered, so that the
    /// launch never competes with the load it was meant to speed up.
    func takeSpare(for view: View) -> Worker? {
        while let worker = spares.popLast() {
            reapIfExited(worker)
            if !worker.reaped {
                if spares.isEmpty { noSpareReason = .takenByPreviousLoad }
                log.emit(.spareTaken(ready: worker.conversation.saidHello), view: view.id, pid: worker.pid)
                return worker
            }
            // Popped before its death was handled, which therefore finds it in no pool.
            if spares.isEmpty { noSpareReason = .processExited }
        }
        log.emit(.noSpare(reason: policy.spareWorkers == 0 ? .notEnabled : noSpareReason), view: view.id)
        return nil
    }

    /// Shuts down every spare and cached worker: no more views are coming.
    package func retireSpares() {
        let retired = spares
        spares = []
        retired.forEach(shutDown)
        clearCache()
    }
}
