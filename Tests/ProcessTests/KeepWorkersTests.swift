import CShim
import Foundation
import Glibc
import ProcFS
import Testing

@testable import SupervisorTesting
@testable import System

extension Processes {
    /// `run --keep-workers` (issue 34): the workers are the holder's children, and outlive a SIGKILLed supervisor for
    /// the lease, and not longer.
    @Suite struct KeepWorkers {
        static let leaseMilliseconds = 400

        /// The must-show "a supervisor that never comes back": eight rendered workers, their supervisor SIGKILLed.
        /// Sampled from /proc, every one lives on halfway through the lease (without the holder they die with the
        /// supervisor, at once), and every one, and the holder, is gone within the lease plus 100 ms.
        @Test func aSupervisorThatNeverComesBackLeavesNothingAfterTheLease() throws {
            let (supervisor, workers) = try startSupervisorShowing(views: 8, [
                "--keep-workers", "--lease", "\(Self.leaseMilliseconds)", "--jetsam",
            ])
            defer { Self.stop(supervisor, workers) }
            let holder = try #require(processes().first { $0.parent == supervisor.processIdentifier && $0.name == "Holder" }?.pid)
            #expect(workers.allSatisfy { ProcFS.stat(.pid($0))?.parent == holder }, "the workers are the holder's children")
            kill(supervisor.processIdentifier, SIGKILL)
            let killed = Sys.monotonicNanoseconds()
            supervisor.waitUntilExit()
            var lastSeen = killed
            var aliveHalfway: Int?
            while Sys.monotonicNanoseconds() - killed < 5_000_000_000 {
                let alive = workers.filter { !isDead($0) }
                let now = Sys.monotonicNanoseconds()
                if aliveHalfway == nil, now - killed >= Self.leaseMilliseconds * 500_000 { aliveHalfway = alive.count }
                if alive.isEmpty && isDead(holder) { break }
                lastSeen = now
                usleep(1_000)
            }
            let goneAfter = Double(lastSeen - killed) / 1e6
            print("keep-workers: 8 workers gone \(String(format: "%.1f", goneAfter)) ms after the supervisor's SIGKILL (lease \(Self.leaseMilliseconds) ms)")
            #expect(aliveHalfway == 8, "workers alive halfway through the lease: \(aliveHalfway ?? 0)")
            #expect(goneAfter < Double(Self.leaseMilliseconds + 100), "gone \(goneAfter) ms after the kill")
            // The holder was re-parented here (a subreaper) or to init; here, it is reaped.
            _ = waitpid(holder, nil, WNOHANG)
            #expect(workers.allSatisfy(isDead) && isDead(holder))
            #expect(processes().filter { $0.parent == holder && $0.state != "Z" }.isEmpty)
        }

        /// Without --keep-workers nothing changes: the workers are the supervisor's children and die with it.
        @Test func withoutItTheWorkersAreTheSupervisorsAndDieWithIt() throws {
            let (supervisor, workers) = try startSupervisorShowing(views: 2, [])
            defer { Self.stop(supervisor, workers) }
            #expect(workers.allSatisfy { ProcFS.stat(.pid($0))?.parent == supervisor.processIdentifier })
            kill(supervisor.processIdentifier, SIGKILL)
            supervisor.waitUntilExit()
            #expect(reapOrphans(workers))
        }

        /// Jetsam finds the held workers among the holder's children, not the supervisor's, and kills them as it
        /// would the supervisor's own: over a 2 MiB budget, every load's worker is a victim.
        @Test func jetsamKillsHeldWorkers() throws {
            let run = try runSupervisor([
                "run", "--keep-workers", "--jetsam=budget=2", "--loads", "6", "--views", "2", "--dwell", "300", "--json",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let kills = try #require(summary["killsByCause"] as? [String: Int])
            #expect((kills["outside"] ?? 0) >= 6, "\(kills)")
            #expect(summary["deaths"] as? Int == summary["spawns"] as? Int)
        }

        /// Whatever a check cut short: the supervisor killed, its workers dead and reaped.
        static func stop(_ supervisor: Process, _ workers: [Int32]) {
            if supervisor.isRunning { kill(supervisor.processIdentifier, SIGKILL) }
            supervisor.waitUntilExit()
            reapOrphans(workers)
        }
    }
}
