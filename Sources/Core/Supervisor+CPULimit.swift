import Events
import Process
import Vocabulary

/// The background CPU limit of a policy that sets one, as WebKit's CPU monitor keeps it: while a worker's view is
/// hidden, its CPU time is averaged over the policy's window (WebKit: 8 minutes), begun again whenever the view is
/// shown or hidden, so that time on screen never counts (`WebProcess::updateCPUMonitorState`). A window that ends
/// over the limit with the view still hidden kills the worker for `ExceededCPULimit`, as
/// `WebProcessProxy::didExceedCPULimit` terminates a process with no visible page. A worker without a view has no
/// limit, as a WebKit process without pages has none.
extension Supervisor {
    /// Ends `worker`'s window, if it had one, and begins another if its view is hidden.
    func watchCPU(of worker: Worker) {
        clock.cancel(worker.cpuWindowEnd)
        worker.cpuWindowEnd = nil
        guard policy.cpuLimitPercent > 0, let view = worker.view, !view.visible, !view.closed, worker.channelOpen,
            let used = worker.handle.cpuNanoseconds()
        else { return }
        let began = clock.now
        worker.cpuWindowEnd = clock.schedule(afterNanoseconds: policy.cpuWindowNanoseconds) { [weak self, weak worker] in
            guard let self, let worker else { return }
            worker.cpuWindowEnd = nil
            endWindow(of: worker, began: began, used: used)
        }
    }

    private func endWindow(of worker: Worker, began: Int, used: Int) {
        // A worker that cannot be read is exiting: its death comes next.
        guard worker.channelOpen, let view = worker.view, !view.visible, let now = worker.handle.cpuNanoseconds() else { return }
        let window = clock.now - began
        let percent = Double(now - used) * 100 / Double(max(1, window))
        guard percent > Double(policy.cpuLimitPercent) else { return watchCPU(of: worker) }
        let shown = (percent * 10).rounded() / 10
        let limit = policy.cpuLimitPercent
        kill(
            worker, over: .cpuLimit(usedPercent: shown, limitPercent: limit, windowMs: window / 1_000_000),
            for: .exceededCPULimit, because: "\(shown)% of a CPU while hidden, over the \(limit)% limit")
    }
}
