import Events
import Replay
import Vocabulary

/// What became of each replayed incident under one policy, computed from the run's events only: for each of its
/// loads, whether the user got the page back, how soon, how fast the supervisor reacted to the death, and, for a
/// load lost, why.
public final class ReplayOutcome {
    /// One incident's loads under the policy (one per repeat).
    public struct Result: Sendable {
        public internal(set) var loads = 0
        /// Loads whose page the user saw in the end.
        public internal(set) var saved = 0
        public internal(set) var blank = 0
        public internal(set) var failed = 0
        /// Kills the policy's bands passed on: the killer took a spare ranked lower than the incident's worker.
        public internal(set) var spared = 0
        /// Loads whose death never came (the view closed first, or its worker was already gone): neither saved nor
        /// lost, and said so.
        public internal(set) var notReplayed = 0
        /// Loads whose death came as the device dealt it: before the view attached for a death before attach, with
        /// the view off screen for one in the background band. Only these can be saved.
        public internal(set) var reproduced = 0
        /// Loads whose death came, but not as the device dealt it (the view on screen for a background death,
        /// attached for a death before attach): neither saved nor lost, and said so.
        public internal(set) var notReproduced = 0
        /// Time to visible of the saved loads, ms.
        public internal(set) var timeToVisibleMs: [Double] = []
        /// From the replayed death to the supervisor's recovery of the view, ms: its own reaction time.
        public internal(set) var recoveryMs: [Double] = []
        /// Why each lost load was lost, with how many.
        public internal(set) var lost: [String: Int] = [:]
    }

    public let schedule: ReplaySchedule
    public private(set) var results: [Result]
    /// Per load: what its views went through.
    private var loads: [Int: LoadTrace] = [:]
    private var loadOfView: [Int: Int] = [:]

    private struct LoadTrace {
        /// The replayed death: when it was dealt.
        var replayedAt: Int?
        var lastVisibleAt: Int?
        var recoveredAt: Int?
        var death: SupervisorEvent.Death?
        var unobserved = false
        var watchdog = false
        var suppressed = false
        var crashLoop = false
        var spared = false
        var visible = true
        var attached = false
        /// Whether the replayed death came with the view as the device had it.
        var asItHappened = false
    }

    public init(schedule: ReplaySchedule) {
        self.schedule = schedule
        results = Array(repeating: Result(), count: schedule.incidents.count)
    }

    public func record(_ event: Event) {
        if case .viewOpen(let load, _) = event.kind, let view = event.view { loadOfView[view] = load }
        guard let view = event.view, let load = loadOfView[view] else { return }
        var trace = loads[load] ?? LoadTrace()
        let incident = schedule.incidents.isEmpty ? nil : schedule.incidents[load % schedule.incidents.count]
        switch event.kind {
        case .viewOpen(_, let visible): (trace.visible, trace.attached) = (visible, false)
        case .attach: trace.attached = true
        case .show: trace.visible = true
        case .hide: trace.visible = false
        case .injectSpared(let kind, _) where kind.isReplay:
            trace.spared = true
            trace.asItHappened = incident.map { Self.asItHappened($0, trace) } ?? false
        case .inject(let kind, _) where kind.isReplay && trace.replayedAt == nil:
            trace.replayedAt = event.monotonic
            trace.asItHappened = incident.map { Self.asItHappened($0, trace) } ?? false
        case .visible: trace.lastVisibleAt = event.monotonic
        case .death(let death) where trace.death == nil && !death.shutdown:
            trace.death = death
        case .unobserved: trace.unobserved = true
        case .watchdog: trace.watchdog = true
        case .recoverySuppressed: trace.suppressed = true
        case .crashLoop: trace.crashLoop = true
        case .recovery where trace.replayedAt != nil && trace.recoveredAt == nil: trace.recoveredAt = event.monotonic
        case .loadEnd(let end): finish(load, end, trace)
        default: break
        }
        loads[load] = trace
    }

    private func finish(_ load: Int, _ end: SupervisorEvent.LoadEnd, _ trace: LoadTrace) {
        guard !results.isEmpty else { return }
        var result = results[load % results.count]
        result.loads += 1
        if trace.spared { result.spared += 1 }
        guard trace.spared || trace.replayedAt != nil else {
            result.notReplayed += 1
            results[load % results.count] = result
            return
        }
        guard trace.asItHappened else {
            result.notReproduced += 1
            results[load % results.count] = result
            return
        }
        result.reproduced += 1
        // Saved: the page is on screen after the death (or the death passed the worker by).
        let showsAfterDeath = trace.replayedAt.map { died in trace.lastVisibleAt.map { $0 > died } ?? false } ?? true
        switch end.outcome {
        case .rendered where showsAfterDeath:
            result.saved += 1
            if let ms = end.timeToVisibleMs { result.timeToVisibleMs.append(ms) }
            if let died = trace.replayedAt, let recovered = trace.recoveredAt {
                result.recoveryMs.append(Double(recovered - died) / 1e6)
            }
        case .rendered:
            result.blank += 1
            result.lost[Self.why(trace, end), default: 0] += 1
        case .blank, .lostHidden:
            result.blank += 1
            result.lost[Self.why(trace, end), default: 0] += 1
        case .failed:
            result.failed += 1
            result.lost[Self.why(trace, end), default: 0] += 1
        }
        results[load % results.count] = result
    }

    /// Whether a death dealt now meets the view as the device had it: not yet attached for a death before attach;
    /// off screen (or not yet attached) for one in the background band; otherwise any way.
    private static func asItHappened(_ incident: ReplayIncident, _ trace: LoadTrace) -> Bool {
        if incident.diesBeforeAttach { return !trace.attached }
        if incident.band == .background || incident.band == .hidden { return !trace.visible || !trace.attached }
        return true
    }

    /// Why a load was lost, from what its views went through.
    private static func why(_ trace: LoadTrace, _ end: SupervisorEvent.LoadEnd) -> String {
        if trace.crashLoop { return "a crash loop: the policy stopped restarting it" }
        guard let death = trace.death else { return "no death, yet never visible: \(end.error ?? "blank")" }
        if trace.unobserved {
            return death.rendered
                ? "killed after it rendered but before its view attached: no callback, and only a watchdog sees the view blank"
                : "killed before it rendered and before its view attached: no callback, and the view keeps its dead process"
        }
        if trace.suppressed { return "the callback came, but the recovery was suppressed (WebKit's limit on its own reloads)" }
        if trace.watchdog { return "its watchdog found the view blank, too late to count" }
        return "the callback came, and the policy did not recover the view in time"
    }
}
