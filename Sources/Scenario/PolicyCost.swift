import Events
import Text

/// What a policy cost per load, as `compare` weighs policies: what its users waited for and what it spent keeping
/// workers from the killer, both computed from the run's summary alone. A figure the run did not measure is nil,
/// never 0; each is rounded to the 0.01 it is shown with, so a tie on the chart is a tie on the frontier.
public struct PolicyCost: Sendable {
    public let policy: String
    /// The user-visible cost: milliseconds per load its user looked at a view without content. A load that showed
    /// counts its time to visible and a blank load the whole time it stayed blank, so a blank is the costliest load
    /// there is rather than one left out. Failed loads (an error page, not a blank) have no such time in the summary
    /// and are left out (`failed` says how many), as are loads lost while hidden, which no one waited on. Nil when
    /// no load was measured or a blank load's time is missing.
    public let waitMs: Double?
    /// The resource cost: worker-milliseconds per load protected from the killer (foreground or boosted band), the
    /// memory a policy keeps Jetsam from reclaiming and what always-foreground spends. Nil when no load ran.
    public let protectedMs: Double?
    /// Worker processes launched per load, spares included: 1 without reuse, more for every rebuild.
    public let spawnsPerLoad: Double?
    /// The most resident memory the live workers held together; nil when nothing rendered.
    public let peakWorkerRSSBytes: Int?
    public let loads: Int
    public let failed: Int
    public let interrupted: Bool

    public init(_ summary: RunSummary) {
        policy = summary.policy
        loads = summary.loads
        failed = summary.failed
        interrupted = summary.interrupted
        peakWorkerRSSBytes = summary.peakWorkerRSSBytes
        let waited = summary.rendered + summary.blank
        let visibleMs = summary.timeToVisibleMs.filter(\.isFinite).reduce(0, +)
        waitMs = waited == 0 || summary.untimedBlanks > 0 ? nil : Self.shown((visibleMs + summary.blankMs) / Double(waited))
        protectedMs = loads == 0 ? nil : Self.shown(summary.foregroundWorkerSeconds * 1000 / Double(loads))
        spawnsPerLoad = loads == 0 ? nil : Self.shown(Double(summary.spawns) / Double(loads))
    }

    /// Where the policy stands on the chart: protected worker-ms (x) against wait (y), or nil when either is missing.
    public var point: Frontier.Point? {
        guard let protectedMs, let waitMs else { return nil }
        return Frontier.Point(x: protectedMs, y: waitMs)
    }

    /// The indices of the policies no other policy beats on both costs, cheapest first (in the order given among
    /// equals); a policy without a point is on no frontier.
    public static func frontier(_ costs: [PolicyCost]) -> [Int] {
        let measured = costs.indices.compactMap { i in costs[i].point.map { (index: i, point: $0) } }
        return Frontier.indices(of: measured.map(\.point))
            .sorted { (measured[$0].point.x, $0) < (measured[$1].point.x, $1) }.map { measured[$0].index }
    }

    public var json: JSON {
        .object([
            ("waitMsPerLoad", waitMs.map(JSON.double) ?? .null),
            ("protectedWorkerMsPerLoad", protectedMs.map(JSON.double) ?? .null),
            ("spawnsPerLoad", spawnsPerLoad.map(JSON.double) ?? .null),
        ])
    }

    private static func shown(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
