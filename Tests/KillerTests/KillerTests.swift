import Testing
import Vocabulary

@testable import Killer

/// The killer's one rule, which natural mode's Jetsam and `compare --replay` share (issue 29, item 6).
@Suite struct KillRule {
    func candidate(_ pid: Int32, adjust: Int, nice: Int = 0, rss: Int = 1) -> Killer.Candidate {
        Killer.Candidate(pid: pid, oomScoreAdjust: adjust, nice: nice, residentBytes: rss)
    }

    /// The lowest priority goes first: a spare in the background before a boosted worker (foreground
    /// oom_score_adj, background nice), a hidden view's worker before a foreground one.
    @Test func theLowestRankedGoesFirst() {
        let boosted = candidate(1, adjust: 0, nice: 10), spare = candidate(2, adjust: 900, nice: 10)
        #expect(Killer.victim(among: [boosted, spare])?.pid == 2)
        #expect(Killer.victim(among: [candidate(3, adjust: 0), candidate(4, adjust: 800, nice: 10)])?.pid == 4)
        #expect(Killer.victim(among: [candidate(5, adjust: 900, rss: 10), candidate(6, adjust: 900, rss: 20)])?.pid == 6)
    }

    /// A foreground worker is last in line, never out of it: alone, it is taken.
    @Test func aForegroundWorkerAloneIsTaken() {
        let alone = candidate(7, adjust: 0)
        #expect(Killer.victim(among: [alone]) == alone && alone.band == .foreground)
        // A value names its band and rank (`OOMScores`); one no band gives is background or foreground by its side of
        // 500.
        #expect(candidate(8, adjust: 803).standing == (.hidden, 3) && candidate(9, adjust: 975).standing == (.cached, 15))
        #expect(candidate(10, adjust: 1000).band == .spare && candidate(11, adjust: 600).standing == (.background, 0))
        #expect(candidate(12, adjust: -500).band == .foreground)
        #expect(Killer.victim(among: []) == nil)
    }
}
