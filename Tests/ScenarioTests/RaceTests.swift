import Foundation
import Testing
import Vocabulary

@testable import Core
@testable import Events
@testable import LogAnalysis
@testable import Scenario
@testable import Browser
@testable import SupervisorTesting

/// The kill-before-render race, reproduced exactly with `--inject-race 1` (every load raced), and what each policy
/// makes of it, in virtual time. (`Processes.RaceOnRealWorkers` deals the same race to real processes.)
@Suite struct Race {
    /// The page takes longer to render than the race window lasts, so a raced worker never paints first: its
    /// view has no title, and the watchdog always sees a blank.
    static func raced(
        _ policy: Policy, loads: Int = 4, rate: Double = 1, seed: UInt64 = 1, fetchLatencyMs: ClosedRange<Int>? = nil
    ) throws -> (RunSummary, [Event]) {
        let run = try simulateVirtually(
            racing(policy, loads: loads, rate: rate, seed: seed, fetchLatencyMs: fetchLatencyMs), content: slowPage)
        return (run.summary, run.events)
    }

    static func racing(
        _ policy: Policy, loads: Int = 4, rate: Double = 1, seed: UInt64 = 1, fetchLatencyMs: ClosedRange<Int>? = nil
    ) -> (inout RunConfiguration) -> Void {
        {
            if let fetchLatencyMs { $0.fetchLatencyNanoseconds = fetchLatencyMs.lowerBound * 1_000_000...fetchLatencyMs.upperBound * 1_000_000 }
            $0.policy = policy
            $0.loads = loads
            $0.views = 4
            $0.seed = seed
            $0.raceRate = rate
            $0.watchdogNanoseconds = 150_000_000
            $0.blankTimeoutNanoseconds = 400_000_000
        }
    }

    static var slowPage: ContentProvider { ContentProvider(pages: [("page.html", page("Page", render: "cpu=30ms"))]) }

    @Test(arguments: [Policy.none, .reload])
    func withoutRebuildEveryRacedLoadIsBlank(policy: Policy) throws {
        let (summary, events) = try Self.raced(policy)
        #expect(summary.blank == 4 && summary.rendered == 0)
        // A load never seen is the slowest load there is, not a load left out of the percentiles.
        #expect(summary.timeToVisibleMs.count == 4 && summary.timeToVisibleMs.allSatisfy(\.isInfinite))
        #expect(summary.raceKills == 4)
        #expect(summary.unobservedDeaths == 4)
        // Each view attached after its worker died: the foreground assertion failed the RunningBoard way.
        #expect(summary.rbsErrors == 4)
        #expect(events.named("termination").isEmpty)
        if policy == .reload {
            // Killed before its page committed, as the fetch takes longer than the attach: the reload's new process
            // has nothing to load.
            #expect(events.named("commit").isEmpty)
            let nothing = events.named("no-item-to-reload")
            #expect(Set(nothing.compactMap(\.view)).count == 4 && summary.recoveries[.reload] ?? 0 >= 4)
        }
    }

    /// With the page answered at once, the kill comes after its commit (and before its render): the reload's new
    /// process loads the committed page, and every load renders.
    @Test func reloadSavesARacedLoadThatHadCommitted() throws {
        let (summary, events) = try Self.raced(.reload, fetchLatencyMs: 0...0)
        #expect(summary.raceKills == 4 && summary.unobservedDeaths == 4 && summary.rbsErrors == 4)
        let raced = events.named("death").filter { $0.string("cause") == "injected" }
        #expect(raced.count == 4 && raced.allSatisfy { $0["rendered"] == .bool(false) })
        #expect(summary.rendered == 4 && summary.blank == 0 && events.named("no-item-to-reload").isEmpty)
        #expect(events.named("recovery").map { $0.string("kind") } == Array(repeating: "reload", count: 4))
    }

    /// Race kills by how far the page had got, and which loads were saved in the end: with its fetch slower than
    /// the attach, every kill comes before the commit; answered at once, after it; a page with nothing to render
    /// has painted before the kill.
    @Test func raceKillsAreSplitByHowFarThePageHadGot() throws {
        let (late, _) = try Self.raced(.reload)
        #expect(RaceStage.allCases.map(late.races.cell) == ["0/4", "0/0", "0/0"])
        let (early, _) = try Self.raced(.reload, fetchLatencyMs: 0...0)
        #expect(RaceStage.allCases.map(early.races.cell) == ["0/0", "4/4", "0/0"])
        let (painted, _, _) = try simulateVirtually(
            Self.racing(.rebuild, fetchLatencyMs: 0...0), content: ContentProvider(pages: [("page.html", page("Page"))]))
        #expect(RaceStage.allCases.map(painted.races.cell) == ["0/0", "0/0", "4/4"])
        #expect(painted.json.text.contains(#""after-render":{"killed":4,"saved":4}"#))
    }

