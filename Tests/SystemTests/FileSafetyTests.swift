import Foundation
import Glibc
import Testing
import WireProtocol

@testable import LogAnalysis
@testable import Browser
@testable import Text
@testable import SupervisorTesting

extension Processes {
    /// Files the user names: never emptied or overwritten unless they are ours, never two roles for one file,
    /// never opened when they are not regular files, and held by one run at a time.
    @Suite struct FileSafety {
        /// Every file in `folder` with its bytes (a file over a megabyte, such as a sparse one, by its size and
        /// modification time), to compare before and after.
        func contents(_ folder: TemporaryFolder) throws -> [String: String] {
            var files: [String: String] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                let path = folder.path + "/" + name
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                let size = attributes[.size] as? Int ?? 0
                files[name] = attributes[.type] as? FileAttributeType != .typeRegular || size > 1 << 20
                    ? "\(attributes[.type] ?? "") \(size) \(attributes[.modificationDate] ?? "")"
                    : try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedString()
            }
            return files
        }

        /// Runs `arguments` in `folder` (names are relative to it) and expects one line of error and `status`, with
        /// every file in the folder as it was.
        func expectRefused(_ arguments: [String], in folder: TemporaryFolder, status: Int32, saying message: String) throws {
            let before = try contents(folder)
            let result = try runCommand("/bin/sh", ["-c", "cd '\(folder.path)' && exec timeout -s KILL 20 '\(supervisorPath)' \"$@\"", "sh"] + arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            let error = unwrapped(result.stderr)
            #expect(error.hasPrefix("supervisor: error: ") && error.contains(message), "\(arguments): \(result.stderr)")
            #expect(error.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").allSatisfy { $0.unicodeScalars.count <= 100 }, "\(result.stderr)")
            #expect(try contents(folder) == before, "\(arguments) changed the folder")
        }

        static let eventLog = "{\"time\":\"2026-11-24T00:00:00.000000Z\",\"mono\":1,\"event\":\"run-begin\"}\n"

        /// `--journal notes.txt` emptied the notes; `session create device.log` overwrote the log.
        @Test(arguments: [
            (["run", "--loads", "1", "--typing", "10", "--journal", "notes.txt"], "cannot use 'notes.txt': it is not an input journal"),
            (["run", "--loads", "1", "--typing", "10", "--journal", "run.jsonl"], "cannot use 'run.jsonl': it is not an input journal"),
            (["session", "create", "device.log", "--tabs", "1"], "cannot write 'device.log': it is not a session file"),
            (["run", "--loads", "1", "--session", "notes.txt"], "cannot use 'notes.txt': it is not a session file"),
        ])
        func aFileThatIsNotOursIsNeverOverwritten(arguments: [String], message: String) throws {
            let folder = try TemporaryFolder(["notes.txt": "my notes\n", "run.jsonl": Self.eventLog, "device.log": "Jan 1 device\n"])
            try expectRefused(arguments, in: folder, status: 1, saying: message)
        }

        /// An output that is also an input, or another output, would destroy what it names.
        @Test(arguments: [
            (["analyze", "victim.log", "--svg", "victim.log"], "'victim.log' cannot be both a log to analyze and the chart"),
            (["run", "--session", "x", "--log", "x"], "'x' cannot be both the session and the event log"),
            (["run", "--typing", "5", "--journal", "x", "--log", "x"], "'x' cannot be both the input journal and the event log"),
            (["run", "--typing", "5", "--journal", "a.ios.log", "--log", "a", "--log-format", "ios"],
             "'a.ios.log' cannot be both the input journal and the iOS log"),
            (["run", "--jetsam=log=run.jsonl", "--log", "run.jsonl"], "'run.jsonl' cannot be both Jetsam's log and the event log"),
            (["compare", "--typing", "5", "--journal", "x", "--svg", "./x"], "'./x' and 'x' (one file) cannot be both the input journal and the chart"),
        ])
        func anOutputThatIsAlsoAnInputIsAUsageError(arguments: [String], message: String) throws {
            let folder = try TemporaryFolder(["victim.log": "Jan 1 device\n"])
            try expectRefused(arguments, in: folder, status: 64, saying: message)
        }

        /// The event log was emptied when the iOS log beside it could not be opened.
        @Test func anExistingLogIsKeptWhenAnotherOutputCannotBeOpened() throws {
            let folder = try TemporaryFolder(["run.jsonl": Self.eventLog])
            try FileManager.default.createDirectory(atPath: folder.path + "/run.jsonl.ios.log", withIntermediateDirectories: false)
            try expectRefused(
                ["run", "--loads", "1", "--log", "run.jsonl", "--log-format", "ios"], in: folder, status: 1,
                saying: "cannot write 'run.jsonl.ios.log': it is a directory, not a regular file")
        }

        /// An existing log is replaced only once the run is over, by a file written beside it: never emptied first.
        @Test func anExistingLogIsReplacedWholeWhenTheRunEnds() throws {
            let folder = try TemporaryFolder(["run.jsonl": Self.eventLog])
            chmod(folder.path + "/run.jsonl", 0o600)
            let result = try runSupervisorBounded(["run", "--loads", "2", "--log", folder.path + "/run.jsonl"])
            #expect(result.status == 0)
            let log = try String(contentsOfFile: folder.path + "/run.jsonl", encoding: .utf8)
            #expect(log.contains("\"event\":\"run-end\"") && !log.contains("2026-11-24T00:00:00.000000Z"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["run.jsonl"])
            let mode = try FileManager.default.attributesOfItem(atPath: folder.path + "/run.jsonl")[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }

        /// The session's temporary file was opened with O_TRUNC through whatever stood at `FILE.tmp`: a symlink
        /// there emptied the file it pointed to, a FIFO hung the save.
        @Test func aSessionSaveNeverFollowsWhatStandsAtItsTemporaryName() throws {
            let folder = try TemporaryFolder(["victim.txt": "precious\n"])
            #expect(symlink(folder.path + "/victim.txt", folder.path + "/s.tmp") == 0)
            #expect(mkfifo(folder.path + "/s.tmp-fifo", 0o600) == 0)
            let result = try runSupervisorBounded(["run", "--session", folder.path + "/s", "--loads", "6"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try String(contentsOfFile: folder.path + "/victim.txt", encoding: .utf8) == "precious\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["s", "s.tmp", "s.tmp-fifo", "victim.txt"])
            #expect(try SessionFile.read(folder.path + "/s").session.tabs.count == 3)
        }

        /// Two runs on one journal each counted the inputs they saved, while the file held one run's worth; two
        /// on one session died on a rename. The second is refused at once, naming the first.
        @Test(arguments: [["--typing", "50", "--journal", "shared"], ["--session", "shared"]])
        func aSecondRunOnAFileInUseIsRefused(files: [String]) throws {
            let folder = try TemporaryFolder([:])
            let shared = files.map { $0 == "shared" ? folder.path + "/shared" : $0 }
            let first = try BackgroundSupervisor(["run", "--loads", "1000000", "--dwell", "20"] + shared, folder: folder)
            let size = { (try? FileManager.default.attributesOfItem(atPath: folder.path + "/shared")[.size] as? Int) ?? 0 }
            #expect(eventually(within: 20) { size() > 16 })
            let second = try runSupervisorBounded(["run", "--loads", "1"] + shared)
            #expect(second.status == 1)
            #expect(unwrapped(second.stderr) == "supervisor: error: cannot use '\(folder.path)/shared': it is in use by pid \(first.pid) (another supervisor)\n")
            kill(first.pid, SIGTERM)
            #expect(first.wait() == 130)
        }

        /// Every file argument that is a FIFO blocked forever, deaf to Ctrl-C. Each is refused at once now; should
        /// one still wait, SIGINT must end it within a second.
        @Test(arguments: [
            ["analyze", "p"], ["analyze", "x.log", "--truth", "p"], ["run", "--loads", "1", "--log", "p"],
            ["run", "--loads", "1", "--typing", "5", "--journal", "p"], ["run", "--loads", "1", "--session", "p"],
            ["compare", "--loads", "1", "--svg", "p"], ["session", "show", "p"], ["session", "restore", "p"],
            ["session", "create", "p"], ["run", "--loads", "1", "--jetsam=log=p"],
        ])
        func aFIFOIsRefusedAndSIGINTEndsAnyWait(arguments: [String]) throws {
            let folder = try TemporaryFolder(["x.log": "Jan 1 device\n"])
            #expect(mkfifo(folder.path + "/p", 0o600) == 0)
            let absolute = arguments.map { ["p", "x.log"].contains($0) ? folder.path + "/" + $0 : $0.replacingOccurrences(of: "=p", with: "=\(folder.path)/p") }
            let (status, sinceSignal) = try runInterrupted(absolute, folder: folder)
            #expect(status == 1, "\(arguments)")
            #expect(sinceSignal < 1, "\(arguments) took \(sinceSignal) s after SIGINT")
        }

        /// `analyze -` waits on its standard input, as it should, but Ctrl-C ends the wait.
        @Test func sigintEndsAnAnalysisWaitingOnItsInput() throws {
            let folder = try TemporaryFolder([:])
            let input = Pipe()
            let (status, sinceSignal) = try runInterrupted(["analyze", "-"], folder: folder, input: input)
            #expect(status == 128 + SIGINT)
            #expect(sinceSignal < 1)
            try input.fileHandleForWriting.close()
        }

        /// Starts `supervisor arguments`, sends SIGINT after 300 ms if it is still running, and returns its exit
        /// status (128 + signal for a signal) and the seconds from the SIGINT (or from the start) to its exit.
        func runInterrupted(_ arguments: [String], folder: TemporaryFolder, input: Pipe? = nil) throws -> (Int32, Double) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: supervisorPath)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            process.standardInput = input ?? FileHandle.nullDevice
            try process.run()
            var start = Date()
            if !eventually(within: 0.3, { !process.isRunning }) {
                start = Date()
                kill(process.processIdentifier, SIGINT)
            }
            if !eventually(within: 5, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
            return (status, Date().timeIntervalSince(start))
        }

        /// One line analyze reads: a process launched, and nothing more.
        static let launchLine = "Mar  2 10:11:12 iPhone MyApp(WebKit)[4100] <Notice>: 0x1 - [PID=4107] WebProcessProxy::didFinishLaunching:\n"

        /// A FIFO inside an analyzed folder is passed over with a warning; the regular files are read.
        @Test func aFIFOInAnAnalyzedFolderIsPassedOver() throws {
            let folder = try TemporaryFolder(["a.log": Self.launchLine])
            #expect(mkfifo(folder.path + "/p", 0o600) == 0)
            let result = try runSupervisorBounded(["analyze", folder.path], seconds: 10)
            #expect(result.status == 0)
            #expect(unwrapped(result.stderr) == "supervisor: warning: passed over 1 file that is not regular: \(folder.path)/p (a FIFO)\n")
        }

        /// /dev/zero or a 3 GB sparse file as a session or journal was read whole until the allocation failed.
        @Test(arguments: [
            (["run", "--loads", "1", "--session", "/dev/zero"], "cannot use '/dev/zero': it is a character device, not a regular file"),
            (["session", "create", "/dev/full"], "cannot write '/dev/full': it is a character device, not a regular file"),
            (["run", "--loads", "1", "--typing", "5", "--journal", "/dev/full"], "cannot use '/dev/full': it is a character device"),
            (["session", "show", "/dev/zero"], "cannot read '/dev/zero': it is a character device, not a regular file"),
            (["run", "--loads", "1", "--session", "sparse"], "cannot use 'sparse': it is not a session file"),
            (["session", "show", "sparse"], "cannot read 'sparse': it is not a session file"),
            (["run", "--loads", "1", "--typing", "5", "--journal", "sparse"], "cannot use 'sparse': it is not an input journal"),
        ])
        func devicesAndHugeFilesAreRefusedBeforeTheyAreRead(arguments: [String], message: String) throws {
            let folder = try TemporaryFolder(["sparse": ""])
            #expect(truncate(folder.path + "/sparse", 3 << 30) == 0)
            try expectRefused(arguments, in: folder, status: 1, saying: message)
        }

        /// A file the kernel makes as it is read says it is regular and empty: `analyze /proc/kmsg` waited forever
        /// for the kernel's next message, and other such files were read as a byte (a schedule, a policy) or as
        /// a log. Each is refused before it is read.
        @Test(arguments: [
            ["analyze", "/proc/kmsg"], ["analyze", "/proc/self/status"], ["compare", "--replay", "/proc/self/status"],
            ["session", "show", "/proc/self/status"], ["compare", "--policies", "@/proc/self/status"],
        ])
        func filesTheKernelMakesAreRefusedBeforeTheyAreRead(arguments: [String]) throws {
            let path = try #require(arguments.last?.trimmingPrefix("@"))
            try expectRefused(arguments, in: try TemporaryFolder([:]), status: arguments[1] == "--policies" ? 64 : 1,
                              saying: "cannot read '\(path)': it is a file the kernel makes as it is read, not a regular file")
        }

        /// A session or journal is opened to be written: a kernel file (here one that only takes writes, harmless
        /// for the supervisor's own pid) is refused as one, not met by a failed read ("Invalid argument").
        @Test(arguments: [
            ["run", "--loads", "1", "--session", "/proc/self/clear_refs"],
            ["run", "--loads", "1", "--typing", "3", "--journal", "/proc/self/clear_refs"],
        ])
        func aKernelFileIsNeverTakenAsASessionOrJournal(arguments: [String]) throws {
            try expectRefused(arguments, in: try TemporaryFolder([:]), status: 1, saying:
                "cannot use '/proc/self/clear_refs': it is a file the kernel makes as it is read, not a regular file")
        }

        /// Numbers from outside were used unchecked: 1e300 ms trapped on conversion, 9223372036854 ms passed
        /// validation, emptied the log and trapped on overflow later.
        @Test(arguments: [
            ["run", "--attach-delay", "1e300"], ["run", "--attach-delay", "inf"], ["run", "--attach-delay", "5-1e300"],
            ["run", "--attach-delay", "9223372036854"], ["run", "--attach-delay", "nan"], ["run", "--arrival", "1e300"],
            ["run", "--jetsam=budget=8796093022208"], ["run", "--jetsam=interval=1e-9"], ["run", "--jetsam=interval=inf"],
            ["run", "--session", ""], ["run", "--log", ""], ["compare", "--policies", "none", "--svg", ""],
        ])
        func anOutOfRangeValueIsAUsageErrorBeforeAnyFileIsTouched(arguments: [String]) throws {
            let folder = try TemporaryFolder(["run.jsonl": Self.eventLog])
            let log = arguments.contains("--log") ? [] : ["--log", "run.jsonl"]
            try expectRefused(arguments + log, in: folder, status: 64, saying: "'--")
        }

        /// Jetsam's log was never checked: a run with a log it could not write went on with no killer.
        @Test func anUnwritableJetsamLogStopsTheRunBeforeItStarts() throws {
            let folder = try TemporaryFolder(["run.jsonl": Self.eventLog])
            try expectRefused(
                ["run", "--jetsam=log=missing/kills.jsonl", "--log", "run.jsonl"], in: folder, status: 1,
                saying: "cannot write 'missing/kills.jsonl': No such file or directory")
        }

        /// `ulimit -n 64` with 40 views was blamed on the worker binary; with 32 (issue 20) it is one line too. One
        /// view "needs" (issue 28).
        @Test(arguments: [(32, 64, "32 views need about 288"), (40, 64, "40 views need about 352"), (1, 32, "1 view needs about 40")])
        func tooFewDescriptorsForTheViewsIsSaidBeforeTheRun(views: Int, limit: Int, saying: String) throws {
            let result = try runCommand(
                "/usr/bin/timeout", ["-s", "KILL", "30", "/bin/sh", "-c",
                "ulimit -n \(limit) && exec '\(supervisorPath)' run --views \(views) --loads \(views)"])
            #expect(result.status == 1)
            #expect(result.stderr == "supervisor: error: \(saying) descriptors, over the limit of \(limit) (ulimit -n)\n")
        }

        /// `--` ends the options; `--log -` writes the event log to standard output, and the summary goes to
        /// standard error beside it.
        @Test func doubleDashEndsOptionsAndADashLogIsStandardOutput() throws {
            let folder = try TemporaryFolder(["-odd.log": Self.launchLine])
            let analyzed = try runCommand("/bin/sh", ["-c", "cd '\(folder.path)' && exec '\(supervisorPath)' analyze -- -odd.log"])
            #expect(analyzed.status == 0, "\(analyzed.stderr)")
            let run = try runSupervisorBounded(["run", "--loads", "1", "--log", "-", "--json"])
            #expect(run.status == 0)
            let lines = run.stdout.split(separator: "\n")
            #expect(lines.first?.contains("\"event\":\"run-begin\"") == true && lines.last?.contains("\"event\":\"run-end\"") == true)
            #expect(run.stderr.hasPrefix("{\"policy\":\"rebuild\""))
        }

        /// The session says more inputs were saved than the journal holds: said, not only logged.
        @Test func aJournalShorterThanItsSessionSaysIsAWarning() throws {
            let folder = try TemporaryFolder([:])
            let tab = SavedTab(id: 1, history: BackForwardList(entries: [HistoryEntry(url: ContentProvider().pages[0])], index: 0), visible: true)
            let journal = folder.path + "/journal"
            try SessionFile.write(
                SessionFile.encode(Session(tabs: [tab], journal: JournalPosition(path: journal, records: 10))), to: folder.path + "/s")
            let result = try runSupervisorBounded(
                ["run", "--session", folder.path + "/s", "--loads", "1", "--typing", "5", "--journal", journal])
            #expect(result.status == 0)
            #expect(unwrapped(result.stderr).contains(
                "supervisor: warning: the session says 10 typed inputs were saved, but journal '\(journal)' holds 0; the rest are lost"))
        }
    }
}
