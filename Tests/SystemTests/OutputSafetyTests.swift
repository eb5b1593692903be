import Foundation
import Glibc
import Testing

@testable import Browser
@testable import SupervisorTesting

extension Processes {
    /// The files commands write: a file at an output's name is replaced only when it is of that output's kind,
    /// never through a symbolic link, never left empty or half-written by a command that fails, is interrupted or
    /// dies, and never written by two runs at once; `-` is standard output.
    @Suite struct OutputSafety {
        static let launchLine = FileSafety.launchLine
        static let eventLog = FileSafety.eventLog
        static let ourChart = "<!-- chart drawn by supervisor -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>\n"
        static let schedule = #"{"format":"supervisor-replay","version":1,"sources":[],"incidents":[]}"# + "\n"

        /// `analyze LOG --replay other-device.log` turned a device log into a replay schedule (exit 0), and every
        /// other output replaced whatever its name held the same way.
        @Test(arguments: [
            (["analyze", "dev.log", "--replay", "other.log"], "cannot write 'other.log': it is not a replay schedule"),
            (["analyze", "dev.log", "--svg", "drawing.svg"], "cannot write 'drawing.svg': it is not a chart drawn by supervisor"),
            (["analyze", "dev.log", "--html", "page.html"], "cannot write 'page.html': it is not a report written by supervisor"),
            (["analyze", "dev.log", "--svg", "chart.svg", "--replay", "other.log"], "cannot write 'other.log': it is not a replay schedule"),
            (["run", "--loads", "1", "--log", "notes.txt"], "cannot write 'notes.txt': it is not an event log"),
            (["run", "--loads", "1", "--log", "run.jsonl", "--log-format", "ios"],
             "cannot write 'run.jsonl.ios.log': it is not an iOS log written by supervisor"),
            (["run", "--loads", "1", "--jetsam=log=notes.txt"], "cannot write 'notes.txt': it is not a Jetsam log"),
            (["compare", "--policies", "none", "--loads", "1", "--svg", "drawing.svg"],
             "cannot write 'drawing.svg': it is not a chart drawn by supervisor"),
            (["session", "create", "notes.txt", "--tabs", "1"], "cannot write 'notes.txt': it is not a session file"),
        ])
        func anOutputNeverReplacesAFileOfAnotherKind(arguments: [String], message: String) throws {
            let folder = try TemporaryFolder([
                "dev.log": Self.launchLine, "other.log": "Jan 1 other device\n", "drawing.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n",
                "page.html": "<!DOCTYPE html>\n<p>mine</p>\n", "notes.txt": "my notes\n", "run.jsonl": Self.eventLog,
                "run.jsonl.ios.log": "Jan 1 device\n", "chart.svg": Self.ourChart,
            ])
            try FileSafety().expectRefused(arguments, in: folder, status: 1, saying: message + "; name another file, or give --force")
        }

        /// Through a symbolic link the file it led to was replaced, wherever it was. A link is never an output, not
        /// even with --force, and not even to a file of the output's own kind.
        @Test(arguments: [
            (["analyze", "dev.log", "--svg", "chart-link"], "chart-link"), (["analyze", "dev.log", "--replay", "link", "--force"], "link"),
            (["run", "--loads", "1", "--log", "link"], "link"), (["session", "create", "session-link"], "session-link"),
        ])
        func aSymbolicLinkIsNeverAnOutput(arguments: [String], link: String) throws {
            let folder = try TemporaryFolder(["dev.log": Self.launchLine, "ours.svg": Self.ourChart, "notes.txt": "my notes\n"])
            try SessionFile.write(SessionFile.encode(Session()), to: folder.path + "/tabs")
            for (name, target) in [("chart-link", "ours.svg"), ("link", "notes.txt"), ("session-link", "tabs")] {
                #expect(symlink(target, folder.path + "/" + name) == 0)
            }
            try FileSafety().expectRefused(
                arguments, in: folder, status: 1, saying: "cannot write '\(link)': it is a symbolic link, which an output never follows")
        }

        /// What an output wrote before is replaced by the next run without a word, an empty file too, and
        /// `--force` replaces a file of any kind.
        @Test func anOutputOfItsOwnKindIsReplacedAndForceReplacesAnyOther() throws {
            let folder = try TemporaryFolder([
                "dev.log": Self.launchLine, "s.json": Self.schedule, "chart.svg": Self.ourChart, "empty.html": "", "notes.txt": "my notes\n",
            ])
            let first = try runSupervisor(in: folder, "analyze dev.log --replay s.json --svg chart.svg --html empty.html")
            #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
            #expect(try String(contentsOfFile: folder.path + "/s.json", encoding: .utf8).contains(#""sources":["dev.log"]"#))
            #expect(try String(contentsOfFile: folder.path + "/empty.html", encoding: .utf8).hasPrefix("<!DOCTYPE html>\n<!-- report"))
            let forced = try runSupervisor(in: folder, "analyze dev.log --replay notes.txt --force")
            #expect(forced.status == 0, "\(forced.stderr)")
            #expect(try String(contentsOfFile: folder.path + "/notes.txt", encoding: .utf8).hasPrefix(#"{"format":"supervisor-replay""#))
            #expect(names(folder) == ["chart.svg", "dev.log", "empty.html", "notes.txt", "s.json"])
        }

