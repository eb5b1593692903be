import Foundation
import Glibc
import Testing

@testable import Text
@testable import SupervisorTesting

extension BesideOthers {
    /// Every line the CLI prints fits 100 columns: help, tables, summaries, a timeline.
    @Suite struct LineWidth {
        @Test(arguments: [
            ["--help"], ["help"], ["help", "run"], ["help", "compare"], ["help", "bench"], ["help", "analyze"],
            ["help", "session"], ["help", "policies"], ["run", "--help"], ["session", "--help"],
        ])
        func helpFits(arguments: [String]) throws {
            let result = try runSupervisor(arguments)
            #expect(result.status == 0)
            #expect(result.stdout.split(separator: "\n").count > 5)
            #expect(overlong(result.stdout).isEmpty, "\(overlong(result.stdout))")
        }

        @Test func runSummariesAndTheComparisonTableFit() throws {
            let folder = try TemporaryFolder([:])
            let runs = [
                ["run", "--loads", "1"],
                ["run", "--loads", "3", "--policy", "none", "--inject-race", "1", "--watchdog", "100", "--blank-timeout", "300",
                 "--typing", "50"],
                ["run", "--loads", "4", "--session", folder.path + "/tabs", "--tabs", "3"],
                ["compare", "--loads", "4", "--inject-race", "1/2", "--policies", "always-foreground,webkit-default,guarded",
                 "--watchdog", "100", "--blank-timeout", "300"],
            ]
            for arguments in runs {
                let result = try runSupervisor(arguments)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                #expect(overlong(result.stdout).isEmpty, "\(arguments): \(overlong(result.stdout))")
            }
            // Counts agree with their nouns.
            #expect(try runSupervisor(runs[0]).stdout.hasPrefix("policy rebuild: 1 load, 1 rendered"))
        }

        /// A session of pages with very long names: each URL is cut between two of its tokens to fit the line.
        @Test func sessionOutputFits() throws {
            let long = String(repeating: "very-long-page-name-", count: 8) + "end"
            let content = try TemporaryFolder(["\(long).html": page("Long")])
            let file = content.path + "/s.session"
            let create = try runSupervisor(["session", "create", file, "--tabs", "1", "--content", content.path])
            #expect(create.stdout == "wrote 1 tab to \(file)\n")
            let show = try runSupervisor(["session", "show", file])
            #expect(show.status == 0 && overlong(show.stdout).isEmpty, "\(overlong(show.stdout))")
            #expect(show.stdout.contains("app://local/very-long-page-name-") && show.stdout.hasSuffix("-…\n"))
            #expect(!show.stdout.contains(long))
            let restore = try runSupervisor(["session", "restore", file, "--content", content.path])
            #expect(restore.status == 0 && overlong(restore.stdout).isEmpty, "\(overlong(restore.stdout))")
            #expect(restore.stdout.hasPrefix("restored 1 tab, 1 realized, 1 worker spawned"))
        }

        /// The analyzer's report, its comparison with the truth, a timeline of a raced pid and its statistics.
        @Test func analysisAndTimelineFit() throws {
            let folder = try TemporaryFolder([:])
            let log = folder.path + "/a-run-log-with-a-long-name-so-that-places-are-wide.jsonl"
            let run = try runSupervisor([
                "run", "--loads", "6", "--views", "3", "--policy", "none", "--inject-race", "1/2", "--watchdog", "100",
                "--blank-timeout", "300", "--log", log, "--log-format", "ios",
            ])
            try #require(run.status == 0, "\(run.stderr)")
            let events = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            let injected = try #require(events.first { $0.contains(#""event":"inject""#) })
            let pid = try #require(injected.range(of: #""pid":"#).flatMap { Int(injected[$0.upperBound...].prefix { $0.isNumber }) })
            for arguments in [
                [log + ".ios.log", "--timeline", "\(pid)", "--truth", log, "--stats"], [log, "--timeline", "\(pid)"],
            ] {
                let result = try runSupervisor(["analyze"] + arguments)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout.contains("pid \(pid): killed-"))
                #expect(overlong(result.stdout).isEmpty, "\(overlong(result.stdout))")
                // Quoted lines are cut between tokens: never inside the pid they name.
                for quote in result.stdout.split(separator: "\n") where quote.hasPrefix("      ") && quote.hasSuffix("…") {
                    #expect(!quote.dropLast().last!.isNumber || !quote.dropLast().hasSuffix("\(pid)".dropLast()))
                }
            }
        }

        /// The bench's two blocks, at the fewest samples it takes.
        @Test func benchTableFits() throws {
            let result = try runSupervisorBounded(
                ["bench", "--iterations", "1", "--analyze-mb", "1", "--unified-log-mb", "0", "--scale-workers", "8"], seconds: 100)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("target") && result.stdout.contains("not checked (no floor)"))
            #expect(overlong(result.stdout).isEmpty, "\(overlong(result.stdout))")
            #expect(orphanedWorkers().isEmpty)
        }
    }
}

/// The text layout the CLI's lines are made with.
@Suite struct TextLayoutTests {
    /// A quoted line is cut between tokens, never inside a number: `"pid":2530` is never printed for 25304.
    @Test func clippingNeverCutsInsideAToken() {
        let line = #"{"time":"2026-11-24T01:09:15.310909Z","mono":1083259780634,"event":"spawn","view":1,"pid":25304,"title":"T"}"#
        #expect(clipped(line, width: 94) == #"{"time":"2026-11-24T01:09:15.310909Z","mono":1083259780634,"event":"spawn","view":1,"pid":…"#)
        func isWord(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "." }
        let characters = Array(line)
        for width in 40...characters.count {
            let cut = clipped(line, width: width)
            #expect(cut.count <= width)
            guard cut.hasSuffix("…") else {
                #expect(cut == line)
                continue
            }
            let kept = Array(cut.dropLast())
            #expect(line.hasPrefix(String(kept)))
            #expect(!(isWord(kept.last!) && isWord(characters[kept.count])), "cut inside a token at \(width): \(cut)")
        }
    }

    @Test func wrappingKeepsEveryWordAndTheColumns() {
        let text = "  a    column  then " + String(repeating: "word ", count: 40) + "end"
        let lines = wrapped(text, width: 30, indent: 4)
        #expect(lines.allSatisfy { $0.count <= 30 })
        #expect(lines[0].hasPrefix("  a    column  then"))
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("    ") && !$0.hasPrefix("     ") })
        #expect(lines.joined(separator: " ").split(separator: " ") == text.split(separator: " "))
    }

    @Test func oneColumnOnePrecision() {
        #expect([4.5, 12.0, 0.125, 1e6].map { fixed($0, 2) } == ["4.50", "12.00", "0.13", "1000000.00"])
        #expect(fixed(.infinity, 2) == "∞" && fixed(3, 0) == "3")
        #expect(counted(1, "load") == "1 load" && counted(2, "tab") == "2 tabs" && counted(0, "view") == "0 views")
    }
}
