import Core
import Glibc
import Process
import Vocabulary

/// Injected faults, each exact and seeded: the kill-before-render race, and the kill after render.
extension Simulation {
    /// Kills the load's first worker inside the vulnerable window: after spawn, before attach, and only if it is
    /// at background priority, as jetsam would find it. Foreground workers are spared.
    func injectRace(into view: View) {
        // Timed against the view's own attach deadline, so the kill always lands inside the window, however long
        // the spawn took and however late the loop runs.
        let moment = 0.2 + 0.6 * schedule.uniform(.raceMoment, load: view.load.index)
        let at = view.createdAt + Int(Double(view.attachAt - view.createdAt) * moment)
        view.timers.append(clock.schedule(at: at) { [weak self, weak view] in
            // A cached worker still answering its ping on the way to the view is the one the kill is for: its
            // death is then a cache eviction, and the view gets another worker.
            guard let self, let view, !view.closed, !view.attached,
                let worker = view.worker ?? supervisor.handingOut(to: view), !worker.reaped
            else { return }
            injectKill(worker, kind: .race)
        })
    }

    /// Kills a hidden load's rendered worker while it is off screen (case 1: killed after render), halfway between
    /// its render and `showAt`, when it is shown.
    func injectKillAfterRender(into view: View, showAt: Int) {
        let delay = max(0, showAt - clock.now) / 2
        view.timers.append(clock.schedule(afterNanoseconds: delay) { [weak self, weak view] in
            guard let self, let view, !view.closed, !view.visible, let worker = view.worker, worker.rendered,
                !worker.reaped
            else { return }
            injectKill(worker, kind: .killAfterRender)
        })
    }

    /// A hidden load rendered: its worker is killed before the load is shown, if the seed says so, once per load.
    func renderedOffScreen(_ view: View) {
        let load = view.load
        guard !killsPlanned.contains(ObjectIdentifier(load)), schedule.happens(.kill, load: load.index, rate: configuration.killRate)
        else { return }
        killsPlanned.insert(ObjectIdentifier(load))
        injectKillAfterRender(into: view, showAt: load.startedAt + configuration.hiddenNanoseconds)
    }

    /// Kills `worker` as the OOM killer would, if it could take it (a foreground worker is spared), and has its
    /// death handled before the next step, as on the phone, where the kill came well before the view attached.
    func injectKill(_ worker: Worker, kind: FaultKind) {
        let view = supervisor.viewOrDestination(of: worker)
        let adjust = worker.handle.oomScoreAdjust() ?? 0
        guard adjust > OOMScores.foreground else {
            log.emit(.injectSpared(kind: kind, oomScoreAdj: Int(adjust)), view: view?.id, pid: worker.pid)
            return
        }
        log.emit(.inject(kind: kind, oomScoreAdj: Int(adjust)), view: view?.id, pid: worker.pid)
        worker.handle.signal(SIGKILL, by: .injection)
        supervisor.collectDeath(of: worker)
    }
}