        /// Ctrl-C during `analyze … --html old.html --svg new.svg --replay new.json` exited 130 with nothing on
        /// stderr, leaving 0-byte new.svg and new.json and old.html.tmp-*.
        @Test func anInterruptedAnalysisLeavesNoFileAndSaysWhatItDidNotWrite() throws {
            let old = "<!DOCTYPE html>\n<!-- report written by supervisor analyze -->\n<p>the last report</p>\n"
            let folder = try TemporaryFolder(["old.html": old])
            let analysis = try backgroundSupervisor(
                ["analyze", "-", "--html", "old.html", "--svg", "new.svg", "--replay", "new.json"], in: folder, waitingInput: true)
            // Waiting on its input, with its three outputs open (and known to the interruption's handler: a file
            // seen is not yet one registered).
            #expect(eventually(within: 20) { temporaries(folder).count == 3 && analysis.readingStandardInput })
            #expect(analysis.end(by: SIGINT) == 128 + SIGINT)
            #expect(analysis.stderr == "supervisor: interrupted: nothing written to 'new.svg', 'old.html' or 'new.json'\n")
            #expect(names(folder) == ["old.html"])
            #expect(try String(contentsOfFile: folder.path + "/old.html", encoding: .utf8) == old)
        }

        /// An analysis that fails after opening its outputs writes none of them, and says so in its error.
        @Test func aFailedAnalysisSaysWhatItDidNotWrite() throws {
            let folder = try TemporaryFolder(["notes.txt": "nothing analyze reads\n"])
            let result = try runSupervisor(in: folder, "analyze notes.txt --svg new.svg")
            #expect(result.status == 1)
            #expect(unwrapped(result.stderr) == "supervisor: error: notes.txt: no line in a format analyze reads; nothing written to 'new.svg'\n")
            #expect(names(folder) == ["notes.txt"])
        }

        /// A death nothing can catch (SIGKILL, a trap) left 0-byte outputs at their names. It leaves only
        /// temporary files, which the next run on the same names removes.
        @Test func aKilledAnalysisLeavesOnlyTemporariesThatTheNextRunRemoves() throws {
            let folder = try TemporaryFolder(["dev.log": Self.launchLine, "new.svg": Self.ourChart])
            let analysis = try backgroundSupervisor(
                ["analyze", "-", "--svg", "new.svg", "--replay", "new.json"], in: folder, waitingInput: true)
            #expect(eventually(within: 20) { temporaries(folder).count == 2 })
            #expect(analysis.end(by: SIGKILL) == 128 + SIGKILL)
            #expect(names(folder).filter { !$0.contains(".tmp-") } == ["dev.log", "new.svg"])
            #expect(try String(contentsOfFile: folder.path + "/new.svg", encoding: .utf8) == Self.ourChart)
            let next = try runSupervisor(in: folder, "analyze dev.log --svg new.svg --replay new.json")
            #expect(next.status == 0 && next.stderr.isEmpty, "\(next.stderr)")
            #expect(names(folder) == ["dev.log", "new.json", "new.svg"])
        }

        /// `-` for `--svg`, `--html` and `--replay` was a file named `-`. It is standard output, the report going to
        /// standard error beside it; one output can have it; a session file, which is binary, never does.
        @Test func aDashIsStandardOutput() throws {
            let folder = try TemporaryFolder(["dev.log": Self.launchLine])
            let svg = try runSupervisor(in: folder, "analyze dev.log --svg -")
            #expect(svg.status == 0 && svg.stdout.hasPrefix("<!-- chart drawn by supervisor -->\n<svg "))
            #expect(svg.stdout.hasSuffix("</svg>\n"))
            #expect(svg.stderr.contains("No kill-before-render incident."))
            let html = try runSupervisor(in: folder, "analyze dev.log --html -")
            #expect(html.status == 0 && html.stdout.hasPrefix("<!DOCTYPE html>") && html.stdout.hasSuffix("</html>\n"))
            let replay = try runSupervisor(in: folder, "analyze dev.log --replay - --json")
            #expect(replay.status == 0 && replay.stdout.hasPrefix(#"{"format":"supervisor-replay""#))
            #expect(replay.stderr.hasPrefix("{") && (try? JSONSerialization.jsonObject(with: Data(replay.stderr.utf8))) != nil)
            let chart = try runSupervisor(in: folder, "compare --policies none --loads 1 --svg -")
            #expect(chart.status == 0 && chart.stdout.hasPrefix("<!-- chart drawn by supervisor -->\n<svg "), "\(chart.stderr)")
            #expect(chart.stderr.contains("none"))
            let two = try runSupervisor(in: folder, "analyze dev.log --svg - --replay /dev/stdout")
            #expect(two.status == 64 && two.stderr == "supervisor: error: standard output ('-') can take one output\n")
            let session = try runSupervisor(in: folder, "session create - --tabs 1")
            #expect(session.status == 64 && session.stderr.hasPrefix("supervisor: error: a session file is binary"))
            let jetsam = try runSupervisor(in: folder, "run --loads 1 --jetsam=log=-")
            #expect(jetsam.status == 64 && jetsam.stderr.hasPrefix("supervisor: error: Jetsam's log cannot be written to standard output"))
            #expect(names(folder) == ["dev.log"])
        }
    }
}
