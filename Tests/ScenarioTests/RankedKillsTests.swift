import Foundation
import Glibc
import Testing

@testable import Core
import Events
@testable import Scenario
@testable import Browser
import Vocabulary
@testable import SupervisorTesting

extension Processes {
    /// Ranked kills on real workers under Jetsam (issue 32, item 3): every kill takes the lowest-ranked live worker.
    @Suite struct RankedKills {
        /// Each worker's oom_score_adj at `time`, from the `priority` events written before it, for the workers with no
        /// death logged by then (but `victim`, whose death may be logged before Jetsam reads its clock): what the
        /// supervisor had written to /proc, read from its log alone.
        static func standing(at time: Int, victim: Int32, _ events: [Event]) -> [Int32: Int] {
            var adjust: [Int32: Int] = [:]
            for event in events where event.monotonic < time {
                guard let pid = event.pid else { continue }
                if event.name == "priority", event.string("result") == "ok", let value = event.int("oomScoreAdj") {
                    adjust[pid] = value
                } else if event.name == "death", pid != victim {
                    adjust[pid] = nil
                }
            }
            return adjust
        }

        /// 16 views, loads arriving 10 ms apart: 12 hidden tabs (suspended once rendered, each younger than the last)
        /// and 4 on screen, under critical pressure with a kill every 200 ms. Each kill, checked against what the event
        /// log says every live worker's oom_score_adj was, takes the highest; the tabs die oldest first; no worker on
        /// screen dies while a hidden one lives; Jetsam's log names each victim's band and rank.
        @Test func criticalPressureTakesTheLowestRankedWorkerEveryTime() throws {
            let folder = try TemporaryFolder([:])
            let logFD = open(folder.path + "/kills.jsonl", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            try #require(logFD >= 0)
            defer { close(logFD) }
            var jetsam = Jetsam.settings(critical: true, logFD: logFD)
            jetsam.intervalMilliseconds = 200
            let (_, events) = try simulate({
                $0.policy = .none
                $0.loads = 16
                $0.views = 16
                $0.hidden = 12
                $0.arrivalNanoseconds = 10_000_000
                $0.hiddenNanoseconds = 3_000_000_000
                $0.dwellNanoseconds = 3_000_000_000
                $0.blankTimeoutNanoseconds = 300_000_000
                $0.jetsam = jetsam
            }, content: ContentProvider())
            let kills = try String(contentsOfFile: folder.path + "/kills.jsonl", encoding: .utf8)
                .split(separator: "\n").map { try JetsamKill(line: Array($0.utf8)) }
            try #require(kills.count >= 12, "\(kills.count) kills")
            let loadOf = Dictionary(events.named("spawn").compactMap { event in event.pid.map { ($0, event.int("load") ?? -1) } },
                                    uniquingKeysWith: { first, _ in first })
            var victims: [Int] = []
            for kill in kills {
                let live = Self.standing(at: kill.monotonic, victim: kill.pid, events)
                let victim = try #require(live[kill.pid], "pid \(kill.pid) had no standing at its kill")
                let highest = try #require(live.values.max())
                #expect(victim == highest, "killed \(kill.pid) at \(victim) while \(live.filter { $0.value > victim }) lived: \(events.filter { $0.name != "fetch" && abs($0.monotonic - kill.monotonic) < 3_000_000 }.map { "\($0.name) \($0.pid ?? 0) \($0.int("oomScoreAdj") ?? -1) \(($0.monotonic - kill.monotonic) / 1000)us" })")
                #expect(kill.oomScoreAdj == victim && OOMScores.standing(victim)?.band == kill.band && kill.rank != nil)
                // Nothing on screen while a hidden tab lived.
                #expect(victim != OOMScores.foreground || !live.values.contains { $0 >= OOMScores.hidden.lowerBound })
                victims.append(loadOf[kill.pid] ?? -1)
            }
            // The hidden tabs (loads 0 to 11) died oldest first.
            let tabs = victims.filter { (0..<12).contains($0) }
            #expect(tabs == tabs.sorted() && Set(tabs).count == 12, "\(victims)")
            #expect(childProcesses().isEmpty)
        }
    }
}
