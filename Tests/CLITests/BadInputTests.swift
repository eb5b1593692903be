import Foundation
import Glibc
import Testing
import WireProtocol

@testable import LogAnalysis
@testable import Process
@testable import Browser
@testable import Core
@testable import Scenario
@testable import SupervisorTesting

extension Processes {
    /// A worker that talks garbage is cut off as `protocol-violation` (or `unresponsive`), and the view it served
    /// is rebuilt on a sound worker: nothing else is affected.
    @Suite struct BadWorkers {
        @Test(arguments: [
            ("random bytes", "out(random.Random(20).randbytes(4096))", "protocol-violation"),
            ("before hello", "out(frame(8, text(b'x')))", "protocol-violation"),
            ("oversize length", "out(hello); out(struct.pack('<IB', 1 << 30, 8))", "protocol-violation"),
            ("unknown type", "out(hello); out(frame(200))", "protocol-violation"),
            ("invalid UTF-8", "out(hello); os.read(3, 65536); out(frame(5, text(b'app://\\xff\\xfe')))", "protocol-violation"),
            ("trailing bytes", "out(hello); out(frame(14, b'12345678' + b'!'))", "protocol-violation"),
            ("flood", "out(hello); [out(frame(14, struct.pack('<Q', 99))) for _ in range(5000)]", "protocol-violation"),
            ("truncated frame", "out(hello); out(frame(5, text(b'app://local/index.html'))[:9])", "unresponsive"),
            ("never reads", "out(hello)", "unresponsive"),
        ])
        func aWorkerSendingGarbageIsCutOffAndItsViewRebuilt(name: String, behaviour: String, status: String) throws {
            let folder = try TemporaryFolder([:])
            let worker = try badWorker(behaviour, in: folder)
            let before = try openSupervisorDescriptors()
            let (summary, events) = try simulate({
                $0.workerPath = worker
                $0.loads = 2
                $0.views = 2
                $0.hangTimeoutNanoseconds = 300_000_000
            }, content: ContentProvider())
            let statuses = events.named("death").map { $0.string("status") ?? "" }
            // The sound workers all end cleanly, when their views close.
            #expect(statuses.sorted() == ([status] + Array(repeating: "normal", count: statuses.count - 1)).sorted(), "\(name)")
            #expect(summary.rendered == 2 && summary.blank == 0)
            let leaked = try leakedDescriptors(since: before)
            #expect(leaked.isEmpty, "\(leaked)")
        }
    }

    @Suite struct Backlog {
        /// A worker that asks for more without reading what it asked for is cut off once its backlog passes the
        /// cap, long before its hang timeout. The reply being sent does not count (it was asked for, and may be
        /// bigger than the cap); every earlier one does.
        @Test func aWorkerThatNeverReadsIsCutOffAtTheBacklogCap() throws {
            let folder = try TemporaryFolder(["page.html": page("Page"), "big.bin": String(repeating: "x", count: 400_000)])
            let fetches = "out(frame(5, text(b'app://local/big.bin') + b'\\x00')); out(frame(5, text(b'app://local/big.bin') + b'\\x01'))"
            let worker = try badWorker("out(hello); time.sleep(0.1); " + fetches, in: folder)
            let (summary, events) = try simulate({
                $0.workerPath = worker
                $0.loads = 1
                $0.maxUnreadBytes = 128 << 10
                $0.hangTimeoutNanoseconds = 60_000_000_000
                // Answered at once and in order, the replies pile up unread.
                $0.fetchLatencyNanoseconds = 0...0
            }, content: try folder.provider)
            let kill = try #require(events.named("kill").first)
            #expect(kill.string("reason")?.hasPrefix("does not read its input") == true)
            #expect(events.named("death").first?.string("status") == "unresponsive")
            #expect(summary.rendered == 1)
        }
    }

