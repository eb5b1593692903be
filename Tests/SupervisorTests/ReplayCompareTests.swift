import Foundation
import Testing

@testable import Replay

/// Seed 000's field case, written by hand: a WebContent process killed 2–6 ms after its launch, before its view
/// attached, at background priority.
let seed000Schedule = """
    {"format": "supervisor-replay", "version": 1, "sources": ["seed 000, by hand"],
     "incidents": [{"id": "seed 000", "kind": "killed-before-render", "attachMs": [2, 6], "deathMs": [2, 6],
                    "band": "background", "rendered": false, "cause": "kill", "detail": "", "evidence": []}]}
    """

extension Processes {
    /// `compare --replay` runs every policy against exactly the incidents of a schedule.
    @Suite struct ReplayCompare {
        /// The replay's results for one policy: what became of the first incident, and that run's counts.
        struct PolicyResult {
            let result: [String: Any]
            let run: [String: Any]
            var saved: Int { result["saved"] as? Int ?? -1 }
            var loads: Int { result["loads"] as? Int ?? -1 }
            var spared: Int { result["spared"] as? Int ?? -1 }
            var recoveryP50: Double? { (result["recoveryMs"] as? [String: Any])?["p50"] as? Double }
            var lost: [String: Int] { result["lost"] as? [String: Int] ?? [:] }
        }

        func replay(_ schedule: String, _ extra: [String] = []) throws -> (policies: [String: PolicyResult], verdict: String) {
            let folder = try TemporaryFolder(["schedule.json": schedule])
            // A short watchdog and blank timeout: rebuild's watchdog must still find the blank within it.
            let out = try runSupervisorBounded(
                ["compare", "--replay", folder.path + "/schedule.json", "--repeat", "4", "--watchdog", "200",
                 "--blank-timeout", "1000", "--json"] + extra, seconds: 60)
            try #require(out.status == 0, "\(out.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
            let runs = try #require(json["runs"] as? [[String: Any]])
            let replay = try #require(json["replay"] as? [String: Any])
            let incident = try #require((replay["incidents"] as? [[String: Any]])?.first)
            let results = try #require(incident["results"] as? [[String: Any]])
            var policies: [String: PolicyResult] = [:]
            for (result, run) in zip(results, runs) {
                policies[try #require(result["policy"] as? String)] = PolicyResult(result: result, run: run)
            }
            return (policies, try #require(replay["verdict"] as? String))
        }

        /// none and reload stay blank (the death is never told, and reload() on the dead proxy does nothing);
        /// rebuild recovers once its watchdog finds the blank; always-foreground is never raced; guarded, told
        /// of the death from spawn, recovers in under a millisecond of its own time.
        @Test func seed000sFieldCaseUnderEveryPolicy() throws {
            let (policies, verdict) = try replay(seed000Schedule)
            let unseen = "killed before it rendered and before its view attached: no callback, and the view keeps its dead process"
            for name in ["none", "reload"] {
                let policy = try #require(policies[name])
                #expect(policy.loads == 4 && policy.saved == 0 && policy.lost == [unseen: 4], "\(name)")
            }
            let rebuild = try #require(policies["rebuild"])
            #expect(rebuild.saved == 4)
            // Its recovery waits for the watchdog's first probe, 200 ms after the view opened.
            #expect(try #require(rebuild.recoveryP50) >= 190)
            let foreground = try #require(policies["always-foreground"])
            #expect(foreground.saved == 4 && foreground.spared == 4 && foreground.run["raceKills"] as? Int == 0)
            let guarded = try #require(policies["guarded"])
            #expect(guarded.saved == 4 && guarded.spared == 0)
            #expect(try #require(guarded.recoveryP50) < 1)
            #expect(verdict.hasPrefix("Every incident is saved by rebuild") && verdict.contains("guarded"))
        }

        @Test func aScheduleThatCannotBeReadIsOneLineBeforeAnyPolicyRuns() throws {
            let folder = try TemporaryFolder(["bad.json": #"{"format": "supervisor-replay", "version": 1, "sources": [], "incidents": [{"id": "a"}]}"#])
            let out = try runSupervisorBounded(["compare", "--replay", folder.path + "/bad.json"])
            // Errors wrap at 100 columns, continued with an indent.
            func line(_ text: String) -> String { text.replacingOccurrences(of: "\n  ", with: " ") }
            #expect(out.status == 1 && out.stdout.isEmpty)
            #expect(line(out.stderr) == "supervisor: error: replay schedule '\(folder.path)/bad.json': incident 1 has no 'kind'\n")
            let both = try runSupervisorBounded(["compare", "--replay", folder.path + "/bad.json", "--inject-race", "0.1"])
            #expect(both.status == 64 && line(both.stderr).contains("'--inject-race' cannot be combined with '--replay'"))
        }
    }
}
