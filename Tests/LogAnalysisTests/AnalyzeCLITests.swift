import Foundation
import FoundationXML
import Testing

@testable import Events
@testable import LogAnalysis
@testable import SupervisorTesting

extension BesideOthers {
    /// `supervisor analyze` as a user types it.
    @Suite struct AnalyzeCLI {
        /// Five raced runs with Jetsam beside them: what the iOS-format log alone yields equals what the event log
        /// and Jetsam's kill log say happened, kill for kill, and `--truth` reports precision and recall of 100%.
        @Test func theIOSLogAloneFindsEveryKillBeforeRenderOfFiveRacedRuns() throws {
            // Pages heavy enough for Jetsam to kill now and then, besides the injected races.
            var pages: [String: String] = [:]
            for (i, megabytes) in [4, 12, 24, 36].enumerated() { pages["p\(i).html"] = page("Heavy \(i)", render: "memory=\(megabytes)MB") }
            let content = try TemporaryFolder(pages)
            var raced = 0
            for seed in 1...5 {
                let folder = try TemporaryFolder([:])
                let log = folder.path + "/run.jsonl"
                let run = try runSupervisor([
                    "run", "--loads", "60", "--views", "4", "--hidden", "1", "--inject-race", "1/20", "--jetsam=budget=60",
                    "--content", content.path, "--seed", "\(seed)", "--watchdog", "200", "--blank-timeout", "1000",
                    "--log", log, "--log-format", "ios",
                ])
                try #require(run.status == 0, "\(run.stderr)")
                #expect(FileManager.default.fileExists(atPath: log + ".jetsam.jsonl"))
                let truth = try kills(try runSupervisor(["analyze", log, log + ".jetsam.jsonl", "--json"]))
                let found = try kills(try runSupervisor(["analyze", log + ".ios.log", "--json"]))
                #expect(found == truth, "seed \(seed)")
                // A run's two logs together tell each death once.
                let both = try runSupervisor(["analyze", log, log + ".ios.log", "--json"])
                #expect(both.stdout.components(separatedBy: #""kind":"killed-before-render""#).count == truth.count + 1)
                raced += truth.count
                let compared = try runSupervisor(["analyze", "--truth", log, log + ".ios.log", "--json"])
                let json = try #require(try JSONSerialization.jsonObject(with: Data(compared.stdout.utf8)) as? [String: Any])
                let rows = try #require(json["truth"] as? [[String: Any]])
                let row = try #require(rows.first { $0["kind"] as? String == "killed-before-render" })
                #expect(row["truth"] as? Int == truth.count && row["matched"] as? Int == truth.count)
                // Seen once in CI (precision below 1, seed unknown) and not reproduced in 70 runs under load: the
                // message keeps what the next occurrence needs.
                #expect(row["precision"] as? Double == 1 && row["recall"] as? Double == 1, "seed \(seed): \(row); \(compared.stdout.prefix(2000))")
                #expect(compared.status == 0)
            }
            #expect(raced >= 5, "too few races to show anything")
            #expect(orphanedWorkers().isEmpty)
        }

        /// The pids reported killed before render.
        func kills(_ result: (status: Int32, stdout: String, stderr: String)) throws -> Set<Int> {
            #expect(result.status == 0, "\(result.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let incidents = try #require(json["incidents"] as? [[String: Any]])
            return Set(incidents.filter { $0["kind"] as? String == "killed-before-render" }.compactMap { $0["pid"] as? Int })
        }

        @Test func failOnExitsThreeOnlyWhenItFindsOne() throws {
            let folder = try TemporaryFolder(["race.log": Fixture.xcode, "quiet.log": Fixture.launched(Fixture.failure("ConnectionTerminationWatchdog"))])
            let found = try runSupervisor(["analyze", folder.path + "/race.log", "--fail-on", "killed-before-render"])
            #expect(found.status == 3)
            #expect(found.stdout.contains("1 kill-before-render incident: pid 4107 — the view stayed blank"))
            #expect(unwrapped(found.stdout).contains("only a rebuilt view recovers; see --timeline 4107."))
            // A minimum confidence: the incident is confirmed, so it counts at every level.
            let confirmed = try runSupervisor(["analyze", folder.path + "/race.log", "--fail-on", "killed-before-render:confirmed"])
            #expect(confirmed.status == 3)
            let gone = try TemporaryFolder(["gone.log": Fixture.launched(
                "2025-03-02 10:11:12.124300+0100 MyApp[4100:99002] [ProcessSuspension] 0x1 - ProcessAssertion: Failed to acquire "
                    + "RBS Background assertion 'WebProcess Background Assertion' for process with PID 4107, error: \(Fixture.goneError)")])
            let notFirm = try runSupervisor(["analyze", gone.path + "/gone.log", "--fail-on", "killed-before-render:possible"])
            #expect(notFirm.status == 0, "a background failure is not a kill before render: \(notFirm.stdout)")
            // A likely one counts from `likely` down, not for `confirmed`.
            let likely = try TemporaryFolder(["likely.log": Fixture.launched("""
                2025-03-02 10:11:12.300000+0100 MyApp[4100:99001] [Process] 0x1 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)
                2025-03-02 10:11:12.301000+0100 MyApp[4100:99005] [assertion] Error acquiring assertion: <\(Fixture.goneError)>
                """)])
            let strict = try runSupervisor(["analyze", likely.path + "/likely.log", "--fail-on", "killed-before-render:confirmed"])
            let lenient = try runSupervisor(["analyze", likely.path + "/likely.log", "--fail-on", "killed-before-render:likely"])
            #expect(strict.status == 0 && lenient.status == 3, "\(strict.stdout)")
            let bad = try runSupervisor(["analyze", folder.path + "/race.log", "--fail-on", "killed-before-render:sure"])
            #expect(bad.status == 64 && unwrapped(bad.stderr).contains("confirmed, likely or possible"))
            let quiet = try runSupervisor(["analyze", folder.path + "/quiet.log", "--fail-on", "killed-before-render,crash"])
            #expect(quiet.status == 0)
            #expect(quiet.stdout.contains("No kill-before-render incident."))
        }

