import Events
import Process
import Text
import Vocabulary

/// What a run amounted to, computed only from its events.
public final class RunSummary {
    public let policy: String
    public private(set) var loads = 0
    public private(set) var rendered = 0
    public private(set) var blank = 0
    /// Loads that ended on an error page: a failed navigation, or a crash loop.
    public private(set) var failed = 0
    /// Loads that ended without content before anyone looked at them (hidden tabs): no one's wait.
    public private(set) var lostHidden = 0
    /// Worker processes launched, for a view or as a spare: each ends once, so at the end of a run as many have
    /// ended (`deaths`).
    public private(set) var spawns = 0
    /// Of `spawns`, those launched as spares, ahead of the view that takes them.
    public private(set) var spareSpawns = 0
    /// Views given a worker that had served an earlier view.
    public private(set) var reuses = 0
    /// Views opened (a load's first, and each rebuild's), and how each got its worker: a waiting spare (of which
    /// `sparesStarting` had not said hello yet; a log written before runs said counts none), or none, by why none
    /// waited.
    public private(set) var viewsOpened = 0
    public private(set) var sparesTaken = 0
    public private(set) var sparesStarting = 0
    public private(set) var noSpare: [NoSpareReason: Int] = [:]
    /// What the process cache did: views that took a cached worker of their site are neither spares nor launches.
    public private(set) var cache = CacheCounts()
    /// Worker processes that ended, however they ended (a worker shut down at the end of the run too).
    public private(set) var deaths = 0
    public private(set) var deathsByStatus: [TerminationKind: Int] = [:]
    /// Deaths by why they ended, in WebKit's terms.
    public private(set) var deathsByReason: [TerminationReason: Int] = [:]
    /// Deaths by a signal, by who sent it: injected faults, the supervisor (hangs, protocol violations, floods,
    /// shutdowns not finished in time), a killer outside that claimed it (Jetsam, chaos), or nobody (`unknown`).
    public private(set) var killsByCause: [DeathCause: Int] = [:]
    /// Kills from outside (Jetsam, chaos) by the band their victim was in: which ranks the killer reached.
    public private(set) var outsideKillsByBand: [PriorityBand: Int] = [:]
    /// Launches that failed before a process existed (posix_spawn refused): no process, so no death.
    public private(set) var launchErrors = 0
    /// Injected faults carried out, and those spared because their worker was protected from the killer, as
    /// Jetsam would spare it: a policy that meets no fault has nothing to recover from.
    public private(set) var faultsDelivered = 0
    public private(set) var faultsSpared = 0
    /// Whether the run was asked to inject faults at all.
    public private(set) var faultsPlanned = false
    /// Recovery attempts, by kind: each reload or rebuild tried, whether or not it brought the page back.
    public private(set) var recoveries: [RecoveryKind: Int] = [:]
    /// Loads whose page showed again after a recovery: the attempts that worked, by load.
    public private(set) var recoveredLoads = 0
    /// Loads a recovery was attempted for.
    public private(set) var loadsWithRecovery = 0
    private(set) var loadOfView: [Int: Int] = [:]
    /// Loads with a recovery under way, and those whose page showed after one, until each load ends.
    private var recovering: Set<Int> = [], shownAfterRecovery: Set<Int> = []
    public private(set) var rbsErrors = 0
    /// Workers killed from outside or by an injected fault after spawn and before their view attached: the
    /// kill-before-render race.
    public var raceKills: Int { races.byStage.values.reduce(0) { $0 + $1.killed } }
    /// The race kills by how far their page had got, and how many of those loads were saved.
    public private(set) var races = RaceStages()
    /// Deaths nobody was told about, because the observer was not wired yet.
    /// Workers found unresponsive (an answer owed past the hang timeout), and those of them that answered later.
    public private(set) var hangs = (found: 0, recovered: 0)
    /// Workers a holder kept across the last supervisor's death, taken back at the start (`run --keep-workers`):
    /// those asked to resynchronise, those a tab adopted, and those refused for what they said (the rest died or
    /// did not answer).
    public private(set) var takenBack = (asked: 0, adopted: 0, refused: 0)
    /// Memory warnings, and for each worker killed over its memory limit how long before the kill it was warned
    /// (nil: it passed the warning and the limit between two readings).
    public private(set) var memoryWarnings = 0
    /// Workers suspended, and the seconds they spent stopped (until resumed, or until they died stopped).
    public private(set) var suspensions = 0
    public private(set) var suspendedSeconds = 0.0
    private var suspendedSince: [Int32: Int] = [:]
    public private(set) var memoryKillLeadsMs: [Double?] = []
    public private(set) var unobservedDeaths = 0
    public private(set) var deadChannelSends = 0
    /// Milliseconds users looked at a view that never showed content, summed over the blank loads: from the
    /// moment each was shown to the moment it was given up as blank. A load that became visible adds nothing.
    public private(set) var blankMs = 0.0
    /// Blank loads whose end carried no blank time (never shown): `blankMs` leaves them out, so it is no measure of
    /// every blank load while this is above 0.
    public private(set) var untimedBlanks = 0
    /// Worker-seconds spent protected from the killer (foreground or boosted band): the memory cost of keeping
    /// workers important.
    public private(set) var foregroundWorkerSeconds = 0.0
    /// The most resident memory the live workers held together, each as read when it last rendered; nil when no
    /// worker rendered, so nothing was measured.
    public private(set) var peakWorkerRSSBytes: Int?
    private var foregroundSince: [Int32: Int] = [:]
    /// Spares launched and not yet given to a view: their first view is no launch of its own.
    private var idleSpares: Set<Int32> = []
    /// One sample per load; infinite for a blank load.
    public private(set) var timeToVisibleMs: [Double] = []
    public private(set) var spawnToHelloMs: [Double] = []
    /// True when the run was cut short by SIGINT or SIGTERM.
    public private(set) var interrupted = false
    /// How long the run took on its clock, and how much of that its clock passed in simulated time (`Waits`); nil
    /// before the run ended, and the simulated part nil too for a log that did not say.
    public private(set) var clockSeconds: Double?
    public private(set) var simulatedSeconds: Double?
    private var beganAt: Int?
    /// The loads the run was asked for.
    public private(set) var plannedLoads = 0
    /// The editor's audit at the end of the run, when there was an editor.
    public private(set) var audit: EditorAudit?
    /// Typed inputs lost: 0 when the run had no editor.
    public var lostInputs: Int { audit?.lostInputs ?? 0 }
    /// For a run that browsed a session: its tabs, how many got a worker, how often they were saved, what the
    /// navigation policy decided and how many error pages stood in for failed navigations.
    public private(set) var session: (tabs: Int, realized: Int, saves: Int, decisions: [NavigationVerdict: Int], errorPages: Int)?
    public var duplicateInputs: Int { audit?.duplicateInputs ?? 0 }

