import Browser
import Core
import Events
import Glibc
import Killer
import ProcFS
import Process
import Replay
import Text
import Vocabulary

/// A replayed incident: its load's view attaches, and its first worker dies, at the incident's moments, each drawn
/// by the seed within the interval the evidence left. Moments after the incident's launch are replayed after the view
/// is created, when its worker is launched (or, under a policy with spares, taken). The load stays open until its
/// death has come.
extension Simulation {
    /// The incident's moments for load `index`, in nanoseconds after the view's creation: when its view attaches and
    /// when its first worker dies, each drawn by the seed within its span. A death before attach stays before it:
    /// the death is drawn again before the attach, or, when its whole span is later, the attach waits for it.
    func moments(of incident: ReplayIncident, load index: Int) -> (attach: Int, death: Int) {
        var attach = incident.attach.at(schedule.uniform(.attachDelay, load: index))
        let draw = schedule.uniform(.replayDeath, load: index)
        var death = incident.death.at(draw)
        if incident.diesBeforeAttach, death >= attach {
            if incident.death.lowMs < attach {
                death = incident.death.lowMs + (attach - incident.death.lowMs) * draw
            } else {
                attach = death + Self.beforeAttachMs
            }
        }
        return (Int(attach * 1e6), Int(death * 1e6))
    }

    /// How long before its view attaches a death that must come first comes at the latest, when nothing else says.
    static let beforeAttachMs = 0.05

    func replay(_ incident: ReplayIncident, in view: View) {
        let moments = moments(of: incident, load: view.load.index)
        let at = view.createdAt + moments.death
        let load = ObjectIdentifier(view.load)
        replayDeaths[load] = at
        // A death in a background band after the view attached came when the user had left the view (another
        // screen, another app): it is hidden before the death and shown again after, as the user came back to it.
        // Left on screen, its worker would meet the kill in the foreground, which the device never did.
        if [.background, .hidden, .suspended].contains(incident.band), moments.death > moments.attach {
            let leaves = max(view.createdAt + moments.attach, at - Self.leftBeforeDeath)
            view.timers.append(clock.schedule(at: leaves) { [weak self, weak view] in
                guard let self, let view, !view.closed, view.visible else { return }
                supervisor.hide(view)
            })
            view.timers.append(clock.schedule(at: at + Self.backAfterDeath) { [weak self, weak view] in
                guard let self, let view, !view.closed, !view.visible else { return }
                supervisor.show(view)
            })
        }
        view.timers.append(clock.schedule(at: at) { [weak self, weak view] in
            guard let self else { return }
            replayDeaths[load] = nil
            // A cached worker still on its way to the view is the incident's worker.
            guard let view, !view.closed, let worker = view.worker ?? supervisor.handingOut(to: view), !worker.reaped
            else { return }
            replayDeath(of: worker, incident)
        })
    }

    /// How long before a background death the user left its view.
    static let leftBeforeDeath = 1_000_000
    /// How long after it the user came back.
    static let backAfterDeath = 10_000_000

    /// The incident's death, as the device dealt it. A kill goes where Jetsam would send it (`Killer`, the rule
    /// natural mode's Jetsam follows): to the lowest-ranked of the incident's worker and the spares waiting for a
    /// view (the other replayed loads are other moments of the device, not beside this one). When none of those
    /// ranks lower, a worker the policy protected from the killer (foreground or boosted) is spared, as an
    /// injected race spares it: the device's killer, which took a process it ranked low, had lower ones than
    /// that to take. A kill the device dealt in the foreground, or for the process's own memory limit, takes the
    /// incident's worker whatever its band. A crash and a hang spare no one.
    func replayDeath(of worker: Worker, _ incident: ReplayIncident) {
        let kind: FaultKind =
            switch incident.cause {
            case .kill: .replayKill
            case .crash: .replayCrash
            case .hang: .replayHang
            case .unknown: .replayUnknown
            }
        let adjust = Int(worker.handle.oomScoreAdjust() ?? 0)
        let view = supervisor.viewOrDestination(of: worker)
        switch incident.cause {
        case .kill, .unknown:
            let ownLimit = incident.band == .foreground || incident.killedForItsOwnLimit
            if !ownLimit, let other = lowerRanked(than: worker) {
                log.emit(.injectSpared(kind: kind, oomScoreAdj: adjust), view: view?.id, pid: worker.pid)
                log.emit(.inject(kind: kind, oomScoreAdj: Int(other.handle.oomScoreAdjust() ?? 0)), pid: other.pid)
                other.handle.signal(SIGKILL, by: .injection)
                return supervisor.collectDeath(of: other)
            }
            if !ownLimit, worker.band?.isProtected == true {
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

    /// The spare the killer would take before `worker`, if one ranks lower; nil when `worker` is its victim.
    func lowerRanked(than worker: Worker) -> Worker? {
        let spares = supervisor.waitingSpares.filter { $0 !== worker }
        let ranked = ([worker] + spares).compactMap { worker -> (Worker, Killer.Candidate)? in
            guard let stat = ProcFS.stat(.pid(worker.pid)), stat.isLive, let adjust = ProcFS.oomScoreAdjust(worker.pid)
            else { return nil }
            let candidate = Killer.Candidate(
                pid: worker.pid, oomScoreAdjust: adjust, nice: stat.nice, residentBytes: stat.residentPages * Self.pageSize)
            return (worker, candidate)
        }
        guard let victim = Killer.victim(among: ranked.map(\.1)), victim.pid != worker.pid else { return nil }
        return ranked.first { $0.1.pid == victim.pid }?.0
    }

    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// How long a replayed load stays open once visible: until its incident's death has come, so that a death after
    /// render meets the page it would have found, and a recovery has its chance.
    func replayDwell(of load: Load) -> Int {
        guard let at = replayDeaths[ObjectIdentifier(load)] else { return configuration.dwellNanoseconds }
        return max(configuration.dwellNanoseconds, at - clock.now + Self.backAfterDeath + Self.afterDeath)
    }

    /// How long after the replayed death a load stays open at least: for its death to be seen.
    static let afterDeath = 50_000_000
}

extension ReplaySchedule {
    /// The incident load `index` replays.
    package func incident(forLoad index: Int) -> ReplayIncident? {
        incidents.isEmpty || index < 0 ? nil : incidents[index % incidents.count]
    }
}

/// The page each incident's load shows: one that is still rendering at the incident's death when the worker had not
/// rendered by then, one that renders at once when it had. The incident's id is its text, never its markup: the
/// schedule is a file from anywhere, and a page is what a worker obeys.
package enum ReplayPages {
    package static func url(forLoad index: Int, of schedule: ReplaySchedule) -> String {
        ContentProvider.origin + path(index % max(schedule.incidents.count, 1))
    }

    static func path(_ incident: Int) -> String { "replay/incident-\(incident + 1).html" }

    /// A provider of every incident's page.
    package static func provider(for schedule: ReplaySchedule) -> ContentProvider {
        ContentProvider(pages: schedule.incidents.enumerated().map { i, incident in
            // Not past a second: a death the evidence places anywhere in a long span must not make every recovered
            // page that slow.
            let renderMicros = incident.rendered == false ? Int(min(incident.death.highMs, 1000) * 1000) + 1000 : 0
            let html = "<html><head><title>Incident \(i + 1)</title>"
                + "<meta name=\"x-render\" content=\"cpu=\(renderMicros)us\"></head><body>\(markupText(incident.id))</body></html>"
            return (path(i), html)
        })
    }
}
