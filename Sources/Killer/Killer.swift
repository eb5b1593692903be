import Vocabulary

/// Which worker a memory killer takes: one rule for the Jetsam process of natural mode (Workers/Jetsam) and for the
/// kills `compare --replay` deals, so that a replay and a natural run never disagree on who dies.
///
/// The rule is iOS Jetsam's order as this model has it: the lowest priority first (the highest `oom_score_adj`,
/// then the highest `nice`), the largest resident memory among equals. A worker in the foreground band is no
/// exception, only last in line: with nothing ranked lower left, it is taken too.
public enum Killer {
    /// One process the killer could take, as /proc shows it.
    public struct Candidate: Equatable, Sendable {
        public let pid: Int32
        public let oomScoreAdjust: Int
        public let nice: Int
        public let residentBytes: Int

        public init(pid: Int32, oomScoreAdjust: Int, nice: Int, residentBytes: Int) {
            (self.pid, self.oomScoreAdjust, self.nice, self.residentBytes) = (pid, oomScoreAdjust, nice, residentBytes)
        }

        /// Its band and rank in it as a kill report names them, read from its oom_score_adj (`OOMScores`); a value no
        /// band gives is background from `backgroundAdjust` up, foreground below, at rank 0.
        public var standing: (band: PriorityBand, rank: Int) {
            OOMScores.standing(oomScoreAdjust) ?? (oomScoreAdjust >= Killer.backgroundAdjust ? .background : .foreground, 0)
        }
        public var band: PriorityBand { standing.band }
    }

    /// The `oom_score_adj` from which a worker counts as background (the background and hidden bands).
    public static let backgroundAdjust = 500

    /// The candidate taken first; nil when there is none.
    public static func victim(among candidates: [Candidate]) -> Candidate? {
        candidates.max {
            ($0.oomScoreAdjust, $0.nice, $0.residentBytes) < ($1.oomScoreAdjust, $1.nice, $1.residentBytes)
        }
    }
}
