import Foundation
import Testing
@testable import Scenario

@testable import Core
@testable import LogAnalysis
@testable import SupervisorTesting

extension Processes {
    /// The real binary, as a user types it.
    @Suite struct CLI {
        @Test func runWithDefaultContentPrintsAJSONSummary() throws {
            let result = try runSupervisor(["run", "--loads", "5", "--views", "2", "--json"])
            #expect(result.status == 0)
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(summary["policy"] as? String == "rebuild")
            #expect(summary["rendered"] as? Int == 5 && summary["blank"] as? Int == 0)
            #expect(summary["spawns"] as? Int == 5 && summary["deaths"] as? Int == 5)
            let ttv = try #require(summary["timeToVisibleMs"] as? [String: Double])
            #expect(Set(ttv.keys) == ["p50", "p95", "p99", "max"])
            #expect(ttv["p50"]! > 0)
        }

        @Test func compareRunsEveryPolicyAgainstTheSameFaultsAndDrawsThem() throws {
            let folder = try TemporaryFolder([:])
            let svg = folder.path + "/compare.svg"
            let result = try runSupervisor([
                "compare", "--loads", "6", "--inject-race", "1/2", "--watchdog", "100", "--blank-timeout", "300",
                "--json", "--svg", svg,
            ])
            #expect(result.status == 0)
            let output = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(output["seed"] as? Int == 1)
            let runs = try #require(output["runs"] as? [[String: Any]])
            #expect(runs.map { $0["policy"] as? String } == Policy.all.map(\.name))
            for run in runs {
                for key in ["raceKills", "unobservedDeaths", "rbsErrors", "recoveries", "blankMs", "foregroundWorkerSeconds",
                            "peakWorkerRSSBytes", "timeToVisibleMs", "rendered", "blank", "spawns", "deaths"] {
                    #expect(run[key] != nil, "\(key)")
                }
            }
            // The same raced loads for everyone: policies without a rebuild lose exactly those.
            let raced = Set(runs.compactMap { $0["unobservedDeaths"] as? Int }.filter { $0 > 0 })
            #expect(raced.count == 1)
            let drawing = try String(contentsOfFile: svg, encoding: .utf8)
            #expect(drawing.hasPrefix("<!-- chart drawn by supervisor -->\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
            for policy in Policy.all { #expect(drawing.contains(">\(policy.name)</text>")) }
            #expect(drawing.components(separatedBy: "<polyline").count - 1 == runs.filter { ($0["rendered"] as? Int ?? 0) > 0 }.count)
        }

        @Test func theIOSLogShowsTheRaceTheWayADeviceLogsIt() throws {
            let folder = try TemporaryFolder([:])
            let log = folder.path + "/events.jsonl"
            let result = try runSupervisor([
                "run", "--policy", "none", "--loads", "2", "--inject-race", "1", "--blank-timeout", "200", "--log", log,
                "--log-format", "ios",
            ])
            #expect(result.status == 0)
            let events = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            let raced = events.filter { $0.contains(#""event":"inject""#) }.compactMap { line in
                line.range(of: #""pid":"#).flatMap { Int(line[$0.upperBound...].prefix { $0.isNumber }) }
            }
            #expect(raced.count == 2)
            let console = try String(contentsOfFile: log + ".ios.log", encoding: .utf8)
            let lines = console.split(separator: "\n")
            #expect(lines.allSatisfy { $0.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}[+-]\d{4} (supervisor|runningboardd)\[\d+:[0-9a-f]+\] \["#, options: .regularExpression) != nil })
            for pid in raced {
                #expect(console.contains("ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=\(pid), error: Error Domain=RBSAssertionErrorDomain Code=2"))
                #expect(console.contains("[PID=\(pid)] WebProcessProxy::didClose: (web process 0 crash)"))
                #expect(console.contains(">:\(pid)] termination reported by launchd (2, 9, 9)"))
                #expect(!console.contains("(pid \(pid)), reason=Crash"), "an unobserved death reached the page")
            }
            #expect(lines.filter { $0.contains("[assertion] Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2") }.count == 2)
        }

        @Test func theEventLogIsJSONLinesWithEveryStepOfALoad() throws {
            let folder = try TemporaryFolder([:])
            let result = try runSupervisor(["run", "--loads", "2", "--log", folder.path + "/events.jsonl"])
            #expect(result.status == 0)
            let lines = try String(contentsOfFile: folder.path + "/events.jsonl", encoding: .utf8).split(separator: "\n")
            let events = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            for event in events {
                #expect(event["time"] is String && event["mono"] is Int && event["event"] is String)
            }
            let names = events.compactMap { $0["event"] as? String }
            for name in ["spawn", "priority", "hello", "load", "fetch", "commit", "render", "death", "load-end"] {
                #expect(names.filter { $0 == name }.count >= 2, "\(name)")
            }
            let monotonic = events.compactMap { $0["mono"] as? Int }
            #expect(monotonic == monotonic.sorted())
        }

        @Test(arguments: [
            (["run", "--bogus"], "unknown option '--bogus'"),
            (["run", "--loads"], "missing value for '--loads'"),
            (["run", "--loads", "many"], "'--loads' must be a whole number"),
            (["run", "--policy", "pray"], "unknown policy 'pray'"),
            (["frobnicate"], "unknown subcommand 'frobnicate'"),
        ])
        func aUsageErrorIsOneLineAndExit64(arguments: [String], message: String) throws {
            let result = try runSupervisor(arguments)
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("supervisor: error: "))
            #expect(result.stderr.contains(message))
            #expect(unwrapped(result.stderr).split(separator: "\n").count == 1)
            #expect(result.stdout.isEmpty)
        }

        @Test(arguments: [
            (["run", "--worker", "/nonexistent/WebContent"], "worker executable not found at '/nonexistent/WebContent'"),
            (["run", "--content", "/nonexistent"], "cannot read content directory '/nonexistent'"),
            (["run", "--log", "/nonexistent/events.jsonl"], "cannot write '/nonexistent/events.jsonl': No such file or directory"),
        ])
        func badInputIsOneLineAndNonZero(arguments: [String], message: String) throws {
            let result = try runSupervisor(arguments)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("supervisor: error: \(message)"))
            #expect(unwrapped(result.stderr).split(separator: "\n").count == 1)
        }

        @Test(arguments: [["--help"], ["help", "run"], ["run", "--help"], ["analyze", "--help"], []])
        func helpHasTheArgumentParserLayout(arguments: [String]) throws {
            let result = try runSupervisor(arguments)
            #expect(result.status == 0)
            for section in ["OVERVIEW:", "USAGE:", "OPTIONS:"] { #expect(result.stdout.contains(section)) }
            #expect(result.stdout.contains("SUBCOMMANDS:") == (arguments.count < 2 || arguments == ["help"]))
        }
    }
}

extension BesideOthers {
    /// `supervisor bench` as a user types it.
    @Suite struct BenchCLI {
        /// Every metric the benchmark promises, measured beside the C floor and the bare child, built from
        /// scripts/ as scripts/bench builds them.
        @Test func benchPrintsEveryMetric() throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").path
            let bin = try TemporaryFolder([:])
            let runtime = "\(root)/Workers/WorkerRuntime"
            for (name, flags) in [
                ("floor", ["-static"]),
                ("bare", [
                    "-static", "-nostdlib", "-ffreestanding", "-fno-builtin", "-fno-stack-protector", "-Wl,-e,wr_entry",
                    "-I", "\(runtime)/include", "-I", runtime, "\(runtime)/runtime.c",
                ]),
            ] {
                let built = try runCommand("/usr/bin/cc", ["-O2"] + flags + ["-o", "\(bin.path)/\(name)", "\(root)/scripts/\(name).c"])
                try #require(built.status == 0, "\(built.stderr)")
            }
            let result = try runSupervisorBounded([
                "bench", "--iterations", "2", "--floor", bin.path + "/floor", "--bare", bin.path + "/bare", "--analyze-mb", "8",
                "--unified-log-mb", "0", "--scale-workers", "32", "--json",
            ], seconds: 100)
            #expect(result.status == 0, "\(result.stderr)")
            let output = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let metrics = try #require(output["metrics"] as? [[String: Any]])
            #expect(metrics.compactMap { ($0["name"] as? String)?.split(separator: " (").first.map(String.init) } == [
                "spawn→hello", "spawn→hello our worker by C", "spawn→hello Foundation.Process", "spawn→hello portable worker",
                "spawn→hello without the sandbox", "spawn→hello bare child", "spawn→hello bare child, least filter",
                "spawn→hello bare child Foundation", "kill→detected", "kill→detected Foundation.Process",
                "kill→re-rendered guarded", "kill→re-rendered rebuild", "channel round trip", "one-way throughput",
                "scale 8: supervisor RSS", "scale 8: RSS per worker", "scale 8: CPU per event", "scale 8: idle wake-ups",
                "scale 32: supervisor RSS", "scale 32: RSS per worker", "scale 32: CPU per event", "scale 32: idle wake-ups",
                "session restore 10,000 tabs", "analyze 8 MB device log", "analyze device log peak RSS",
                "analyze 8 MB dense log", "analyze dense log peak RSS",
            ])
            #expect(metrics.allSatisfy { ($0["p50"] as? Double ?? 0) >= 0 && $0["unit"] is String })
            #expect(metrics.dropLast(13).allSatisfy { ($0["floor"] as? Double ?? 0) > 0 })
            #expect(metrics.first { $0["name"] as? String == "session restore 10,000 tabs" }?["floor"] as? Double ?? 0 > 0)
            #expect(metrics.first { $0["name"] as? String == "analyze 8 MB device log" }?["floor"] as? Double ?? 0 > 0)
            #expect(metrics.first { $0["name"] as? String == "analyze 8 MB dense log" }?["floor"] as? Double ?? 0 > 0)
            #expect(metrics.last?["p50"] as? Double ?? 0 > 1)
            #expect(metrics.first { $0["name"] as? String == "scale 32: idle wake-ups" }?["p50"] as? Double == 0)
            #expect(metrics.first { $0["name"] as? String == "scale 32: CPU per event" }?["target"] is String)
            #expect(orphanedWorkers().isEmpty)
        }

