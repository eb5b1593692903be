import Events
import Replay
import Scenario
import Text

/// `compare --replay`: each incident under each policy (saved or lost, how soon, why), and the verdict: the
/// cheapest policy that saves every incident, cheapest in the workers it keeps protected from the killer, then in
/// the workers it launches.
struct ReplayReport {
    let schedule: ReplaySchedule
    /// Per policy, in the order run: its summary and what became of each incident.
    let runs: [(summary: RunSummary, outcome: ReplayOutcome)]

    /// The policies that saved every load of every incident, cheapest first.
    var savers: [RunSummary] {
        runs.filter { run in run.outcome.results.allSatisfy { $0.loads > 0 && $0.saved == $0.loads } }.map(\.summary)
            .sorted { ($0.foregroundWorkerSeconds, $0.spawns) < ($1.foregroundWorkerSeconds, $1.spawns) }
    }

    var verdict: String {
        guard !schedule.incidents.isEmpty else { return "The schedule holds no incident: nothing was replayed." }
        guard let cheapest = savers.first else {
            return "No policy saved every incident: see why each load was lost above."
        }
        var text = "Every incident is saved by " + savers.map { s in
            "\(s.policy) (TTV p50 \(Self.ttv(s)), \(fixed(s.foregroundWorkerSeconds, 2)) protected worker-s, "
                + "\(counted(s.spawns, "worker")) launched)"
        }.joined(separator: ", ") + ". Cheapest: \(cheapest.policy)"
        if Percentiles(cheapest.timeToVisibleMs).p50 > Self.prompt, let prompt = savers.first(where: {
            Percentiles($0.timeToVisibleMs).p50 <= Self.prompt
        }) {
            text += ", after a blank of \(Self.ttv(cheapest)); the cheapest that shows the page within a second: \(prompt.policy)"
        }
        return text + "."
    }

    /// What counts as saving a view promptly, in milliseconds: a second of blank is what a user notices.
    static let prompt = 1_000.0

    static func ttv(_ summary: RunSummary) -> String {
        let p50 = Percentiles(summary.timeToVisibleMs).p50
        return p50 >= 1_000 ? "\(fixed(p50 / 1000, 1)) s" : "\(fixed(p50, 1)) ms"
    }

    var table: String {
        var lines: [String] = []
        for (i, incident) in schedule.incidents.enumerated() {
            lines.append("")
            lines += wrapped("Incident \(i + 1), \(incident.id): \(incident.kind), attach \(Self.text(incident.attach)) ms, "
                + "death \(Self.text(incident.death)) ms after launch, cause \(incident.cause.rawValue)"
                + (incident.band.map { ", \($0) band" } ?? ""))
            lines += columns([["policy", "saved", "blank", "failed", "spared", "TTV p50 ms", "recovery p50 ms"]]
                + runs.map { run in
                    let result = run.outcome.results[i]
                    let ttv = Percentiles(result.timeToVisibleMs), recovery = Percentiles(result.recoveryMs)
                    return [run.summary.policy, "\(result.saved) of \(result.loads)", "\(result.blank)", "\(result.failed)",
                            "\(result.spared)", ttv.count == 0 ? "-" : fixed(ttv.p50, 2),
                            recovery.count == 0 ? "-" : fixed(recovery.p50, 3)]
                })
            for run in runs {
                for (why, count) in run.outcome.results[i].lost.sorted(by: { $0.key < $1.key }) {
                    lines += wrapped("\(run.summary.policy) lost \(count): \(why)")
                }
            }
        }
        lines.append("")
        lines += wrapped(verdict)
        lines += wrapped(Self.legend)
        return lines.joined(separator: "\n")
    }

    static let legend = """
        saved: loads whose page the user saw in the end; spared: the replayed kill found the worker in the \
        foreground band and passed it by. recovery: from the replayed death to the supervisor's recovery of the \
        view, its own reaction time.
        """

    static func text(_ span: ReplayIncident.Span) -> String {
        span.exact ? fixed(span.lowMs, 1) : "\(fixed(span.lowMs, 1))–\(fixed(span.highMs, 1))"
    }

    var json: JSON {
        .object([
            ("verdict", .string(verdict)), ("savers", .array(savers.map { .string($0.policy) })),
            ("incidents", .array(schedule.incidents.enumerated().map { i, incident in
                .object([
                    ("id", .string(incident.id)), ("kind", .string(incident.kind)),
                    ("results", .array(runs.map { run in
                        let result = run.outcome.results[i]
                        return .object([
                            ("policy", .string(run.summary.policy)), ("loads", .int(result.loads)),
                            ("saved", .int(result.saved)), ("blank", .int(result.blank)), ("failed", .int(result.failed)),
                            ("spared", .int(result.spared)), ("timeToVisibleMs", Percentiles(result.timeToVisibleMs).json),
                            ("recoveryMs", Percentiles(result.recoveryMs).json),
                            ("lost", .object(result.lost.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
                        ])
                    })),
                ])
            })),
        ])
    }
}
