import Events
import Process
import Vocabulary

/// Bands and ranks within them: a worker's oom_score_adj is its band's base plus its rank in the band
/// (`OOMScores`), so that the killer, which takes the highest first, takes hidden tabs shown long ago before those
/// shown a moment ago, and the oldest cached worker before a newer one. Each ranked band keeps its workers most
/// recent first; a worker entering or leaving one moves the ranks of those after it, and only the ones whose value
/// changes (within the band's span) are written again.
extension Supervisor {
    /// Moves `worker` to `band` if it is not there already. With `assertion`, the band is applied even if it
    /// seems current: that is the foreground assertion a view takes when it enters the window, and the call that
    /// finds out a process is gone.
    func setBand(_ band: PriorityBand, of worker: Worker, assertion: Bool = false) {
        guard assertion || worker.band != band else { return }
        let old = worker.band
        if old != band, let old { leaveRanks(of: worker, in: old) }
        let rank = old == band ? worker.rank : enterRanks(worker, in: band)
        apply(band, rank: rank, to: worker)
        // Refused, it keeps its old standing: the ranks follow what the kernel holds.
        if worker.band != band {
            leaveRanks(of: worker, in: band)
            if let old { _ = enterRanks(worker, in: old) }
        }
    }

    /// The worker has ended: those ranked after it move up.
    func forgetRank(of worker: Worker) {
        if let band = worker.band { leaveRanks(of: worker, in: band) }
    }

    private func apply(_ band: PriorityBand, rank: Int, to worker: Worker) {
        let bands = settings.bands
        let result = worker.handle.apply(band, rank: rank, bands)
        if result == .applied { (worker.band, worker.rank) = (band, rank) }
        let rbs: RunningBoardError? = result == .noSuchProcess && band == .foreground ? .targetMissing : nil
        log.emit(
            .priority(
                band: band, nice: Int(bands.nice(band)), oomScoreAdj: Int(bands.oomScoreAdjust(band, rank: rank)),
                result: result.answer, error: result.error, rbs: rbs),
            view: worker.view?.id, pid: worker.pid)
    }

    /// What a worker is ranked by in `band`, the greater the more recent: when its view was last shown (a tab never
    /// shown after any shown, the newer first), or, in the cache, when it entered.
    private func rankKey(of worker: Worker, in band: PriorityBand) -> (Int, Int) {
        guard band != .cached, let view = worker.view else { return (clock.now, 0) }
        return (view.lastShownAt ?? Int.min, view.createdAt)
    }

    /// Puts `worker` in its place in `band`'s ranks, moves those after it down, and returns its rank.
    private func enterRanks(_ worker: Worker, in band: PriorityBand) -> Int {
        let span = OOMScores.span(of: band).count
        guard span > 1 else { return 0 }
        worker.rankKey = rankKey(of: worker, in: band)
        var list = ranked[band, default: []]
        // Among equals, the newcomer first.
        let index = list.firstIndex { $0.rankKey <= worker.rankKey } ?? list.endIndex
        list.insert(worker, at: index)
        ranked[band] = list
        rerank(band, from: index + 1)
        return index
    }

    private func leaveRanks(of worker: Worker, in band: PriorityBand) {
        guard var list = ranked[band], let index = list.firstIndex(where: { $0 === worker }) else { return }
        list.remove(at: index)
        ranked[band] = list
        rerank(band, from: index)
    }

    /// Writes again the value of each worker from `start` on whose rank moved, up to the band's span: past it, all
    /// share the last value. While workers are being taken back, each entering the band first would move all the
    /// others, once per worker: that waits until the last is settled (`deferredReranks`).
    func rerank(_ band: PriorityBand, from start: Int) {
        if !reclaiming.isEmpty {
            deferredReranks[band] = min(start, deferredReranks[band] ?? start)
            return
        }
        let list = ranked[band, default: []]
        let end = min(list.count, OOMScores.span(of: band).count)
        guard start < end else { return }
        for index in start..<end where list[index].rank != index && !list[index].reaped {
            apply(band, rank: index, to: list[index])
        }
    }
}