    @Test func rebuildRendersEveryRacedLoadOnceTheWatchdogFires() throws {
        let (summary, events) = try Self.raced(.rebuild)
        #expect(summary.raceKills == 4 && summary.unobservedDeaths == 4)
        #expect(summary.rendered == 4 && summary.blank == 0)
        #expect(events.named("recovery").map { $0.string("reason") } == Array(repeating: "blank", count: 4))
        #expect(summary.timeToVisibleMs.allSatisfy { $0 >= 150 })
    }

    @Test func alwaysForegroundLeavesNothingToKill() throws {
        let (summary, events) = try Self.raced(.alwaysForeground)
        #expect(summary.raceKills == 0)
        #expect(events.named("inject-spared").count == 4)
        #expect(summary.rendered == 4)
    }

    @Test func guardedHasNoBlanksAndABetterP99ThanRebuild() throws {
        let (guarded, events) = try Self.raced(.guarded, loads: 8)
        let (rebuild, _) = try Self.raced(.rebuild, loads: 8)
        #expect(guarded.blank == 0 && guarded.rendered == 8)
        #expect(guarded.raceKills == 0)
        #expect(events.named("inject-spared").count == 8)
        #expect(Percentiles(guarded.timeToVisibleMs).p99 < Percentiles(rebuild.timeToVisibleMs).p99)
    }

    @Test func theSameSeedGivesTheSameFaultsAndTheSameCounts() throws {
        func run() throws -> (blank: Int, raceKills: Int, raced: [Int]) {
            let (summary, events) = try Self.raced(.reload, loads: 40, rate: 0.2, seed: 42)
            let loadOfView = Dictionary(events.named("view-open").map { ($0.view!, $0.int("load")!) }) { a, _ in a }
            return (summary.blank, summary.raceKills, events.named("inject").map { loadOfView[$0.view!]! }.sorted())
        }
        let first = try run()
        let second = try run()
        #expect(first.raced.count > 2 && first.raced.count < 20)
        #expect(first.raced == second.raced)
        #expect(first.blank == second.blank && first.raceKills == second.raceKills, "\(first) \(second)")
        #expect(first.blank == first.raced.count)
    }

    /// Case 1: a hidden view's worker is killed after render and the view is shown again later.
    @Test(arguments: [("none", 2, "none"), ("webkit-default", 0, "shown"), ("guarded", 0, "shown"), ("rebuild", 0, "termination")])
    func aWorkerKilledWhileItsViewIsHiddenIsRecoveredAsThePolicySays(policy: String, blanks: Int, reason: String) throws {
        let (summary, events, _) = try simulateVirtually({
            $0.policy = Policy.named(policy)!
            $0.loads = 2
            $0.views = 2
            $0.hidden = 2
            $0.killRate = 1
            // Hidden long enough for the render to come first on a loaded machine: the kill is dealt between
            // the render and the show, and a render after the show leaves nothing to kill while hidden.
            $0.hiddenNanoseconds = 2_000_000_000
            $0.blankTimeoutNanoseconds = 2_000_000_000
        }, content: ContentProvider())
        #expect(events.named("inject").map { $0.string("kind") } == ["kill-after-render", "kill-after-render"])
        #expect(events.named("termination").count == 2)
        #expect(summary.blank == blanks)
        #expect(events.named("recovery").map { $0.string("reason") } == (reason == "none" ? [] : [reason, reason]))
    }
}

extension Processes {
    /// The race on real workers: each is SIGKILLed at background priority before its view attaches, and the
    /// foreground assertion its view then takes finds the process gone (ESRCH), as RunningBoard's does.
    @Suite struct RaceOnRealWorkers {
        @Test func aRacedWorkerIsGoneWhenItsViewAttaches() throws {
            let (summary, events) = try simulate(Race.racing(.none), content: Race.slowPage)
            #expect(summary.raceKills == 4 && summary.unobservedDeaths == 4 && summary.blank == 4)
            #expect(summary.rbsErrors == 4)
            let deaths = events.named("death")
            #expect(deaths.count == 4 && deaths.allSatisfy { $0.string("cause") == "injected" && $0.int("signal") == 9 })
        }
    }
}
