import Foundation
import Glibc
import Testing
@testable import Core
@testable import Scenario
@testable import SupervisorTesting

extension Processes {
    /// Hangs, crash loops, a worker that cannot start, and the supervisor's own death and shutdown.
    @Suite struct Reliability {
        /// A document that spins is killed as unresponsive after the hang timeout, not before.
        @Test func aSpinningDocumentIsUnresponsiveAfterTheHangTimeout() throws {
            let content = try TemporaryFolder(["page.html": page("Page", fault: "hang")])
            let (_, events) = try simulate({
                $0.loads = 1
                $0.policy.maxRecoveries = 0
                $0.pingIntervalNanoseconds = 50_000_000
                $0.hangTimeoutNanoseconds = 400_000_000
            }, content: try content.provider)
            let death = try #require(events.named("death").first)
            #expect(death.string("status") == "unresponsive")
            let kill = try #require(events.named("kill").first)
            #expect(kill.string("reason") == "no answer within 400 ms")
            let load = try #require(events.named("load").first)
            #expect(kill.monotonic - load.monotonic >= 400_000_000)
        }

        /// A document that crashes its worker on every load is restarted at most three times in the window, each
        /// restart waiting longer than the one before, then ends on an error page: spawns stay bounded.
        @Test func aCrashLoopEndsOnAnErrorPageWithBoundedSpawns() throws {
            let content = try TemporaryFolder(["crash.html": page("Crash", fault: "segv")])
            let (summary, events) = try simulate({
                $0.policy = .guarded
                $0.loads = 2
                $0.policy.crashBackoffNanoseconds = 20_000_000
            }, content: try content.provider)
            #expect(events.named("crash-loop").count == 2)
            #expect(summary.failed == 2 && summary.blank == 0)
            #expect(summary.spawns + summary.reuses <= 2 * 4)
            #expect(events.named("load-end").allSatisfy { $0.string("error")?.hasPrefix("crash-loop: 4 crashes") == true })
            // The gaps between a death and the next load of the same page grow.
            let first = events.filter { ($0.name == "death" || $0.name == "load") }.prefix(8)
            var gaps: [Int] = []
            var lastDeath: Int?
            for event in first {
                if event.name == "death" { lastDeath = event.monotonic }
                if event.name == "load", let death = lastDeath { gaps.append(event.monotonic - death) }
            }
            #expect(gaps.count == 3)
            #expect(gaps[1] >= 20_000_000 && gaps[2] >= 40_000_000 && gaps[2] > gaps[1])
        }

        /// Kills from outside are the OS's doing, not the page's: they never add up to a crash loop.
        @Test func killsFromOutsideAreNotACrashLoop() throws {
            let content = try TemporaryFolder(["slow.html": page("Slow", render: "cpu=100ms")])
            var kills = 0
            let (summary, events) = try simulate({ $0.policy = .guarded; $0.loads = 1 }, content: try content.provider) { event in
                if event.name == "commit", kills < 6, let pid = event.pid {
                    kills += 1
                    killFromOutside(pid)
                }
            }
            #expect(kills == 6)
            #expect(events.named("crash-loop").isEmpty)
            #expect(summary.rendered == 1)
        }

        /// SIGKILL the supervisor: the kernel kills its workers (PR_SET_PDEATHSIG) and Jetsam sees its parent
        /// change; all are dead within 100 ms. One worker is stopped first: it cannot notice its channel's end of
        /// file, only the kernel can end it.
        @Test func aKilledSupervisorTakesItsWorkersAndJetsamWithIt() throws {
            let folder = try TemporaryFolder([:])
            let supervisor = try BackgroundSupervisor(
                ["run", "--policy", "guarded", "--views", "4", "--hidden", "1", "--loads", "1000000", "--dwell", "200",
                 "--jetsam=budget=100000", "--typing", "50"], folder: folder)
            #expect(eventually(within: 20) {
                let children = supervisor.liveChildren()
                return children.filter { $0.name == "WebContent" }.count >= 5 && children.contains { $0.name == "Jetsam" }
            })
            let children = supervisor.liveChildren().map(\.pid)
            let stopped = try #require(supervisor.liveChildren().first { $0.name == "WebContent" }?.pid)
            kill(stopped, SIGSTOP)
            kill(supervisor.pid, SIGKILL)
            let killed = Date()
            #expect(eventually(within: 2) { children.allSatisfy(isDead) })
            #expect(Date().timeIntervalSince(killed) < 0.1)
            #expect(reapOrphans(children))
        }

        /// SIGTERM: every worker is told to shut down and exits cleanly, the editor reports its document first,
        /// and the summary says how far the run got; none of it counts as a race, an unobserved death or a
        /// failed launch.
        @Test func sigtermShutsDownCleanlyAndSaysTheRunWasInterrupted() throws {
            let folder = try TemporaryFolder([:])
            let log = folder.path + "/run.jsonl"
            let supervisor = try BackgroundSupervisor(
                ["run", "--policy", "rebuild", "--views", "4", "--loads", "1000000", "--dwell", "30", "--typing", "200",
                 "--log", log], folder: folder)
            let loadEnds = { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").components(separatedBy: "\"load-end\"").count - 1 }
            #expect(eventually(within: 20) { loadEnds() >= 20 })
            kill(supervisor.pid, SIGTERM)
            #expect(supervisor.wait() == 130)
            let text = supervisor.stdout
            #expect(text.contains("interrupted after "), "\(text)")
            #expect(text.contains("of 1,000,000 loads"))
            #expect(text.contains("races: 0 kills before attach, 0 unobserved deaths"))
            #expect(text.contains(", 0 lost, 0 applied twice"))
            let events = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
            let deaths = events.filter { $0.contains("\"event\":\"death\"") && $0.contains("\"shutdown\":true") }
            #expect(deaths.count >= 5)
            #expect(deaths.allSatisfy { $0.contains("\"status\":\"normal\"") })
            #expect(!events.contains { $0.contains("launch-failed") || $0.contains("\"event\":\"unobserved\"") })
            #expect(supervisor.liveChildren().isEmpty)
        }
    }
}

extension BesideOthers {
    /// A worker that cannot start, as the binary says it.
    @Suite struct StartFailureCLI {
        @Test func aWorkerThatCannotStartStopsTheRunWithOneLine() throws {
            let started = Date()
            // Bounded from outside too: without the stop, this run would go on for hours.
            let result = try runCommand("/usr/bin/timeout", ["-s", "KILL", "20", supervisorPath, "run", "--worker", "/bin/false", "--loads", "1000"])
            #expect(Date().timeIntervalSince(started) < 5)
            #expect(result.status == 1)
            #expect(unwrapped(result.stderr) == "supervisor: error: worker '/bin/false' failed to launch 2 times in a row: died before hello: abnormal(1)\n")
            #expect(result.stdout.isEmpty)
        }
    }
}
