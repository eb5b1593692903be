import Foundation
import FoundationXML
import Testing

@testable import Browser
@testable import Events
@testable import Replay
@testable import Scenario
@testable import Text
import WireProtocol
@testable import SupervisorTesting

/// The characters of `text` a terminal would act on, line ends apart: what no output of ours may carry raw.
func actedOn(_ text: String) -> [Unicode.Scalar] {
    text.unicodeScalars.filter { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }
}

/// An escape sequence that would set the window's title, ring the bell and turn the text red.
let hostileText = "\u{1B}]0;pwned\u{07}\u{1B}[31m"
/// `hostileText` as `visible` shows it.
let hostileShown = "␛]0;pwned␇␛[31m"

extension Processes {
    /// Evidence is written by anyone: a log line, a report's field, a file's name, a URL a worker committed, a
    /// schedule or a policy file. None of it reaches the terminal raw, and pages made of it stay well-formed.
    @Suite struct OutsideText {
        /// A folder of evidence with escape sequences everywhere the analyzer quotes: in a line `--timeline` quotes,
        /// in a Jetsam report's `reason`, in the names of the files (a log, a report, one with no log line and a
        /// binary one, which the warnings name).
        static func hostileEvidence() throws -> TemporaryFolder {
            let log = Fixture.xcode.replacingOccurrences(
                of: "[Process] 0x10a2b3c40 - [PID=4107] WebProcessProxy::didClose:",
                with: "[Process] \(hostileText) 0x10a2b3c40 - [PID=4107] WebProcessProxy::didClose:")
            let report = ReportFixture.jetsam.replacingOccurrences(
                of: "\"per-process-limit\"", with: #""per-process\u001b]0;pwned\u0007\u001b[31m""#)
            let folder = try TemporaryFolder([
                "race\(hostileText).log": log, "Jetsam\(hostileText).ips": report, "notes\u{1B}[2J.txt": "hello\n",
            ])
            try Data((0..<1024).map { UInt8($0 % 256) }).write(to: URL(fileURLWithPath: folder.path + "/binary\u{1B}[2J.dat"))
            return folder
        }

        /// A Jetsam report's reason in the table, a line `--timeline` quotes, the files' names in the table, the
        /// story and the warnings: each carried its escape sequence to the terminal.
        @Test func analyzeShowsEveryCharacterOfItsInputThatATerminalWouldActOn() throws {
            let folder = try Self.hostileEvidence()
            let result = try runSupervisor(["analyze", folder.path, "--timeline", "4107"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(actedOn(result.stdout).isEmpty && actedOn(result.stderr).isEmpty, "\(result.stdout)\n\(result.stderr)")
            let shown = hostileShown
            #expect(unwrapped(result.stdout).contains("(per-process\(shown), 2,210 pages"), "\(result.stdout)")
            #expect(result.stdout.contains("[Process] \(shown) 0x10a2b3c40"), "the line --timeline quotes: \(result.stdout)")
            #expect(result.stdout.contains("race\(shown).log:7"), "where it is: \(result.stdout)")
            #expect(unwrapped(result.stderr).contains("notes␛[2J.txt has no line") && result.stderr.contains("binary␛[2J.dat"))
            for line in (result.stdout + result.stderr).split(separator: "\n") { #expect(line.count <= lineWidth, "\(line)") }

            // JSON carries the text as it was, escaped as JSON.
            let json = try runSupervisor(["analyze", folder.path, "--json"])
            #expect(actedOn(json.stdout).isEmpty && json.stdout.contains(#"\u001b]0;pwned\u0007"#))
            let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let incidents = try #require(report["incidents"] as? [[String: Any]])
            #expect(incidents.contains { ($0["detail"] as? String)?.contains("per-process\(hostileText)") == true })
        }

        /// Through a control character in a report's field or a file's name, the chart was XML no browser draws, and
        /// the page carried the raw bytes.
        @Test func theChartAndThePageStayWellFormedWithAnyInput() throws {
            let folder = try Self.hostileEvidence()
            let out = try TemporaryFolder([:])
            let shown = hostileShown
            // The log alone, whose name is the chart's title; the folder, whose report's reason a lane's label quotes
            // (the page is this one's).
            for (input, quoted) in [(folder.path + "/race\(hostileText).log", "race\(shown).log: Read"), (folder.path, "per-process\(shown)")] {
                let result = try runSupervisor(["analyze", input, "--svg", out.path + "/lanes.svg", "--html", out.path + "/report.html"])
                #expect(result.status == 0, "\(result.stderr)")
                let svg = try Data(contentsOf: URL(fileURLWithPath: out.path + "/lanes.svg"))
                let parser = XMLParser(data: svg)
                #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
                #expect(String(decoding: svg, as: UTF8.self).contains(quoted))
            }
            let page = try String(contentsOfFile: out.path + "/report.html", encoding: .utf8)
            #expect(actedOn(page).isEmpty)
            #expect(page.contains("race\(shown).log</code>") && page.contains("[Process] \(shown) 0x10a2b3c40"))
            // The chart inside the page is XML too.
            let start = try #require(page.range(of: "<svg "))
            let end = try #require(page.range(of: "</svg>"))
            #expect(XMLParser(data: Data(page[start.lowerBound..<end.upperBound].utf8)).parse())
        }

        /// `session show` printed the URL each tab was on as its worker committed it.
        @Test func sessionShowShowsAURLAWorkerCommittedVisibly() throws {
            let folder = try TemporaryFolder([:])
            let url = "app://local/\(hostileText)page.html"
            let tab = SavedTab(id: 1, history: BackForwardList(entries: [HistoryEntry(url: url, title: hostileText)], index: 0), visible: true)
            try SessionFile.write(SessionFile.encode(Session(tabs: [tab])), to: folder.path + "/s")
            let shown = try runSupervisor(["session", "show", folder.path + "/s"])
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(actedOn(shown.stdout).isEmpty && shown.stdout.contains("app://local/\(hostileShown)page.html"), "\(shown.stdout)")
            let json = try runSupervisor(["session", "show", folder.path + "/s", "--json"])
            #expect(actedOn(json.stdout).isEmpty && json.stdout.contains(#"app://local/\u001b]0;pwned\u0007"#), "\(json.stdout)")
        }

        /// `compare --replay` pasted an incident's id into its page as markup: an id holding an `x-fault` crashed every
        /// load that replayed it, and none was saved. The table shows the id visibly.
        @Test func aReplayedIncidentsIdIsNeitherMarkupNorEscapes() throws {
            let id = #"<meta name=\"x-fault\" content=\"segv\">\u001b]0;pwned\u0007"#
            let folder = try TemporaryFolder(["schedule.json": seed000Schedule.replacingOccurrences(of: "\"seed 000\"", with: "\"\(id)\"")])
            let arguments = ["compare", "--replay", folder.path + "/schedule.json", "--policies", "guarded", "--repeat", "2"]
            let json = try runSupervisorBounded(arguments + ["--json"], seconds: 60)
            #expect(json.status == 0, "\(json.stderr)")
            let replay = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["replay"] as? [String: Any])
            let incident = try #require((replay["incidents"] as? [[String: Any]])?.first)
            let result = try #require((incident["results"] as? [[String: Any]])?.first)
            #expect(result["saved"] as? Int == 2 && result["loads"] as? Int == 2, "\(result)")
            let text = try runSupervisorBounded(arguments, seconds: 60)
            #expect(text.status == 0 && actedOn(text.stdout).isEmpty, "\(text.stdout)")
            #expect(text.stdout.contains("content=\"segv\">␛]0;pwned␇"), "\(text.stdout)")
        }

        /// A policy file's keys and values, and a replay schedule's, are named in the one line that refuses them.
        @Test func aRefusalShowsWhatTheFileSaysVisibly() throws {
            let folder = try TemporaryFolder([
                "value.json": #"{"spares": "\u001b]0;pwned\u0007"}"#, "key.json": #"{"spares\u001b[2J": 1}"#,
                "twice.json": #"{"x\u001b[2J": 1, "x\u001b[2J": 2}"#,
                "schedule.json": seed000Schedule.replacingOccurrences(of: #""evidence": []"#, with: #""evidence": [], "x\u001b[2J": 1"#),
            ])
            for (arguments, message) in [
                (["run", "--policy", "@" + folder.path + "/value.json"], "'spares' takes a whole number from 0 to 64, not '␛]0;pwned␇'"),
                (["run", "--policy", "@" + folder.path + "/key.json"], "no field 'spares␛[2J'"),
                (["run", "--policy", "@" + folder.path + "/twice.json"], "'x␛[2J' is given twice"),
                (["compare", "--replay", folder.path + "/schedule.json"], "incident 1: unknown key 'x␛[2J'"),
            ] {
                let result = try runSupervisorBounded(arguments)
                #expect(result.status != 0 && actedOn(result.stderr).isEmpty, "\(arguments): \(result.stderr)")
                #expect(unwrapped(result.stderr).contains(message), "\(arguments): \(result.stderr)")
            }
        }
    }
}

/// Outside text where it is put: a replayed page, JSON, a list of names.
@Suite struct OutsideTextFormats {
    /// A worker obeys the markup of the page it renders: an incident's id, from a schedule anyone may write, is
    /// the page's text.
    @Test func aReplayedIncidentsIdIsItsPagesTextNotItsMarkup() throws {
        var incident = try #require(ReplaySchedule(json: Array(seed000Schedule.utf8)).incidents.first)
        incident.id = #"<meta name="x-fault" content="segv"> & 'more'"#
        let provider = ReplayPages.provider(for: ReplaySchedule(sources: [], incidents: [incident]))
        let url = try #require(provider.pages.first)
        let page = String(decoding: provider.fetch(url).body, as: UTF8.self)
        #expect(!page.contains("<meta name=\"x-fault\""))
        #expect(page.contains("<body>&lt;meta name=&quot;x-fault&quot; content=&quot;segv&quot;&gt; &amp; &#39;more&#39;</body>"))
    }

    @Test func jsonEscapesDeleteC1AndBidirectionalControlsToo() {
        let text = "a\u{1B}[31m\u{7F}\u{9B}2J\u{85}é\u{202E}gpj.exe\u{2066}"
        let written = JSON.string(text).text
        #expect(written == #""a\u001b[31m\u007f\u009b2J\u0085é\u202egpj.exe\u2066""#)
        #expect(JSON.parse(Array(written.utf8)) == .string(text))
    }

    @Test func namesPassedOverAreListedVisibly() {
        #expect(listed(["a\u{1B}[2J.log", "b.log"]) == "a␛[2J.log, b.log")
    }
}
