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
            let ios = try String(contentsOfFile: log + ".ios.log", encoding: .utf8)
            #expect(ios.contains("reason=ExceededMemoryLimit"))
            let analyzed = try runSupervisor(["analyze", log + ".ios.log", "--truth", log, "--json"])
            #expect(analyzed.stdout.contains(#"{"reason":"exceeded-memory-limit","truth":1,"matched":1,"recall":1.0}"#),
                    "\(analyzed.stdout.suffix(1000))")
            #expect(orphanedWorkers().isEmpty)
        }
    }
}
