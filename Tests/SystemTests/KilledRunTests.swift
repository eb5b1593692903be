import Foundation
import Glibc
import Testing
@testable import SupervisorTesting

extension Processes {
    /// What a supervisor SIGKILLed mid-run leaves beside the files it was writing, and what the next run on the
    /// same names does with it; and two runs on one event log at once.
    @Suite struct KilledRuns {
        /// The first line of a run's event log, as the one killed here writes it.
        static let killedRunBegins = #""event":"run-begin","schemaVersion":3,"policy":"rebuild","delegate":true,"loads":1000000"#

        /// Starts a run on `--log run.jsonl` that would go on for ever, waits until its log has lines, and SIGKILLs
        /// it; returns once it and its workers are dead.
        func killRunWritingLog(in folder: TemporaryFolder) throws {
            let run = try backgroundSupervisor(["run", "--loads", "1000000", "--dwell", "20", "--log", "run.jsonl"], in: folder)
            let written = {
                temporaries(folder).contains { name in
                    (try? String(contentsOfFile: folder.path + "/" + name, encoding: .utf8))?.contains(Self.killedRunBegins) == true
                }
            }
            #expect(eventually(within: 20, written))
            let workers = processes().filter { $0.parent == run.pid }.map(\.pid)
            #expect(run.end(by: SIGKILL) == 128 + SIGKILL)
            reapOrphans(workers)
        }

        /// A SIGKILL while `--log` named an existing file left the killed run's lines in an orphan `FILE.tmp-*`,
        /// one more per kill. The next run keeps them once as `FILE.unfinished` (the evidence of how that run
        /// died), says so, and the one after that finds nothing more: nothing piles up.
        @Test func aKilledRunsLogIsKeptOnceAndNothingPilesUp() throws {
            let folder = try TemporaryFolder(["run.jsonl": FileSafety.eventLog])
            for _ in 0..<2 {
                try killRunWritingLog(in: folder)
                #expect(temporaries(folder).count == 1)
                #expect(try String(contentsOfFile: folder.path + "/run.jsonl", encoding: .utf8).hasPrefix(#"{"time":""#))
                let next = try runSupervisor(in: folder, "run --loads 1 --log run.jsonl")
                #expect(next.status == 0)
                #expect(unwrapped(next.stderr) == "supervisor: warning: the event log of an earlier run on 'run.jsonl' that did not end is "
                    + "kept as 'run.jsonl.unfinished'\n")
                #expect(names(folder) == ["run.jsonl", "run.jsonl.unfinished"])
                #expect(try String(contentsOfFile: folder.path + "/run.jsonl.unfinished", encoding: .utf8).contains(Self.killedRunBegins))
                let log = try String(contentsOfFile: folder.path + "/run.jsonl", encoding: .utf8)
                #expect(log.contains(#""loads":1,"#) && log.contains(#""event":"run-end""#))
            }
            let quiet = try runSupervisor(in: folder, "run --loads 1 --log run.jsonl")
            #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        }

        /// A kill during a session's whole rewrite left its temporary file (11 MB for a big session), which no
        /// later run removed. The run is stopped (SIGSTOP) while the rewrite's file is there, then killed: the
        /// next run on the session removes it.
        @Test func aSessionRewriteCutShortByAKillIsRemovedByTheNextRun() throws {
            let folder = try TemporaryFolder([:])
            var caught = false
            for _ in 0..<5 where !caught {
                try? FileManager.default.removeItem(atPath: folder.path + "/tabs")
                let run = try backgroundSupervisor(
                    ["run", "--session", "tabs", "--tabs", "50000", "--loads", "1000000", "--dwell", "20"], in: folder)
                #expect(eventually(within: 30) { !temporaries(folder).isEmpty })
                kill(run.pid, SIGSTOP)
                // The rename may have come between the look and the stop: then this try is lost, and made again.
                caught = !temporaries(folder).isEmpty
                let workers = processes().filter { $0.parent == run.pid }.map(\.pid)
                #expect(run.end(by: SIGKILL) == 128 + SIGKILL)
                reapOrphans(workers)
            }
            try #require(caught)
            let next = try runSupervisor(in: folder, "run --session tabs --loads 1")
            #expect(next.status == 0, "\(next.stderr)")
            #expect(names(folder) == ["tabs"])
        }

        /// Two runs given the same `--log` at once: the first run's log was silently lost when the second replaced
        /// it. The second is refused, naming the first, as for a session or a journal.
        @Test func aSecondRunOnALogInUseIsRefused() throws {
            let folder = try TemporaryFolder([:])
            let first = try backgroundSupervisor(["run", "--loads", "1000000", "--dwell", "20", "--log", "shared.jsonl"], in: folder)
            // A new log takes its name at once, to be followed as the run goes.
            #expect(eventually(within: 20) { logEvents(folder.path + "/shared.jsonl").count > 1 })
            let second = try runSupervisor(in: folder, "run --loads 1 --log shared.jsonl")
            #expect(second.status == 1)
            #expect(second.stderr == "supervisor: error: cannot write 'shared.jsonl': it is in use by pid \(first.pid) (another supervisor)\n")
            #expect(first.end(by: SIGTERM) == 130)
            let log = try String(contentsOfFile: folder.path + "/shared.jsonl", encoding: .utf8)
            #expect(log.contains(#""loads":1000000,"#) && log.contains(#""event":"run-end""#))
            #expect(names(folder) == ["shared.jsonl"])
        }

        /// `session create` over the session a run holds is refused too, naming the run.
        @Test func aSessionInUseIsNotCreatedOver() throws {
            let folder = try TemporaryFolder([:])
            let run = try backgroundSupervisor(["run", "--session", "tabs", "--loads", "1000000", "--dwell", "20"], in: folder)
            let size = { (try? FileManager.default.attributesOfItem(atPath: folder.path + "/tabs")[.size] as? Int) ?? 0 }
            #expect(eventually(within: 20) { size() > 16 })
            let create = try runSupervisor(in: folder, "session create tabs --tabs 1")
            #expect(create.status == 1)
            #expect(create.stderr == "supervisor: error: cannot write 'tabs': it is in use by pid \(run.pid) (another supervisor)\n")
            #expect(run.end(by: SIGTERM) == 130)
        }
    }
}
