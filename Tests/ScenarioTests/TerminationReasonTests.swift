import Foundation
import Testing
import Vocabulary

@testable import Core
@testable import Events
@testable import LogAnalysis
@testable import Scenario
@testable import SupervisorTesting

extension BesideOthers {
    /// Deaths carry WebKit's reason, on real workers.
    @Suite struct TerminationReasons {
        /// A page that grows to 96 MiB over 600 ms, under a policy that allows 64 MiB and warns at half: warned,
        /// then killed for exceeding the limit, the warning's lead logged with the kill; the iOS log says
        /// `reason=ExceededMemoryLimit`, and the analyzer reads that back to the event log's reason.
        @Test func aPageOverTheMemoryLimitIsWarnedThenKilled() throws {
            let content = try TemporaryFolder(["page.html": page("Page", render: "memory=96MB; grow=600ms")])
            let folder = try TemporaryFolder([:])
            let log = folder.path + "/run.jsonl"
            let run = try runSupervisor([
                "run", "--loads", "1", "--content", content.path, "--log", log, "--log-format", "ios", "--json", "--blank-timeout", "1000",
                "--policy", "base=none,memory-limit=64,memory-warning=50,max-recoveries=0",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let events = logEvents(log)
            let names = events.compactMap { $0["event"] as? String }
            let warning = try #require(names.firstIndex(of: "memory-warning"))
            let limit = try #require(names.firstIndex(of: "memory-limit"))
            #expect(warning < limit)
            let lead = try #require(events[limit]["warnedMsBefore"] as? Double)
            #expect(lead > 0)
            let death = try #require(events.first { $0["event"] as? String == "death" })
            #expect(death["terminationReason"] as? String == "exceeded-memory-limit" && death["status"] as? String == "killed")
            #expect(run.stdout.contains(#""deathsByReason":{"exceeded-memory-limit":1}"#), "\(run.stdout)")
            try expectReadBack("exceeded-memory-limit", from: log, line: "reason=ExceededMemoryLimit")
        }

        /// A page that keeps a CPU busy, loaded in a hidden tab and in a visible view, under a 2% limit over 1 s
        /// windows (low enough for a spinning worker to pass it on a loaded machine: at nice 10 beside three
        /// CPU-bound processes at nice 0, it got under 5%; and two clock ticks, which /proc counts in), with no
        /// suspension (a suspended worker uses no CPU; WebKit's CPU limit is for a process that is not suspended): the hidden tab's worker is killed for exceeding it, read from /proc, and the visible one
        /// is left alone for its whole dwell; the analyzer reads the reason back from the iOS log.
        @Test func aBusyHiddenPageOverTheCPULimitIsKilled() throws {
            let content = try TemporaryFolder(["page.html": page("Busy", render: "memory=1MB; busy=100%")])
            let folder = try TemporaryFolder([:])
            let log = folder.path + "/run.jsonl"
            let run = try runSupervisor([
                "run", "--loads", "2", "--views", "2", "--hidden", "1", "--hidden-time", "2500", "--dwell", "1500",
                "--content", content.path, "--log", log, "--log-format", "ios", "--json", "--blank-timeout", "1000",
                "--policy", "base=none,suspend=no,cpu-limit=2,cpu-window=1000,max-recoveries=0",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let events = logEvents(log)
            let limits = events.filter { $0["event"] as? String == "cpu-limit" }
            #expect(limits.count == 1)
            let used = try #require(limits.first?["usedPercent"] as? Double)
            #expect(used > 2, "\(used)")
            // Which ends first depends on the machine's load: the hidden tab's window or the visible view's dwell.
            let deaths = events.filter { $0["event"] as? String == "death" }
                .map { "\($0["terminationReason"] as? String ?? "?") in \($0["band"] as? String ?? "?")" }
            #expect(deaths.sorted() == ["exceeded-cpu-limit in hidden", "idle-exit in foreground"], "\(deaths)")
            try expectReadBack("exceeded-cpu-limit", from: log, line: "didExceedCPULimit: Terminating background WebProcess")
        }

        /// compare shows the limits' table when a policy met one: the warnings, the kills and the warning's lead,
        /// beside a policy without a limit; with no limit met, no such table.
        @Test func compareCountsTheLimitsAndTheWarningsLead() throws {
            let content = try TemporaryFolder(["page.html": page("Page", render: "memory=96MB; grow=600ms")])
            let policies = "name=limited,base=none,memory-limit=64,memory-warning=50,max-recoveries=0;none"
            let run = try runSupervisor([
                "compare", "--loads", "2", "--content", content.path, "--blank-timeout", "1000", "--policies", policies,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let rows = run.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            let header = try #require(rows.firstIndex { $0.first == "policy" && $0.contains("warnings") })
            let limited = rows[header + 1], none = rows[header + 2]
            #expect(limited.prefix(3) == ["limited", "2", "2"] && limited.last == "0", "\(limited)")
            #expect((Double(limited[3]) ?? 0) > 0, "\(limited)")
            #expect(none == ["none", "0", "0", "-", "0", "0"])
            let unlimited = try runSupervisor(["compare", "--loads", "2", "--policies", "none"])
            #expect(unlimited.status == 0 && !unlimited.stdout.contains("memory warnings"))
        }

        /// The run's iOS log has `line`, `analyze --truth` reads the one death back to `reason`, and no worker is
        /// left.
        func expectReadBack(_ reason: String, from log: String, line: String) throws {
            let ios = try String(contentsOfFile: log + ".ios.log", encoding: .utf8)
            #expect(ios.contains(line))
            let analyzed = try runSupervisor(["analyze", log + ".ios.log", "--truth", log, "--json"])
            #expect(analyzed.stdout.contains(#"{"reason":"\#(reason)","truth":1,"matched":1,"recall":1.0}"#),
                    "\(analyzed.stdout.suffix(1000))")
            #expect(orphanedWorkers().isEmpty)
        }
    }
}
