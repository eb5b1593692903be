import Core
import Events
import Replay
import Text

/// `compare --replay`: each incident under each policy (saved or lost, how soon, why), and the verdict: the
/// cheapest policy that saves every incident, cheapest in the workers it keeps protected from the killer, then in
/// the workers it launches.
public struct ReplayReport {
    public let schedule: ReplaySchedule
    /// Per policy, in the order run: its summary and what became of each incident.
    public let runs: [(summary: RunSummary, outcome: ReplayOutcome)]
    /// Policies asked for that never ran, the comparison being interrupted first.
    public let notRun: [String]
    /// The policies compared, to say which an app can adopt.
    public let policies: [Policy]

    public init(
        schedule: ReplaySchedule, runs: [(summary: RunSummary, outcome: ReplayOutcome)], notRun: [String], policies: [Policy]
    ) {
        (self.schedule, self.runs, self.notRun, self.policies) = (schedule, runs, notRun, policies)
    }

    /// Whether the comparison was cut short: a policy interrupted, or one never run.
    public var interrupted: Bool { runs.contains { $0.summary.interrupted } || !notRun.isEmpty }

    /// The policies that ran whole and saved every load of every incident, cheapest first.
    var savers: [RunSummary] {
        runs.filter { run in
            !run.summary.interrupted
                && run.outcome.results.allSatisfy { $0.loads > 0 && $0.reproduced == $0.loads && $0.saved == $0.loads }
        }.map(\.summary)
            .sorted { ($0.foregroundWorkerSeconds, $0.spawns) < ($1.foregroundWorkerSeconds, $1.spawns) }
    }

    public var verdict: String {
        guard !schedule.incidents.isEmpty else { return "The schedule holds no incident: nothing was replayed." }
        // A policy cut short, or never run, may have saved what the others lost: no verdict weighs it.
        guard !interrupted else {
            let whole = runs.filter { !$0.summary.interrupted }.map(\.summary.policy)
            return "No verdict: the comparison was interrupted"
                + (whole.isEmpty ? " before any policy replayed every incident." : "; only "
                    + whole.joined(separator: ", ") + " replayed every incident, shown above.")
        }
        let adoption = " " + Policy.adoption(policies.filter { p in runs.contains { $0.summary.policy == p.name } })
        guard runs.contains(where: { $0.outcome.results.contains { $0.reproduced > 0 } }) else {
            // Nothing happened as the device saw it, so nothing was saved or lost: no policy is judged.
            return "No incident was reproduced under any policy, so none is judged: see why above."
        }
        guard let cheapest = savers.first else {
            return "No policy saved every incident: see why each load was lost above." + adoption
        }
        var text = "Every incident is saved by " + savers.map { s in
            "\(s.policy) (TTV p50 \(Self.ttv(s)), \(fixed(s.foregroundWorkerSeconds, 2)) protected worker-s, "
                + "\(counted(s.spawns, "worker")) launched)"
        }.joined(separator: ", ") + ". Cheapest: \(cheapest.policy)"
        if slowest(cheapest) > Self.prompt, let prompt = savers.first(where: { slowest($0) <= Self.prompt }) {
            text += ", though one of its loads waited \(fixed(slowest(cheapest) / 1000, 1)) s; the cheapest that shows "
                + "every page within a second: \(prompt.policy)"
        }
        return text + "." + adoption
    }

    /// The longest time to visible of a policy's saved loads, in milliseconds.
    func slowest(_ summary: RunSummary) -> Double {
        runs.first { $0.summary === summary }?.outcome.results.flatMap(\.timeToVisibleMs).max() ?? 0
    }

    /// What counts as saving a view promptly, in milliseconds: a second of blank is what a user notices.
    static let prompt = 1_000.0

    static func ttv(_ summary: RunSummary) -> String {
        let p50 = Percentiles(summary.timeToVisibleMs).p50
        return p50 >= 1_000 ? "\(fixed(p50 / 1000, 1)) s" : "\(fixed(p50, 1)) ms"
    }

