import Events
import Glibc
import Vocabulary

/// The policy's limit on live workers, as WebKit limits its WebContent processes (`s_maxProcessCount`, 400, in
/// WebProcessProxy.cpp): a launch at the limit first clears the process cache, then terminates the least recently
/// used process with ExceededProcessCountLimit. Here a launch for a view first ends workers already on their way
/// out, then cached ones, then spares, then the worker of the hidden view shown least recently; never a visible view's, so with none
/// left to end, the view waits for a worker to end, as when the kernel refuses a process. A spare is not launched
/// at the limit.
extension Supervisor {
    /// Workers alive: launched, and their exit not collected.
    var liveWorkers: Int { workers.values.reduce(0) { $0 + ($1.reaped ? 0 : 1) } }

    /// Whether a worker may be launched for `view` (nil: a spare), after ending others to make room if need be.
    func roomForWorker(for view: View?) -> Bool {
        let limit = policy.maxWorkers
        guard limit > 0 else { return true }
        while liveWorkers >= limit {
            guard let view else {
                log.emit(.processCountLimit(live: liveWorkers, limit: limit))
                noSpareReason = .processLimit
                return false
            }
            guard let victim = countLimitVictim() else {
                log.emit(.processCountLimit(live: liveWorkers, limit: limit), view: view.id)
                if !waitsForProcess(view) { waitingForProcess.append(view) }
                return false
            }
            let finding = SupervisorEvent.processCountLimit(live: liveWorkers, limit: limit)
            if cache.entry(of: victim) != nil {
                // WebKit clears its process cache first: a cached worker ends idle.
                log.emit(finding, pid: victim.pid)
                evict(victim, .processCountLimit)
            } else {
                // One already told to exit only has its exit hurried: it still ends idle.
                let leaving = victim.conversation.toldToExit
                kill(victim, over: finding, for: leaving ? .idleExit : .exceededProcessCountLimit,
                     because: "over the process-count limit")
            }
            // Gone before the launch: the limit holds for the kernel's count too, not only for ours.
            collectDeath(of: victim)
        }
        return true
    }

    /// The worker ended to make room: one already shutting down, then the oldest cached, then a spare, then that of
    /// the hidden view shown least recently (a tab never shown before any shown, the oldest first) among those whose
    /// page rendered in an attached view, whose app is told and whose page can come back; a load still under way is
    /// never cut short.
    private func countLimitVictim() -> Worker? {
        let alive = workers.values.filter { !$0.reaped && $0.verdict == nil }
        if let leaving = alive.first(where: { $0.view == nil && $0.conversation.toldToExit }) { return leaving }
        // A cached worker, the oldest first, then one still being checked; never one on its way to a view.
        let idle = cache.entries.filter {
            !$0.worker.reaped && $0.worker.verdict == nil && cache.destination(of: $0.worker) == nil
        }
        if let cached = idle.first(where: { $0.checkPing == nil }) ?? idle.first { return cached.worker }
        if let spare = spares.first(where: { !$0.reaped && $0.verdict == nil }) { return spare }
        let hidden = alive.compactMap { worker in
            worker.view.flatMap { !$0.visible && $0.attached && worker.rendered ? ($0, worker) : nil }
        }
        return hidden.min {
            ($0.0.lastShownAt ?? Int.min, $0.0.createdAt) < ($1.0.lastShownAt ?? Int.min, $1.0.createdAt)
        }?.1
    }
}
