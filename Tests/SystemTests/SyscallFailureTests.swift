import Foundation
import Glibc
import Testing

@testable import Process
@testable import LogAnalysis
@testable import Browser
@testable import Core
@testable import Scenario
@testable import System
@testable import SupervisorTesting

extension Processes {
    /// Every system call can fail: through `SyscallFaults`, each kind is made to fail in a real run. A call that
    /// can be retried (EINTR, EAGAIN) is, and the run does what it would have done; one that cannot (ENOSPC,
    /// EMFILE) ends the run with one clear error, and what was acknowledged before it is on the disk.
    @Suite struct SyscallFailures {
        /// The workload of the retried runs: loads, an editor typing into a journal, and the event log.
        static func workload(_ folder: TemporaryFolder, _ name: String) -> [String] {
            ["run", "--loads", "20", "--seed", "3", "--typing", "40", "--dwell", "30", "--journal",
             folder.path + "/\(name).journal", "--log", folder.path + "/\(name).jsonl", "--json"]
        }

        /// EINTR on every call of a whole run (each call fails once, its retry goes to the kernel), on every
        /// thread: the run completes with the same counts as one without.
        @Test func eintrOnEveryCallChangesNothing() throws {
            let folder = try TemporaryFolder([:])
            let clean = try runSupervisorBounded(Self.workload(folder, "clean"), seconds: 60)
            try #require(clean.status == 0, "\(clean.stderr)")
            let failing = try runSupervisorFailing("*:EINTR", Self.workload(folder, "eintr"), folder: folder)
            #expect(failing.status == 0, "\(failing.stderr)")
            #expect(failing.stderr.isEmpty)
            #expect(try runCounts(failing.stdout) == runCounts(clean.stdout), "\(failing.stdout)\n\(clean.stdout)")
            // Every read, write, open, spawn, wait and epoll_wait of the run: far more than its 20 loads.
            #expect(try #require(failing.made.first) > 500)
        }

        /// EAGAIN on every other read and write of a pipe (the workers' channels): each is retried when the loop
        /// next finds the pipe ready, and nothing sent is lost.
        @Test func eagainOnChannelsIsRetriedByTheLoop() throws {
            let folder = try TemporaryFolder([:])
            let clean = try runSupervisorBounded(Self.workload(folder, "clean"), seconds: 60)
            try #require(clean.status == 0, "\(clean.stderr)")
            let failing = try runSupervisorFailing(
                "read,write:EAGAIN:every=2:path=pipe", Self.workload(folder, "eagain"), folder: folder)
            #expect(failing.status == 0, "\(failing.stderr)")
            #expect(try runCounts(failing.stdout) == runCounts(clean.stdout), "\(failing.stdout)\n\(clean.stdout)")
            #expect(try #require(failing.made.first) > 50)
        }

        /// The disk fills up under the input journal after its tenth write: the run ends with one error naming
        /// the journal, and every input it had reported saved is in the journal on the disk, in order.
        @Test func enospcOnTheJournalEndsTheRunAndKeepsEverySavedInput() throws {
            let folder = try TemporaryFolder([:])
            let journal = folder.path + "/typed.journal"
            let log = folder.path + "/run.jsonl"
            let result = try runSupervisorFailing(
                "write:ENOSPC:path=typed.journal:after=10",
                ["run", "--loads", "5", "--dwell", "300", "--typing", "50", "--journal", journal, "--log", log],
                folder: folder)
            #expect(result.status == 1)
            #expect(unwrapped(result.stderr) == "supervisor: error: cannot write '\(journal)': No space left on device\n")
            #expect(result.made == [1])
            let saved = try #require(logEvents(log).last { $0["event"] as? String == "editor" }?["saved"] as? Int)
            #expect(saved > 0)
            let reopened = try InputJournal(path: journal)
            #expect(reopened.recovered.count >= saved)
            #expect(reopened.recovered.map(\.seq) == (0..<UInt64(reopened.recovered.count)).map { $0 + 1 })
        }

