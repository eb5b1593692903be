import Foundation
import Glibc
import Testing
import WireProtocol

@testable import Browser
@testable import SupervisorTesting

extension Processes {
    @Suite struct SessionCLI {
        /// A cut file restores the tabs before the cut and says so, in one warning; the run then saves an intact
        /// session of what it restored.
        @Test func aTruncatedSessionRestoresItsIntactTabsAndReportsTheRest() throws {
            let folder = try TemporaryFolder([:])
            let file = folder.path + "/tabs.session"
            #expect(try runSupervisorBounded(["session", "create", file, "--tabs", "50"]).status == 0)
            let whole = try #require(FileManager.default.contents(atPath: file))
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: file))
            let restore = try runSupervisorBounded(["session", "restore", file, "--json"])
            #expect(restore.status == 0, "\(restore.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(restore.stdout.utf8)) as? [String: Any])
            let restored = try #require(report["tabs"] as? Int)
            #expect(restored > 0 && restored < 50)
            #expect((report["damage"] as? String)?.contains("of 50 tabs") == true)
            #expect(report["realized"] as? Int == 1 && report["workersSpawned"] as? Int == 1)

            let run = try runSupervisorBounded(["run", "--session", file, "--loads", "2", "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let session = try #require(summary["session"] as? [String: Any])
            #expect(session["tabs"] as? Int == restored && session["saves"] as? Int ?? 0 >= 1)
            #expect(session["realized"] as? Int ?? 0 >= 1)
            let warnings = unwrapped(run.stderr).split(separator: "\n")
            #expect(warnings.count == 1 && warnings[0].contains("restoring the rest"), "\(run.stderr)")
            let saved = try SessionFile.read(file)
            #expect(saved.damage == nil)
            #expect(saved.session.tabs.count == restored)
        }

        /// A save claiming billions of tabs costs no more than the file: `session show` and `run --session` work
        /// within 512 MiB of address space (they needed 4.7 GB, or aborted asking for 206 GB) and warn in words.
        @Test(arguments: [50_000_000, Int(UInt32.max)])
        func aSaveClaimingBillionsOfTabsCostsNoMoreThanTheFile(count: Int) throws {
            let folder = try TemporaryFolder([:])
            let file = folder.path + "/tabs.session"
            let tab = SavedTab(id: 1, history: BackForwardList(entries: [HistoryEntry(url: "app://local/a.html")], index: 0), visible: true)
            let save = SessionFile.save(tabCount: count, journal: nil, changes: [])
            try Data(SessionFile.encode(Session(tabs: [tab])) + save).write(to: URL(fileURLWithPath: file))
            for command in [["session", "show", file], ["run", "--session", file, "--loads", "1"]] {
                let limited = ["-s", "KILL", "30", "/bin/sh", "-c", "ulimit -v 524288 && exec \"$0\" \"$@\"", supervisorPath]
                let run = try runCommand("/usr/bin/timeout", limited + command)
                // Read here only once the commands could: the old decoder would abort this process too.
                try #require(run.status == 0, "\(command[0]): \(run.stderr)")
                #expect(unwrapped(run.stderr).contains("\(save.count) damaged bytes after the last intact save were ignored"), "\(run.stderr)")
            }
            let after = try SessionFile.read(file)
            #expect(after.damage == nil && after.session.tabs.map(\.id) == [1])
        }

        /// `session create` over a session file of a newer version refuses in one line and leaves it as it was.
        @Test func createRefusesASessionFileOfANewerVersion() throws {
            let folder = try TemporaryFolder([:])
            let file = folder.path + "/tabs.session"
            #expect(try runSupervisorBounded(["session", "create", file, "--tabs", "3"]).status == 0)
            var newer = try #require(FileManager.default.contents(atPath: file))
            newer[8] = 3
            try newer.write(to: URL(fileURLWithPath: file))
            let create = try runSupervisorBounded(["session", "create", file, "--tabs", "5"])
            #expect(create.status == 1)
            let lines = unwrapped(create.stderr).split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("session file version 3 is newer than this supervisor"), "\(create.stderr)")
            #expect(FileManager.default.contents(atPath: file) == newer)
        }

        /// A file that is not a session is never restored from, nor saved over.
        @Test func aFileThatIsNotASessionIsRefusedAndLeftAlone() throws {
            let folder = try TemporaryFolder(["notes.txt": "not a session"])
            let file = folder.path + "/notes.txt"
            let run = try runSupervisorBounded(["run", "--session", file, "--loads", "1"])
            #expect(run.status == 1)
            #expect(unwrapped(run.stderr).split(separator: "\n").count == 1 && run.stderr.contains("not a session file"), "\(run.stderr)")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "not a session")
            #expect(try runSupervisorBounded(["run", "--tabs", "3"]).status == 64)
            #expect(try runSupervisorBounded(["session", "restore"]).status == 64)
            let live = try runSupervisorBounded(["run", "--live-tabs", "3"])
            #expect(live.status == 64)
            #expect(live.stderr.contains("'--live-tabs' gives a session's tabs workers: it needs '--session <file>'"))
        }

        /// `--live-tabs`: the session's first tabs get a worker at the start, besides the shown one, and render.
        @Test func liveTabsAreRealizedAsBrowsingBegins() throws {
            let folder = try TemporaryFolder([:])
            let file = folder.path + "/tabs.session"
            let log = folder.path + "/run.jsonl"
            let run = try runSupervisorBounded(
                ["run", "--session", file, "--tabs", "6", "--live-tabs", "4", "--loads", "3", "--dwell", "200",
                 "--log", log, "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            let live = lines.filter { $0.contains(#""event":"tab-realized""#) && $0.contains(#""reason":"live""#) }
            // The shown tab is one of the first four: the other three are realized as live tabs.
            #expect(live.count == 3, "\(live)")
            #expect(lines.filter { $0.contains(#""event":"render""#) }.count >= 4)
        }
    }
}
