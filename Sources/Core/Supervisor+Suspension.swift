import Events
import Glibc
import Process
import Vocabulary

/// Suspension, under a policy that suspends: a hidden view's worker with nothing left to do is told to prepare
/// (WebKit's `PrepareToSuspend`), then stopped with SIGSTOP once it answers or the supervisor's patience runs out
/// (WebKit's `processSuspensionTimeout`), and moved to the suspended band, which the killer takes first. Showing
/// the view lets it go on (SIGCONT, `ProcessDidResume`) before it is raised. No timer counts the time it spends
/// stopped: its liveness pings pause, and an answer owed is timed afresh from its resumption.
extension Supervisor {
    /// Suspends `view`'s worker after the policy's grace, if it is hidden then and has nothing to do.
    func suspendLater(_ view: View) {
        guard policy.suspends, !view.visible, !view.closed, view.worker != nil else { return }
        clock.cancel(view.suspension)
        view.suspension = clock.schedule(afterNanoseconds: policy.suspendAfterNanoseconds) { [weak self, weak view] in
            guard let self, let view else { return }
            view.suspension = nil
            prepareToSuspend(view)
        }
        view.timers.append(view.suspension!)
    }

    private func prepareToSuspend(_ view: View) {
        guard !view.visible, !view.closed, !stopping, let worker = view.worker, worker.channelOpen,
            worker.conversation.suspension == .running
        else { return }
        // A worker still loading, or owing an answer, is tried again after the grace.
        guard worker.rendered, worker.conversation.quiet() else { return suspendLater(view) }
        log.emit(.prepareToSuspend, view: view.id, pid: worker.pid)
        send(.prepareToSuspend, to: worker)
        worker.suspendTimer = clock.schedule(afterNanoseconds: settings.prepareToSuspendTimeoutNanoseconds) {
            [weak self, weak worker] in
            guard let self, let worker else { return }
            stop(worker, answered: false)
        }
    }

    /// The worker answered `prepareToSuspend`.
    func readyToSuspend(_ worker: Worker) {
        stop(worker, answered: true)
    }

    private func stop(_ worker: Worker, answered: Bool) {
        clock.cancel(worker.suspendTimer)
        worker.suspendTimer = nil
        guard worker.conversation.suspension == .preparing, worker.channelOpen else { return }
        // Shown, or given new work, meanwhile: it stays as it is.
        guard let view = worker.view, !view.visible, worker.conversation.quiet() else { return step(worker, .resumed) }
        worker.handle.signal(SIGSTOP, by: .supervisor)
        step(worker, .suspended)
        clock.cancel(worker.timer)
        worker.suspendedAt = clock.now
        setBand(.suspended, of: worker)
        log.emit(.suspended(answered: answered), view: view.id, pid: worker.pid)
    }

    /// Lets `worker` go on before its view is raised: SIGCONT, then `processDidResume`.
    func resume(_ worker: Worker) {
        switch worker.conversation.suspension {
        case .running: return
        case .preparing:
            clock.cancel(worker.suspendTimer)
            worker.suspendTimer = nil
            step(worker, .resumed)
        case .suspended:
            worker.handle.signal(SIGCONT, by: .supervisor)
            step(worker, .resumed)
            if let since = worker.suspendedAt {
                log.emit(.resumed(suspendedMs: milliseconds(clock.now - since)), view: worker.view?.id, pid: worker.pid)
            }
            send(.processDidResume, to: worker)
            watchLiveness(of: worker)
        }
    }
}