        /// The disk fills up under the session file after its third write: the run ends with one error naming
        /// the session, and the file on the disk restores the tabs exactly as the last save it reported. The
        /// navigations never run out, so the run lasts until the fourth write fails, however slow the machine: 30
        /// of them once ended before it on a loaded one.
        @Test func enospcOnTheSessionEndsTheRunAndKeepsTheLastSave() throws {
            let folder = try TemporaryFolder([:])
            let session = folder.path + "/tabs.session"
            let log = folder.path + "/run.jsonl"
            let result = try runSupervisorFailing(
                "write:ENOSPC:path=tabs.session:after=3",
                ["run", "--session", session, "--tabs", "3", "--loads", "1000000", "--seed", "3", "--log", log],
                folder: folder)
            #expect(result.status == 1)
            #expect(unwrapped(result.stderr)
                == "supervisor: error: cannot write the session file '\(session)': pwrite: No space left on device\n")
            #expect(result.made == [1])
            let saves = logEvents(log).filter { $0["event"] as? String == "session-saved" }
            #expect(!saves.isEmpty)
            let restoring = folder.path + "/restore.jsonl"
            let restored = try runSupervisorBounded(["run", "--session", session, "--loads", "0", "--log", restoring])
            #expect(restored.status == 0, "\(restored.stderr)")
            let digest = logEvents(restoring).first { $0["event"] as? String == "session-restored" }?["digest"] as? String
            #expect(digest != nil && digest == saves.last?["digest"] as? String)
        }

        /// The disk is full for the event log's fourth write only: the run ends with one error naming the log, and
        /// what was written before is there whole (complete JSON lines, ending in a newline) and alone: nothing
        /// is written after the lines that were lost, so the file is what the run did up to a point, without a hole.
        @Test func enospcOnTheEventLogEndsTheRunWithWholeLines() throws {
            let folder = try TemporaryFolder([:])
            let log = folder.path + "/run.jsonl"
            let result = try runSupervisorFailing(
                "write:ENOSPC:path=run.jsonl:after=3:times=1", ["run", "--loads", "30", "--seed", "3", "--log", log],
                folder: folder)
            #expect(result.status == 1)
            #expect(unwrapped(result.stderr) == "supervisor: error: cannot write '\(log)': No space left on device\n")
            #expect(result.made == [1])
            let text = try String(contentsOfFile: log, encoding: .utf8)
            #expect(text.hasSuffix("\n"))
            let lines = text.split(separator: "\n")
            #expect(lines.count > 3)
            #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) is [String: Any] })
            #expect(lines.first?.contains("\"run-begin\"") == true)
            #expect(!text.contains("\"run-end\""))
        }

        /// The disk fills up under the iOS log: one error naming it, as for the event log beside it.
        @Test func enospcOnTheIOSLogEndsTheRunWithOneError() throws {
            let folder = try TemporaryFolder([:])
            let log = folder.path + "/run.jsonl"
            let result = try runSupervisorFailing(
                "write:ENOSPC:path=.ios.log:after=2:times=1",
                ["run", "--loads", "30", "--log", log, "--log-format", "ios"], folder: folder)
            #expect(result.status == 1)
            #expect(unwrapped(result.stderr) == "supervisor: error: cannot write '\(log).ios.log': No space left on device\n")
            #expect(result.made == [1])
        }