    public init(policy: String) {
        self.policy = policy
    }

    public func record(_ event: Event) {
        switch event.kind {
        case .runBegin(let begin):
            beganAt = event.monotonic
            plannedLoads = begin.loads
            faultsPlanned = begin.raceRate != 0 || begin.killRate != 0
            if let tabs = begin.tabs { session = (tabs, 0, 0, [:], 0) }
        case .editor(let audit):
            self.audit = audit
        case .tabRealized:
            session?.realized += 1
        case .sessionSaved:
            session?.saves += 1
        case .navigationDecision(_, _, _, _, let decision, _):
            session?.decisions[decision, default: 0] += 1
        case .errorPage:
            session?.errorPages += 1
        case .runEnd(let interrupted, let simulatedMs):
            self.interrupted = interrupted
            clockSeconds = beganAt.map { Double(event.monotonic - $0) / 1e9 }
            simulatedSeconds = simulatedMs.map { $0 / 1000 }
            for pid in foregroundSince.keys { leaveForeground(pid, at: event.monotonic) }
        case .unobserved:
            unobservedDeaths += 1
        case .suspended:
            suspensions += 1
            if let pid = event.pid { suspendedSince[pid] = event.monotonic }
        case .resumed:
            if let pid = event.pid { endSuspension(pid, at: event.monotonic) }
        case .memoryWarning: memoryWarnings += 1
        case .memoryLimit(_, _, let lead): memoryKillLeadsMs.append(lead)
        case .reclaim: takenBack.asked += 1
        case .adopt(let url):
            takenBack.adopted += 1
            // A spare taken back: its first view is no launch of this run's.
            if url.isEmpty, let pid = event.pid { idleSpares.insert(pid) }
        case .adoptionRefused: takenBack.refused += 1
        case .unresponsive: hangs.found += 1
        case .responsive: hangs.recovered += 1
        case .deadChannelSend:
            deadChannelSends += 1
        case .render(_, let bytes):
            peakWorkerRSSBytes = Swift.max(peakWorkerRSSBytes ?? 0, bytes)
        case .spare(reused: false):
            spawns += 1
            spareSpawns += 1
            if let pid = event.pid { idleSpares.insert(pid) }
        case .commit:
            if let pid = event.pid { races.committed(pid) }
        case .spawn(_, let reused):
            if let pid = event.pid { races.newPage(pid) }
            if reused {
                reuses += 1
            } else if event.pid.flatMap({ idleSpares.remove($0) }) == nil {
                spawns += 1
            }
        case .hello(let ms, _):
            spawnToHelloMs.append(ms)
        case .inject:
            faultsDelivered += 1
        case .injectSpared:
            faultsSpared += 1
        case .launchFailed:
            launchErrors += 1
        case .death(let death):
            if let pid = event.pid { recordDeath(death, pid: pid, view: event.view, at: event.monotonic) }
        case .spareTaken(let ready):
            sparesTaken += 1
            if ready == false { sparesStarting += 1 }
        case .noSpare(let reason):
            noSpare[reason, default: 0] += 1
        case .cacheTaken, .cacheMiss, .cacheAdd, .notCached, .cacheEvict:
            cache.record(event.kind)
        case .viewOpen(let load, _):
            viewsOpened += 1
            if let view = event.view { loadOfView[view] = load }
        case .viewClose:
            // A closed view's id is never used again: what a run holds stays the views open, not all it opened.
            if let view = event.view { loadOfView[view] = nil }
        case .visible(let load, _, _, _):
            if recovering.remove(load) != nil { shownAfterRecovery.insert(load) }
        case .recovery(let kind, _, _):
            recoveries[kind, default: 0] += 1
            if let load = event.view.flatMap({ loadOfView[$0] }) { recovering.insert(load) }
        case .priority(let band, _, _, let result, _, let rbs):
            if rbs != nil { rbsErrors += 1 }
            guard let pid = event.pid, result == .applied else { break }
            if band.isProtected {
                if foregroundSince[pid] == nil { foregroundSince[pid] = event.monotonic }
            } else {
                leaveForeground(pid, at: event.monotonic)
            }
        case .loadEnd(let end):
            loads += 1
            if end.recoveries > 0 { loadsWithRecovery += 1 }
            if shownAfterRecovery.remove(end.load) != nil { recoveredLoads += 1 }
            recovering.remove(end.load)
            races.ended(end.load, rendered: end.timeToVisibleMs != nil)
            if let ms = end.timeToVisibleMs {
                rendered += 1
                timeToVisibleMs.append(ms)
            } else if end.outcome == .lostHidden {
                // Nobody looked: no time to visible, and no blank time.
                lostHidden += 1
            } else {
                if end.outcome == .failed {
                    failed += 1
                } else {
                    blank += 1
                    if let ms = end.blankMs { blankMs += ms } else { untimedBlanks += 1 }
                }
                // Never visible: a blank load is the slowest load there is, not a load left out.
                timeToVisibleMs.append(.infinity)
            }
        default:
            break
        }
    }