    @Suite struct UserErrors {
        func temporaryLog(_ text: String) throws -> (TemporaryFolder, String) {
            let folder = try TemporaryFolder(["run.jsonl": text])
            return (folder, folder.path + "/run.jsonl")
        }

        @Test func aUsageErrorLeavesAnExistingLogAlone() throws {
            let (folder, log) = try temporaryLog("precious\n")
            for arguments in [["--log-format", "xml"], ["--loads", "-1"], ["--polcy", "guarded"]] {
                let result = try runSupervisor(["run", "--log", log] + arguments)
                #expect(result.status == 64)
                #expect(try String(contentsOfFile: log, encoding: .utf8) == "precious\n")
            }
            _ = folder
        }

        @Test func anUnwritableSVGFailsBeforeTheComparisonRuns() throws {
            let started = Date()
            let result = try runSupervisor(["compare", "--loads", "100000", "--svg", "/nonexistent/x.svg"])
            #expect(Date().timeIntervalSince(started) < 3)
            #expect(result.status == 1)
            #expect(result.stderr == "supervisor: error: cannot write '/nonexistent/x.svg': No such file or directory\n")
        }

        /// The event log on a disk that fills up during the run: a 64 KiB file system of its own.
        @Test func aFullDiskStopsTheRunWithAMessage() throws {
            try withSmallFileSystem(bytes: 64 << 10) { folder in
                let log = folder + "/events.jsonl"
                let result = try runSupervisorBounded(["run", "--loads", "2000", "--log", log])
                #expect(result.status == 1)
                #expect(unwrapped(result.stderr) == "supervisor: error: cannot write '\(log)': No space left on device\n")
            }
        }

        @Test func aPageOverTheSizeLimitFailsByItsSizeNotAs404() throws {
            let content = try TemporaryFolder(["big.html": page("Big")])
            let size = ContentProvider.maxDocumentSize + 1
            #expect(truncate(content.path + "/big.html", off_t(size)) == 0)
            let (summary, events) = try simulate({ $0.loads = 1 }, content: try content.provider)
            #expect(summary.failed == 1)
            let error = try #require(events.named("load-end").first?.string("error"))
            #expect(error.contains("413") && error.contains("\(size)"), "\(error)")
            #expect(!error.contains("404"))
        }

        @Test func anEmptyPageWithNoTitleIsABlank() throws {
            let content = try TemporaryFolder(["empty.html": ""])
            // Judged blank once the timeout passes, which only bounds how long the test waits.
            let (summary, _) = try simulate({
                $0.loads = 1
                $0.policy = .none
                $0.blankTimeoutNanoseconds = 300_000_000
            }, content: try content.provider)
            #expect(summary.blank == 1 && summary.rendered == 0)
        }

        @Test func conventions() throws {
            #expect(try runSupervisor(["--version"]).stdout.hasPrefix("supervisor "))
            let typo = try runSupervisor(["run", "--polcy", "guarded"])
            #expect(typo.stderr == "supervisor: error: unknown option '--polcy'; did you mean '--policy'?\n")
            #expect(typo.status == 64)
            let empty = try runSupervisor(["run", "--loads", "0", "--json"])
            #expect(empty.stdout.contains("\"timeToVisibleMs\":{\"p50\":null,\"p95\":null,\"p99\":null,\"max\":null}"))
            let clean = try runSupervisor(["run", "--loads", "2"])
            #expect(!clean.stdout.contains("blank time"))
        }
    }
}

extension BesideOthers {
    /// What a user is told when the run cannot go on, as the binary says it.
    @Suite struct UserErrorsCLI {
        @Test func aFailedWriteToStandardOutputStopsTheRunWithAMessage() throws {
            let result = try runCommand("/bin/sh", ["-c", "'\(supervisorPath)' run --loads 20 --dwell 10 --json >/dev/full"])
            #expect(result.status == 1)
            #expect(result.stderr == "supervisor: error: cannot write to standard output: No space left on device\n")
        }
    }
}
