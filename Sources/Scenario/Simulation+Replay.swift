import Browser
import Core
import Events
import Glibc
import Process
import Replay

/// A replayed incident: its load's view attaches, and its first worker dies, at the incident's moments, each drawn
/// by the seed within the interval the evidence left. Moments after the incident's launch are replayed after the view
/// is created, when its worker is launched (or, under a policy with spares, taken).
extension Simulation {
    func replay(_ incident: ReplayIncident, in view: View) {
        let index = view.load.index
        let attachMs = Double(view.attachAt - view.createdAt) / 1e6
        var death = incident.death
        // A kill before render, or a process gone when raised, died before its view attached: that is the incident.
        if incident.diesBeforeAttach, death.lowMs < attachMs {
            death = ReplayIncident.Span(lowMs: death.lowMs, highMs: min(death.highMs, attachMs)) ?? death
        }
        let at = view.createdAt + Int(death.at(schedule.uniform(.replayDeath, load: index)) * 1e6)
        view.timers.append(clock.schedule(at: at) { [weak self, weak view] in
            guard let self, let view, !view.closed, let worker = view.worker, !worker.reaped else { return }
            replayDeath(of: worker, incident)
        })
    }

    /// The incident's death, as the device dealt it: a kill spares only a worker in the foreground band (a process the
    /// app has raised; a boosted one is protected from Linux's OOM killer, not from a kill the device dealt); a crash
    /// and a hang spare no one.
    func replayDeath(of worker: Worker, _ incident: ReplayIncident) {
        let kind = "replay-\(incident.cause.rawValue)"
        let adjust = Int(worker.handle.oomScoreAdjust() ?? 0)
        let view = worker.view
        switch incident.cause {
        case .kill, .unknown:
            guard worker.band != .foreground else {
                return log.emit(.injectSpared(kind: kind, oomScoreAdj: adjust), view: view?.id, pid: worker.pid)
            }
            log.emit(.inject(kind: kind, oomScoreAdj: adjust), view: view?.id, pid: worker.pid)
            worker.handle.signal(SIGKILL, by: .injection)
            supervisor.collectDeath(of: worker)
        case .crash:
            log.emit(.inject(kind: kind, oomScoreAdj: adjust), view: view?.id, pid: worker.pid)
            worker.handle.signal(SIGSEGV, by: .injection)
            supervisor.collectDeath(of: worker)
        case .hang:
            log.emit(.inject(kind: kind, oomScoreAdj: adjust), view: view?.id, pid: worker.pid)
            worker.handle.signal(SIGSTOP, by: .injection)
        }
    }
}

extension ReplaySchedule {
    /// The incident load `index` replays.
    package func incident(forLoad index: Int) -> ReplayIncident? {
        incidents.isEmpty || index < 0 ? nil : incidents[index % incidents.count]
    }
}

extension ReplayIncident {
    /// Whether the incident is a death before the view attached.
    var diesBeforeAttach: Bool { kind == "killed-before-render" || kind == "gone-when-raised" }
}

/// The page each incident's load shows: one that is still rendering at the incident's death when the worker had not
/// rendered by then, one that renders at once when it had.
package enum ReplayPages {
    package static func url(forLoad index: Int, of schedule: ReplaySchedule) -> String {
        ContentProvider.origin + path(index % max(schedule.incidents.count, 1))
    }

    static func path(_ incident: Int) -> String { "replay/incident-\(incident + 1).html" }

    /// A provider of every incident's page.
    package static func provider(for schedule: ReplaySchedule) -> ContentProvider {
        ContentProvider(pages: schedule.incidents.enumerated().map { i, incident in
            let renderMicros = incident.rendered == false ? Int(incident.death.highMs * 1000) + 1000 : 0
            let html = "<html><head><title>Incident \(i + 1)</title>"
                + "<meta name=\"x-render\" content=\"cpu=\(renderMicros)us\"></head><body>\(incident.id)</body></html>"
            return (path(i), html)
        })
    }
}