    private func endSuspension(_ pid: Int32, at time: Int) {
        guard let since = suspendedSince.removeValue(forKey: pid) else { return }
        suspendedSeconds += Double(time - since) / 1e9
    }

    private func recordDeath(_ death: SupervisorEvent.Death, pid: Int32, view: Int?, at time: Int) {
        deaths += 1
        endSuspension(pid, at: time)
        idleSpares.remove(pid)
        leaveForeground(pid, at: time)
        deathsByStatus[death.status, default: 0] += 1
        deathsByReason[death.terminationReason, default: 0] += 1
        let cause = death.cause
        guard case .signal(let signal) = death.exit, cause != .worker else { return }
        killsByCause[cause, default: 0] += 1
        if cause == .outside, let band = death.band { outsideKillsByBand[band, default: 0] += 1 }
        // Killed in the window between spawn and attach, whether or not the page had painted off screen: the user
        // never saw it. The supervisor's own kills (a hang, a shutdown) are no race.
        let race = cause != .supervisor && signal == 9 && !death.attached && !death.spare && view != nil && !death.shutdown
        races.died(pid, race: race ? (death.rendered, view.flatMap { loadOfView[$0] }) : nil)
    }

    private func leaveForeground(_ pid: Int32, at time: Int) {
        guard let since = foregroundSince.removeValue(forKey: pid) else { return }
        foregroundWorkerSeconds += Double(time - since) / 1e9
    }
}

/// Nearest-rank percentiles of a sample, in milliseconds.
public struct Percentiles {
    public let p50, p95, p99, max: Double
    public let count: Int

    public init(_ samples: [Double]) {
        let sorted = samples.sorted()
        func rank(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            return sorted[Swift.max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1)]
        }
        p50 = rank(0.50)
        p95 = rank(0.95)
        p99 = rank(0.99)
        max = sorted.last ?? 0
        count = sorted.count
    }

    /// Each percentile as a number, or null when there were no samples: no figure, rather than a made-up 0.
    public var json: JSON {
        .object([("p50", p50), ("p95", p95), ("p99", p99), ("max", max)].map { ($0.0, count == 0 ? .null : .double($0.1)) })
    }

    public var text: String {
        count == 0
            ? "no samples"
            : "p50 \(fixed(p50, 3)) ms, p95 \(fixed(p95, 3)) ms, p99 \(fixed(p99, 3)) ms, max \(fixed(max, 3)) ms"
    }
}