    /// One row per incident (its moments, then each policy's loads saved), one row per policy (its loads saved, how
    /// soon, how fast it reacted), why the lost loads were lost, and the verdict.
    public var table: String {
        var lines = [""] + wrapped("Replayed: \(counted(schedule.incidents.count, "incident")), each "
            + "\(counted(runs.first?.outcome.results.first?.loads ?? 0, "time")).")
        lines += hangingTable([["incident", "kind", "attach ms", "death ms", "saved by (a count: some of its loads)"]]
            + schedule.incidents.enumerated().map { i, incident in
                let savers = runs.compactMap { run -> String? in
                    let result = run.outcome.results[i]
                    guard result.saved > 0 else { return nil }
                    return result.saved == result.loads ? run.summary.policy : "\(run.summary.policy) (\(result.saved)/\(result.loads))"
                }
                return [visible(incident.id), incident.kind.rawValue, Self.text(incident.attach), Self.text(incident.death),
                        savers.isEmpty ? "no policy" : savers.joined(separator: ", ")]
            })
        lines.append("")
        lines += fittedColumns([["policy", "saved", "blank", "failed", "spared", "TTV p50 ms", "recovery p50 ms"]]
            + runs.map { run in
                let all = run.outcome.results
                let ttv = Percentiles(all.flatMap(\.timeToVisibleMs)), recovery = Percentiles(all.flatMap(\.recoveryMs))
                let sum = { (count: (ReplayOutcome.Result) -> Int) in all.map(count).reduce(0, +) }
                return [run.summary.policy, "\(sum(\.saved)) of \(sum(\.loads))", "\(sum(\.blank))", "\(sum(\.failed))",
                        "\(sum(\.spared))", ttv.count == 0 ? "-" : fixed(ttv.p50, 2),
                        recovery.count == 0 ? "-" : fixed(recovery.p50, 3)]
            })
        for run in runs {
            let unreplayed = run.outcome.results.map(\.notReplayed).reduce(0, +)
            if unreplayed > 0 {
                lines += wrapped("\(run.summary.policy): \(counted(unreplayed, "load")) not reproduced: the load ended "
                    + "before its incident's death could be dealt (its worker already gone); neither saved nor lost")
            }
            let otherwise = run.outcome.results.map(\.notReproduced).reduce(0, +)
            if otherwise > 0 {
                lines += wrapped("\(run.summary.policy): \(counted(otherwise, "load")) not reproduced: the death came "
                    + "with the view not as the device had it (on screen for a death in the background band, attached "
                    + "for one before attach); neither saved nor lost")
            }
            let lost = run.outcome.results.flatMap(\.lost).reduce(into: [String: Int]()) { $0[$1.key, default: 0] += $1.value }
            for (why, count) in lost.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
                lines += wrapped("\(run.summary.policy) lost \(count): \(why)")
            }
        }
        lines.append("")
        lines += wrapped(verdict)
        lines += wrapped(Self.legend)
        return lines.joined(separator: "\n")
    }

    static let legend = """
        attach and death: milliseconds after launch, a range where the evidence left one (drawn by --seed in \
        each replay). A death in the background band after attach is replayed with the view left 1 ms before it \
        and shown again 10 ms after. saved: loads whose page the user saw in the end; spared: the replayed kill \
        took a spare ranked lower instead, as Jetsam would (a kill takes the lowest-ranked worker, one in the \
        foreground when nothing ranks lower). recovery: from the replayed death to the supervisor's recovery of the \
        view, its own reaction time.
        """

    static func text(_ span: ReplayIncident.Span) -> String {
        span.exact ? fixed(span.lowMs, 1) : "\(fixed(span.lowMs, 1))–\(fixed(span.highMs, 1))"
    }

    public var json: JSON {
        .object([
            ("verdict", .string(verdict)), ("interrupted", .bool(interrupted)),
            ("savers", .array(interrupted ? [] : savers.map { .string($0.policy) })),
            ("incidents", .array(schedule.incidents.enumerated().map { i, incident in
                .object([
                    ("id", .string(incident.id)), ("kind", .string(incident.kind.rawValue)),
                    ("results", .array(runs.map { run in
                        let result = run.outcome.results[i]
                        return .object([
                            ("policy", .string(run.summary.policy)), ("loads", .int(result.loads)),
                            ("saved", .int(result.saved)), ("blank", .int(result.blank)), ("failed", .int(result.failed)),
                            ("spared", .int(result.spared)), ("notReplayed", .int(result.notReplayed)),
                            ("reproduced", .int(result.reproduced)), ("notReproduced", .int(result.notReproduced)),
                            ("timeToVisibleMs", Percentiles(result.timeToVisibleMs).json),
                            ("recoveryMs", Percentiles(result.recoveryMs).json),
                            ("lost", .object(result.lost.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
                        ])
                    })),
                ])
            })),
        ])
    }
}
