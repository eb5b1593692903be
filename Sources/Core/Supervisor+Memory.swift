import Events
import Process
import Vocabulary

/// The memory limit of a policy that sets one: each worker's resident memory is read from /proc while it lives, it
/// is warned once past the policy's share of the limit, and killed past the limit, as WebKit ends a WebContent
/// process for `ExceededMemoryLimit` after telling its pages at footprint thresholds. How long before the kill the
/// warning came is logged with it.
extension Supervisor {
    func watchMemory(of worker: Worker) {
        guard policy.memoryLimitBytes > 0 else { return }
        clock.cancel(worker.memoryTimer)
        worker.memoryTimer = clock.schedule(afterNanoseconds: settings.memorySampleNanoseconds) { [weak self, weak worker] in
            guard let self, let worker, worker.channelOpen else { return }
            readMemory(of: worker)
        }
    }

    private func readMemory(of worker: Worker) {
        // A worker that cannot be read is exiting: its death comes next.
        guard let resident = worker.handle.residentBytes() else { return }
        let limit = policy.memoryLimitBytes
        if resident > limit {
            let lead = worker.memoryWarnedAt.map { milliseconds(clock.now - $0) }
            return kill(
                worker, over: .memoryLimit(residentBytes: resident, limitBytes: limit, warnedMsBefore: lead),
                for: .exceededMemoryLimit, because: "\(resident >> 10) KiB resident, over the \(limit >> 10) KiB limit")
        }
        if worker.memoryWarnedAt == nil, resident * 100 >= limit * policy.memoryWarningPercent {
            worker.memoryWarnedAt = clock.now
            log.emit(.memoryWarning(residentBytes: resident, limitBytes: limit), view: worker.view?.id, pid: worker.pid)
        }
        watchMemory(of: worker)
    }
}
