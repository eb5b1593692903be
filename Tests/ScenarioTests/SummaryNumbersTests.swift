import Foundation
import Glibc
import Testing

@testable import LogAnalysis
@testable import Browser
@testable import Core
@testable import Scenario
@testable import Text
@testable import SupervisorTesting

extension Processes {
    /// Every figure of the run summary means what its label says: blank time, faults met and escaped, workers
    /// launched and ended, kills by who sent them, and memory only when it was measured.
    @Suite struct SummaryNumbers {
        /// Blank time is time users looked at a view that never showed content: a policy with no blank load has
        /// none, however long its loads took to become visible.
        @Test func blankTimeCountsOnlyBlankLoads() throws {
            let (guarded, _) = try Race.raced(.guarded)
            #expect(guarded.blank == 0 && guarded.rendered == 4)
            #expect(guarded.blankMs == 0)
            #expect(guarded.json.text.contains(#""blankMs":0.0,"#))
            #expect(!guarded.text.contains("blank time"))

            let (none, events) = try Race.raced(.none)
            #expect(none.blank == 4)
            let blankEnds = events.named("load-end").filter { $0.string("outcome") == "blank" }
            let shown = blankEnds.compactMap { end -> Double? in
                if case .double(let ms)? = end["blankMs"] { ms } else { nil }
            }
            #expect(shown.count == 4)
            #expect(abs(none.blankMs - shown.reduce(0, +)) < 0.01)
            // Each blank load was looked at until it was given up: at least the blank timeout (400 ms).
            #expect(none.blankMs >= 4 * 400)
            #expect(none.text.contains("blank time: \(fixed(none.blankMs / 1000, 3)) s in 4 blank loads"))
        }

        /// A fault aimed at a protected worker is spared, not delivered: the summary says which, so that "0 blank"
        /// under a policy that met no fault is not read as "recovered".
        @Test func injectedFaultsAreDeliveredOrSpared() throws {
            let (guarded, spared) = try Race.raced(.guarded)
            #expect(guarded.faultsDelivered == 0 && guarded.faultsSpared == 4)
            #expect(spared.named("inject-spared").count == 4)
            #expect(guarded.text.contains("injected faults: 0 delivered, 4 spared"))
            #expect(guarded.json.text.contains(#""faults":{"delivered":0,"spared":4}"#))

            let (none, delivered) = try Race.raced(.none)
            #expect(none.faultsDelivered == 4 && none.faultsSpared == 0)
            #expect(delivered.named("inject").count == 4)
            #expect(none.json.text.contains(#""faults":{"delivered":4,"spared":0}"#))
        }

        /// Spares are launched workers too: every worker launched ends once, so the counts add up.
        @Test func workerCountsAddUp() throws {
            let (summary, events) = try simulate({
                $0.policy = .guarded
                $0.loads = 10
                // Pages that render before the next view opens: the spare launched after a render is taken.
                $0.fetchLatencyNanoseconds = 0...0
            }, content: ContentProvider(pages: [("page.html", page("Page"))]))
            let launched = Set((events.named("spawn") + events.named("spare")).compactMap(\.pid))
            #expect(summary.spawns == launched.count)
            #expect(summary.spareSpawns == events.named("spare").filter { $0["reused"] == nil }.count)
            #expect(summary.spareSpawns >= 1)
            #expect(summary.reuses == events.named("spawn").filter { $0["reused"] == .bool(true) }.count)
            #expect(summary.reuses > 0)
            #expect(summary.deaths == events.named("death").count && summary.deaths == summary.spawns)
            let spares = summary.spareSpawns == 1 ? "1 as a spare" : "\(summary.spareSpawns) as spares"
            #expect(summary.text.contains("workers: \(summary.spawns) launched (\(spares)), reused \(summary.reuses) times; "
                + "\(summary.deaths) ended"))
        }

        /// The supervisor knows every signal it sends: an injected fault's kill, its own kills (a hang) and its
        /// shutdowns are told apart from a kill it did not send, which is counted as from outside when its killer
        /// claimed it.
        @Test func eachDeathNamesWhoCausedIt() throws {
            let (raced, racedEvents) = try Race.raced(.none)
            #expect(racedEvents.named("death").filter { $0["signal"] == .int(9) }.allSatisfy { $0.string("cause") == "injected" })
            #expect(raced.killsByCause[.injected] == 4 && raced.killsByCause[.outside] == nil)

            let hang = try TemporaryFolder(["page.html": page("Page", fault: "hang")])
            let (hung, hungEvents) = try simulate({
                $0.loads = 1
                $0.policy.maxRecoveries = 0
                $0.pingIntervalNanoseconds = 50_000_000
                $0.hangTimeoutNanoseconds = 200_000_000
            }, content: try hang.provider)
            let unresponsive = try #require(hungEvents.named("death").first { $0.string("status") == "unresponsive" })
            #expect(unresponsive.string("cause") == "supervisor")
            #expect(hung.killsByCause[.supervisor] == 1 && hung.killsByCause[.injected] == nil)

            var victim: Int32?
            let (killed, killedEvents) = try simulate({ $0.policy = .rebuild; $0.loads = 2 },
                content: ContentProvider(pages: [("page.html", page("Page"))])) { event in
                if event.name == "render", victim == nil, let pid = event.pid {
                    victim = pid
                    killFromOutside(pid)
                }
            }
            let deaths = killedEvents.named("death")
            #expect(deaths.first { $0.pid == victim }?.string("cause") == "outside")
            #expect(killed.killsByCause[.outside] == 1 && killed.killsByCause[.supervisor] == nil)
            // The others were told to exit when their load ended: the supervisor's doing, and no kill.
            let others = deaths.filter { $0.pid != victim }
            #expect(!others.isEmpty && others.allSatisfy { $0.string("cause") == "supervisor" && $0["code"] == .int(0) })
            #expect(killed.text.contains("kills: 0 injected, 0 by the supervisor, 1 from outside (claimed by Jetsam or "
                + "chaos), 0 unknown"))
            #expect(killed.json.text.contains(#""killsByCause":{"injected":0,"supervisor":0,"outside":1,"unknown":0}"#))
        }

        /// Peak worker memory is what was read, in tenths of a MiB (a worker can hold less than one), and no
        /// figure at all when no worker rendered, never a made-up 0.
        @Test func peakWorkerMemoryIsMeasuredOrAbsent() throws {
            let (small, _) = try simulate({ $0.loads = 1 }, content: ContentProvider(pages: [("tiny.html", "<title>T</title>")]))
            let bytes = try #require(small.peakWorkerRSSBytes)
            #expect(bytes > 0)
            #expect(small.text.contains("peak RSS of the live workers: \(small.peakWorkerRSSMiB!) MiB"))
            #expect(small.peakWorkerRSSMiB != "0.0" && !small.text.contains(" 0 MiB"))

            let (blank, _) = try Race.raced(.none)
            #expect(blank.rendered == 0)
            #expect(blank.peakWorkerRSSBytes == nil)
            #expect(blank.json.text.contains(#""peakWorkerRSSBytes":null"#))
            #expect(blank.text.contains("peak RSS of the live workers: not measured"))
        }
    }
}
