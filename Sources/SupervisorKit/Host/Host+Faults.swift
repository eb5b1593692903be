import Glibc
import System

/// Injected faults, each exact and seeded: the kill-before-render race, and the kill after render.
extension Host {
    /// Kills the load's first worker inside the vulnerable window: after spawn, before attach, and only if it is
    /// at background priority, as jetsam would find it. Foreground workers are spared.
    func injectRace(into view: View) {
        // Timed against the view's own attach deadline, so the kill always lands inside the window, however long
        // the spawn took and however late the loop runs.
        let moment = 0.2 + 0.6 * schedule.uniform(.raceMoment, load: view.load.index)
        let at = view.createdAt + Int(Double(view.attachAt - view.createdAt) * moment)
        view.timers.append(clock.schedule(at: at) { [weak self, weak view] in
            guard let self, let view, !view.closed, !view.attached, let worker = view.worker, !worker.reaped else { return }
            injectKill(worker, view: view, kind: "race")
        })
    }

    /// Kills a hidden load's rendered worker while it is off screen (case 1: killed after render), halfway between
    /// its render and the moment it is shown.
    func injectKillAfterRender(into view: View) {
        let showAt = view.load.startedAt + configuration.hiddenNanoseconds
        let delay = max(0, showAt - clock.now) / 2
        view.timers.append(clock.schedule(afterNanoseconds: delay) { [weak self, weak view] in
            guard let self, let view, !view.closed, !view.visible, let worker = view.worker, worker.rendered,
                !worker.reaped
            else { return }
            injectKill(worker, view: view, kind: "kill-after-render")
        })
    }

    func injectKill(_ worker: WorkerProcess, view: View, kind: String) {
        let adjust = (try? Sys.oomScoreAdjust(worker.pid)) ?? 0
        guard adjust > configuration.bands.foregroundOOMScoreAdjust else {
            log.emit(.injectSpared(kind: kind, oomScoreAdj: Int(adjust)), view: view.id, pid: worker.pid)
            return
        }
        log.emit(.inject(kind: kind, oomScoreAdj: Int(adjust)), view: view.id, pid: worker.pid)
        worker.signal(SIGKILL, by: .injection)
        // An injected fault is exact: the process is gone before the host takes its next step, as it was on the
        // phone, where the kill came well before the view attached. After SIGKILL this wait is short and certain.
        if let (code, status) = try? worker.reap(wait: true) { died(worker, code: code, status: status) }
    }
}
