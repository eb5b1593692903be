import Testing
import TestSupport
import Vocabulary

@testable import Core
@testable import Events
@testable import SupervisorTesting

/// Ranks within bands (issue 32, item 3), in virtual time: a worker's oom_score_adj is its band's base plus its rank,
/// by recency, kept up to date as views are shown, hidden, cached and closed.
@Suite struct Ranks {
    static func adjust(_ worker: FakeWorker?) -> Int32? { worker?.oomScoreAdjust() }

    /// Hidden tabs rank by when they were last shown, the most recent first; showing one takes it out of the band and
    /// moves those after it up, and hiding it again puts it first.
    @Test func hiddenTabsRankByWhenTheyWereLastShown() throws {
        var policy = Policy.none
        policy.suspends = false
        let rig = CoreRig(policy)
        let views = (0..<3).map { rig.open(index: $0).view }
        rig.run(untilMs: 5)
        let workers = rig.launcher.launched
        try #require(workers.count == 3)
        rig.run(untilMs: 10)
        rig.supervisor.show(views[1])
        rig.run(untilMs: 20)
        rig.supervisor.show(views[2])
        rig.run(untilMs: 30)
        views.forEach(rig.supervisor.hide)
        // Last shown at 0, 10 and 20 ms: the one shown at 20 ms is ranked first, the last the killer takes.
        #expect(workers.map(Self.adjust) == [802, 801, 800])
        rig.run(untilMs: 40)
        rig.supervisor.show(views[0])
        #expect(workers.map(Self.adjust) == [0, 801, 800])
        rig.run(untilMs: 50)
        rig.supervisor.hide(views[0])
        #expect(workers.map(Self.adjust) == [800, 802, 801])
        // A closed tab's worker leaves the band: those after it move up.
        rig.supervisor.close(views[2])
        rig.settle()
        #expect(Self.adjust(workers[0]) == 800 && Self.adjust(workers[1]) == 801)
        // Every value written was logged, as the killer would read it.
        let logged = rig.named("priority").filter { $0.pid == workers[1].pid }.compactMap { $0.int("oomScoreAdj") }
        #expect(logged.last == 801 && logged.contains(802))
    }

    /// Suspended tabs rank the same way, below launching workers; cached workers below them, newest first; a spare
    /// last of all.
    @Test func suspendedCachedAndSpareWorkersRankBelowEveryViewsWorker() throws {
        var policy = Policy.guarded
        policy.spareWorkers = 1
        let rig = CoreRig(policy)
        let hidden = (0..<2).map { rig.open(index: $0, host: "h\($0).test").view }
        rig.run(untilMs: 5)
        rig.supervisor.hide(hidden[0])
        rig.run(untilMs: 10)
        rig.supervisor.hide(hidden[1])
        rig.run(untilMs: 20)
        let suspended = hidden.map { view in rig.launcher.launched.first { $0.pid == view.worker?.pid } }
        // Hidden at 5 and 10 ms after being shown at creation: the same last showing, so the newer tab first.
        #expect(suspended.map { $0?.bands.last } == [.suspended, .suspended])
        #expect(suspended.map(Self.adjust) == [921, 920])
        let spare = try #require(rig.launcher.launched.first { worker in rig.supervisor.spares.contains { $0.pid == worker.pid } })
        #expect(spare.bands.last == .spare && Self.adjust(spare) == 1000)

        let closing = (2..<4).map { rig.open(index: $0, host: "c\($0).test").view }
        rig.run(untilMs: 30)
        let cached = closing.map { view in rig.launcher.launched.first { $0.pid == view.worker?.pid } }
        for view in closing {
            rig.supervisor.close(view)
            rig.settle()
        }
        // The one cached last ranks first.
        #expect(cached.map { $0?.bands.last } == [.cached, .cached] && cached.map(Self.adjust) == [961, 960])
        // The first spare went to a view of a new site; the one waiting now is ranked last.
        let waiting = try #require(rig.launcher.launched.first { worker in rig.supervisor.spares.contains { $0.pid == worker.pid } })
        let (tabs, kept) = (suspended.compactMap(Self.adjust), cached.compactMap(Self.adjust))
        #expect(tabs.min()! > 900 && tabs.max()! < kept.min()! && kept.max()! < Self.adjust(waiting)!)
    }
}