        /// EMFILE at each step of a worker's launch in turn (each pipe, each fcntl, the spawn): one error that
        /// says so, and not one descriptor left open by the launch that failed. Past the last step, it launches.
        @Test func emfileAtEachStepOfALaunchLeaksNothing() throws {
            let launcher = try WorkerLauncher(executable: workerPath, loop: EventLoop(), sandboxed: true)
            var failedSteps = 0
            for step in 0..<20 {
                let before = try openSupervisorDescriptors()
                var rule = SyscallFaults.Rule([.pipe, .fcntl, .spawn], EMFILE)
                rule.after = step
                rule.times = 1
                SyscallFaults.arm([rule])
                let outcome = Result { () throws(LaunchError) in try launcher.launchProcess() }
                let made = SyscallFaults.disarm().first?.failed
                switch outcome {
                case .success(let worker):
                    #expect(made == 0)
                    worker.signal(SIGKILL, by: .supervisor)
                    _ = try worker.reap(wait: true)
                    #expect(failedSteps >= 5)
                    return
                case .failure(let error):
                    #expect(made == 1)
                    #expect(error.underlying.errno == EMFILE)
                    #expect(error.description == "cannot launch worker '\(workerPath)': Too many open files")
                    #expect(try leakedDescriptors(since: before) == [], "step \(step)")
                    failedSteps += 1
                }
            }
            Issue.record("a launch never succeeded")
        }

        /// EMFILE on the spawn during a run: the run stops with one error that names the limit.
        @Test func emfileOnSpawnEndsTheRunWithOneError() throws {
            let folder = try TemporaryFolder([:])
            let result = try runSupervisorFailing("spawn:EMFILE:after=3", ["run", "--loads", "10"], folder: folder)
            #expect(result.status == 1)
            #expect(unwrapped(result.stderr).hasPrefix(
                "supervisor: error: cannot start a worker: this process may open no more descriptors (ulimit -n: "))
            #expect(unwrapped(result.stderr).split(separator: "\n").count == 1)
            #expect(result.made == [1])
        }

        /// EMFILE opening one page: that load ends on an error page that says why, and the run goes on, degraded
        /// rather than stopped, since the next open may well succeed.
        @Test func emfileOnOpeningAPageFailsThatLoadAndTheRunGoesOn() throws {
            let folder = try TemporaryFolder([:])
            let content = try TemporaryFolder(["a.html": page("A"), "b.html": page("B")])
            let log = folder.path + "/run.jsonl"
            let result = try runSupervisorFailing(
                "open:EMFILE:path=\(content.path):after=2:times=1",
                ["run", "--content", content.path, "--loads", "6", "--log", log, "--json"], folder: folder)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.made == [1])
            let counts = try runCounts(result.stdout)
            #expect(counts["rendered"] == "5" && counts["failed"] == "1")
            let failures = logEvents(log).filter { $0["event"] as? String == "fail" }
            #expect(failures.count == 1)
            #expect((failures.first?["error"] as? String)?.hasSuffix("openat2: Too many open files") == true)
        }

        /// A fault rule that cannot be read is a usage error of one line, before the run starts.
        @Test func anUnreadableFaultRuleIsOneLine() throws {
            let folder = try TemporaryFolder([:])
            let result = try runSupervisorFailing("write:ENOSPACE", ["run", "--loads", "1"], folder: folder)
            #expect(result.status == 64)
            #expect(result.stderr == "supervisor: error: SUPERVISOR_SYSCALL_FAULTS: cannot read 'write:ENOSPACE'\n")
        }
    }
}

extension Processes {
    /// What only a bug can cause stops the program at once, naming the call, instead of acting on a descriptor that
    /// may by now be another file. Each is an exit test: a child of this process, with pipes to it.
    @Suite struct SyscallProgrammerErrors {
        @Test func closingADescriptorThatIsNotOpenTraps() async {
            await #expect(processExitsWith: .failure) {
                Sys.close(Int32(Sys.descriptorLimit()) - 1)
            }
        }

        @Test func readingADescriptorThatIsNotOpenTraps() async {
            await #expect(processExitsWith: .failure) {
                var byte: [UInt8] = [0]
                _ = try? Sys.read(Int32(Sys.descriptorLimit()) - 1, into: &byte, from: 0)
            }
        }
    }
}
