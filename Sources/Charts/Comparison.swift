import Core
import Events
import Scenario
import Browser
import Text
import Vocabulary

/// What `compare` prints: the policies that ran, side by side, in two blocks that fit the terminal (what users saw;
/// what faults met and what it cost), a legend for the short headers, and, when it was interrupted, how far each
/// policy got and which never ran.
package struct Comparison {
    package let summaries: [RunSummary]
    /// Policies asked for that never ran, because the comparison was interrupted first.
    package let notRun: [String]
    package let configuration: RunConfiguration
    /// The policies asked for, in order, to say which an app can adopt.
    package let policies: [Policy]
    /// How many policies ran at once (`--jobs`).
    package let atOnce: Int

    package init(summaries: [RunSummary], notRun: [String], configuration: RunConfiguration, policies: [Policy], atOnce: Int) {
        (self.summaries, self.notRun, self.configuration, self.policies) = (summaries, notRun, configuration, policies)
        self.atOnce = atOnce
    }

    /// Said under the tables when policies shared the machine, whose load their times then measure too.
    var sharing: String? {
        guard atOnce > 1, summaries.count > 1 else { return nil }
        return "\(atOnce) policies ran at a time: their times to visible and protected time measure the machine's load "
            + "too, and differ more from run to run (--jobs 1 for the cleanest)."
    }

    /// Said under the tables when the runs passed waits in simulated time, so that their clock is not read as the
    /// wall's.
    var simulatedWaits: String? {
        let simulated = summaries.compactMap(\.simulatedSeconds).reduce(0, +)
        guard simulated > 0 else { return nil }
        let clock = summaries.compactMap(\.clockSeconds).reduce(0, +)
        return "Waits no process was working through (attach delays, fetch latencies, arrivals, blank timeouts) "
            + "passed in simulated time: \(fixed(simulated, 1)) s of the runs' \(fixed(clock, 1)) s. Every spawn, "
            + "render and kill took the real time it takes (--waits real waits out the rest too)."
    }

    package var interrupted: Bool { summaries.contains(where: \.interrupted) || !notRun.isEmpty }

    /// The workload, as the chart's subtitle.
    var workload: String {
        var parts = ["\(counted(configuration.loads, "load")) per policy", counted(configuration.views, "view")]
        if configuration.hidden > 0 { parts.append("\(configuration.hidden) hidden") }
        if configuration.raceRate > 0 { parts.append("race rate \(configuration.raceRate)") }
        if configuration.killRate > 0 { parts.append("kill rate \(configuration.killRate)") }
        if configuration.jetsam != nil { parts.append("Jetsam") }
        if let replay = configuration.replay { parts.append("replaying \(counted(replay.incidents.count, "incident"))") }
        parts.append("seed \(configuration.seed)")
        return parts.joined(separator: ", ")
    }

    /// How far an interrupted comparison got; nil when it ran whole.
    var interruption: String? {
        guard interrupted, let last = summaries.last else {
            return interrupted ? "interrupted before any policy ran" : nil
        }
        return "interrupted during '\(last.policy)' after \(grouped(last.loads)) of \(counted(configuration.loads, "load"))"
            + (notRun.isEmpty ? "" : "; not run: " + notRun.joined(separator: ", "))
    }

    /// `300`, or `137 of 300` for a policy cut short.
    private func loads(_ summary: RunSummary) -> String {
        summary.interrupted ? "\(summary.loads) of \(summary.plannedLoads)" : "\(summary.loads)"
    }

    package var table: String {
        var lines = interruption.map { wrapped($0) + [""] } ?? []
        lines += fittedColumns([["policy", "loads", "rendered", "blank", "unseen", "failed", "blank s", "TTV p50 ms",
                               "TTV p99 ms"]]
            + summaries.map { s in
                let ttv = Percentiles(s.timeToVisibleMs)
                return [s.policy, loads(s), "\(s.rendered)", "\(s.blank)", "\(s.lostHidden)", "\(s.failed)",
                        fixed(s.blankMs / 1000, 1), ttv.count == 0 ? "-" : fixed(ttv.p50, 2),
                        ttv.count == 0 ? "-" : fixed(ttv.p99, 2)]
            })
        lines.append("")
        lines += fittedColumns([["policy", "faults", "spared", "race kills", "unobserved", "RBS errs", "outside", "unknown",
                               "fg worker-s", "RSS MiB"]]
            + summaries.map { s in
                [s.policy, "\(s.faultsDelivered)", "\(s.faultsSpared)", "\(s.raceKills)", "\(s.unobservedDeaths)",
                 "\(s.rbsErrors)", "\(s.killsByCause[.outside, default: 0])",
                 "\(s.killsByCause[.unknown, default: 0])", fixed(s.foregroundWorkerSeconds, 2),
                 s.peakWorkerRSSMiB ?? "-"]
            })
        lines.append("")
        lines += fittedColumns([["policy", "tries", "recovered", "launched", "reused", "stopped s", "hangs",
                               "before commit", "after commit", "after render"]]
            + summaries.map { s in
                [s.policy, "\(s.recoveries.values.reduce(0, +))", "\(s.recoveredLoads)", "\(s.spawns)", "\(s.reuses)",
                 fixed(s.suspendedSeconds, 1), "\(s.hangs.recovered)/\(s.hangs.found)"]
                    + RaceStage.allCases.map(s.races.cell)
            })
        lines.append("")
        lines += limits
        lines += killedBands
        lines += cache
        lines += spares
        lines += wrapped(frontierLine) + [""]
        let adoption = Policy.adoption(Array(policies.prefix(summaries.count)))
        if !adoption.isEmpty { lines += wrapped(adoption) + [""] }
        if let sharing { lines += wrapped(sharing) + [""] }
        if let simulatedWaits { lines += wrapped(simulatedWaits) + [""] }
        lines += wrapped(Self.legend + " " + Self.frontierLegend)
        return lines.joined(separator: "\n")
    }

    static let legend = """
        blank s: seconds users looked at views that never showed content (blank loads only). unseen: loads \
        lost while hidden, before anyone looked (no one's wait). TTV: time to \
        visible (∞: never, for that share of loads). faults: injected faults delivered; spared: not delivered, \
        the worker being protected from the killer, as Jetsam would spare it. race kills: workers killed before \
        their view attached; unobserved: deaths nobody was told of; RBS errs: foreground assertions on a dead \
        worker. outside: kills by a signal the supervisor did not send and a killer claimed (Jetsam, chaos); \
        unknown: deaths by a signal nobody claimed (a worker that killed itself), which count toward the crash loop. fg worker-s: \
        worker-seconds protected from the killer. RSS MiB: peak RSS of the live workers (-: nothing rendered). \
        tries: recovery attempts (reloads and rebuilds), whether or not they worked; recovered: loads whose \
        page showed again after one. launched: worker processes, spares included; reused: views given a \
        worker an earlier view had. stopped s: worker-seconds suspended. hangs: workers found unresponsive, as answered later/found. before commit, after commit, after render: race kills by how far the page \
        had got when its worker died, as saved/killed (saved: the load was seen rendered in the end).
        """

    package var json: JSON {
        .object([
            ("seed", .int(Int(truncatingIfNeeded: configuration.seed))), ("plannedLoads", .int(configuration.loads)),
            ("interrupted", .bool(interrupted)), ("notRun", .array(notRun.map(JSON.string))), ("atOnce", .int(atOnce)),
            ("waits", .string(configuration.waits.rawValue)),
            ("frontier", .array(frontier.map { .string($0.policy) })),
            ("runs", .array(zip(summaries, costs).map { summary, cost in
                guard case .object(let fields) = summary.json else { return summary.json }
                return .object(fields + [("cost", cost.json)])
            })),
        ])
    }
}