        /// "No incidents" is said only of input that was read: a file of which no line could be placed is named.
        @Test func aFileWithNoLinePlacedIsNamedAndAloneFails() throws {
            let folder = try TemporaryFolder(["notes.txt": "shopping: milk, eggs\nthe view went blank again\n", "race.log": Fixture.xcode])
            let alone = try runSupervisor(["analyze", folder.path + "/notes.txt"])
            #expect(alone.status == 1 && unwrapped(alone.stderr).contains("notes.txt: no line in a format analyze reads"))
            #expect(!alone.stdout.contains("No kill-before-render incident"))
            let mixed = try runSupervisor(["analyze", folder.path])
            #expect(mixed.status == 0 && unwrapped(mixed.stderr).contains("warning: \(folder.path)/notes.txt has no line in a format"))
            #expect(mixed.stdout.contains("1 kill-before-render incident"))
            // A log in a known envelope with nothing about WebKit was read: "No incidents" is true of it.
            let quiet = try TemporaryFolder(["quiet.syslog": "Mar  2 10:11:12 iPhone SpringBoard[58] <Notice>: Scene update\n"])
            let read = try runSupervisor(["analyze", quiet.path + "/quiet.syslog"])
            #expect(read.status == 0 && read.stderr.isEmpty && read.stdout.contains("No kill-before-render incident."), "\(read.stderr)")
        }

        @Test func readsStandardInputAndDirectories() throws {
            let piped = try runSupervisor(["analyze", "-", "--json"], input: Fixture.syslog)
            #expect(piped.status == 0)
            #expect(piped.stdout.contains(#""files":["<stdin>"]"#) && piped.stdout.contains(#""pid":4107,"kind":"killed-before-render""#))
            let folder = try TemporaryFolder(["a.log": Fixture.xcode, "b.log": Fixture.consoleApp, ".hidden": "x"])
            let both = try runSupervisor(["analyze", folder.path, "--json"])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(both.stdout.utf8)) as? [String: Any])
            #expect((json["files"] as? [String])?.map { URL(fileURLWithPath: $0).lastPathComponent } == ["a.log", "b.log"])
            #expect(json["formats"] as? [String: Int] == ["xcode-console": 7, "console-app": 6])
        }

        /// One swim lane per WebContent pid, with a legend and the verdict, as a well-formed SVG.
        @Test func drawsSwimLanes() throws {
            let folder = try TemporaryFolder(["log": Fixture.interleaved])
            let svg = folder.path + "/lanes.svg"
            let result = try runSupervisor(["analyze", folder.path + "/log", "--svg", svg])
            #expect(result.status == 0, "\(result.stderr)")
            let data = try Data(contentsOf: URL(fileURLWithPath: svg))
            #expect(XMLParser(data: data).parse())
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("pid 4107  killed-before-render") && text.contains("pid 4109"))
            #expect(text.contains("1 kill-before-render incident: pid 4107"))
            #expect(text.contains("raise failed: process gone") && text.contains("rendered"))
        }

        @Test(arguments: [
            (["analyze"], "no logs to analyze", 64),
            (["analyze", "x", "--timeline", "abc"], "'--timeline' takes a pid, not 'abc'", 64),
            (["analyze", "x", "--fail-on", "blank"], "unknown incident kind 'blank' for '--fail-on'", 64),
            (["analyze", "-", "-"], "'-' (standard input) can be given once", 64),
            (["analyze", "--bogus"], "unknown option '--bogus'", 64),
            (["analyze", "/nonexistent/log"], "cannot read '/nonexistent/log': No such file or directory", 1),
        ])
        func badInputIsOneLineAndNonZero(arguments: [String], message: String, status: Int32) throws {
            let result = try runSupervisor(arguments)
            #expect(result.status == status)
            #expect(result.stderr.hasPrefix("supervisor: error: \(message)"), "\(result.stderr)")
            #expect(unwrapped(result.stderr).split(separator: "\n").count == 1)
            #expect(result.stdout.isEmpty)
        }

        /// An output that cannot be written, or a truth that is not an event log, fails before any reading and
        /// leaves nothing behind.
        @Test func unwritableSVGAndForeignTruthFailAtOnce() throws {
            let folder = try TemporaryFolder(["log": Fixture.xcode])
            let svg = try runSupervisor(["analyze", folder.path + "/log", "--svg", "/nonexistent/dir/x.svg"])
            #expect(svg.status == 1 && svg.stderr == "supervisor: error: cannot write '/nonexistent/dir/x.svg': No such file or directory\n")
            #expect(svg.stdout.isEmpty)
            let truth = try runSupervisor(["analyze", folder.path + "/log", "--truth", folder.path + "/log"])
            #expect(truth.status == 1 && truth.stderr.contains("'--truth' takes a run's JSON Lines logs"))
        }
    }
}