        /// The analyze rows alone, each timed beside grep and checked against the incidents planted, with their
        /// targets; no worker is started.
        @Test func benchAnalyzeOnlyMeasuresTheAnalyzeAndUnifiedLogRows() throws {
            let result = try runSupervisorBounded(
                ["bench", "--analyze-only", "--analyze-mb", "4", "--unified-log-mb", "1", "--iterations", "2", "--json"], seconds: 120)
            #expect(result.status == 0, "\(result.stderr)")
            let output = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let metrics = try #require(output["metrics"] as? [[String: Any]])
            #expect(metrics.compactMap { ($0["name"] as? String)?.split(separator: " (").first.map(String.init) } == [
                "analyze 4 MB device log", "analyze device log peak RSS", "analyze 4 MB dense log", "analyze dense log peak RSS",
            ] + Self.unifiedLogRows)
            #expect(metrics.prefix(4).compactMap { $0["target"] as? String } == ["p50 ≤ 4× grep -c", "≤ 64 MiB", "p50 ≤ 6× grep -c", "≤ 64 MiB"])
            #expect(metrics.prefix(4).enumerated().allSatisfy { $0.offset % 2 == 1 || ($0.element["floor"] as? Double ?? 0) > 0 })
            // Each unified-log row beside its floor (cat, or log show for analyze), or a peak RSS; each with its target.
            #expect(metrics.dropFirst(4).allSatisfy { $0["target"] is String })
            #expect(metrics.dropFirst(4).enumerated().allSatisfy { $0.offset % 2 == 1 || ($0.element["floor"] as? Double ?? 0) > 0 })
            #expect(orphanedWorkers().isEmpty)
        }

        /// The unified-log rows, by name up to the counts in brackets: the fixture's (the tests run from the
        /// repository, which holds it), then the generated archive's.
        static let unifiedLogRows = [
            "log show iOS fixture", "log show iOS fixture peak RSS", "log show 1 MB archive", "log show archive peak RSS",
            "analyze the archive", "analyze archive peak RSS",
        ]
    }
}
