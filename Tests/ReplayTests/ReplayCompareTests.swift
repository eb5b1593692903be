import Foundation
import Testing
import Vocabulary

@testable import Replay
@testable import SupervisorTesting

extension BesideOthers {
    /// `compare --replay` runs every policy against exactly the incidents of a schedule.
    @Suite struct ReplayCompare {
        /// The replay's results for one policy: what became of the first incident, and that run's counts.
        struct PolicyResult {
            /// Each incident's results under the policy, in the schedule's order; `result` is the first's.
            let results: [[String: Any]]
            let run: [String: Any]
            var result: [String: Any] { results[0] }
            var saved: Int { result["saved"] as? Int ?? -1 }
            var loads: Int { result["loads"] as? Int ?? -1 }
            var spared: Int { result["spared"] as? Int ?? -1 }
            var recoveryP50: Double? { (result["recoveryMs"] as? [String: Any])?["p50"] as? Double }
            var lost: [String: Int] { result["lost"] as? [String: Int] ?? [:] }
        }

        func replay(_ schedule: String, repeat count: Int = 4) throws -> (policies: [String: PolicyResult], verdict: String) {
            let folder = try TemporaryFolder(["schedule.json": schedule])
            // A short watchdog and blank timeout: rebuild's watchdog must still find the blank within it.
            let out = try runSupervisorBounded(
                ["compare", "--replay", folder.path + "/schedule.json", "--repeat", "\(count)", "--watchdog", "200",
                 "--blank-timeout", "1000", "--json"], seconds: 120)
            try #require(out.status == 0, "\(out.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
            let runs = try #require(json["runs"] as? [[String: Any]])
            let replay = try #require(json["replay"] as? [String: Any])
            let incidents = try #require(replay["incidents"] as? [[String: Any]])
            let byIncident = try incidents.map { try #require($0["results"] as? [[String: Any]]) }
            var policies: [String: PolicyResult] = [:]
            for (p, run) in runs.enumerated() {
                let name = try #require(run["policy"] as? String)
                policies[name] = PolicyResult(results: byIncident.map { $0[p] }, run: run)
            }
            return (policies, try #require(replay["verdict"] as? String))
        }

        /// none and reload stay blank (the death is never told, and reload() on the dead proxy does nothing);
        /// rebuild recovers once its watchdog finds the blank; always-foreground's worker, protected from the
        /// killer, is never raced (the device's killer took a background process: it had lower ones than this);
        /// guarded, told of the death from spawn (or spared), shows every page.
        @Test func seed000sFieldCaseUnderEveryPolicy() throws {
            let (policies, verdict) = try replay(seed000Schedule)
            let unseen = "killed before it rendered and before its view attached: no callback, and the view keeps its dead process"
            for name in ["none", "reload"] {
                let policy = try #require(policies[name])
                #expect(policy.loads == 4 && policy.saved == 0 && policy.lost == [unseen: 4], "\(name)")
            }
            let rebuild = try #require(policies["rebuild"])
            #expect(rebuild.saved == 4)
            // Its recovery waits for the watchdog's first probe, 200 ms after the view opened (less the time the
            // death took to come after the open: some tens of ms on a loaded machine).
            let recovery = try #require(rebuild.recoveryP50)
            #expect(recovery >= 100, "rebuild's recovery p50 \(recovery) ms")
            let foreground = try #require(policies["always-foreground"])
            #expect(foreground.spared == 4 && foreground.run["raceKills"] as? Int == 0 && foreground.lost.isEmpty)
            let guarded = try #require(policies["guarded"])
            #expect(guarded.saved == 4)
            // Told at once, it never waits for a watchdog's first probe (200 ms).
            if let recovery = guarded.recoveryP50 { #expect(recovery < 100, "guarded's recovery p50 \(recovery) ms") }
            // The two that save every incident; their order is by protected worker-seconds, measured in real time.
            let savers = verdict.components(separatedBy: " Cheapest:")[0]
            #expect(verdict.hasPrefix("Every incident is saved by "), "\(verdict)")
            for name in ["rebuild (", "always-foreground (", "guarded ("] { #expect(savers.contains(name), "\(verdict)") }
            for name in ["none (", "reload ("] { #expect(!savers.contains(name), "\(verdict)") }
        }

        /// One killer for replay and natural mode (issue 29, item 6), with issue 31's rule for a death the device
        /// dealt at background priority: a worker protected from the killer is spared, as an injected race spares
        /// it; and the verdict says which policies an app can adopt with public API and which need WebKit changes.
        @Test func theReplaysKillerIsJetsamsAndTheVerdictSaysWhatAnAppCanAdopt() throws {
            let (policies, verdict) = try replay(seed000Schedule, repeat: 2)
            let foreground = try #require(policies["always-foreground"])
            #expect(foreground.spared == 2)
            #expect((foreground.run["faults"] as? [String: Int]) == ["delivered": 0, "spared": 2])
            let flat = verdict.replacingOccurrences(of: "\n", with: " ")
            #expect(flat.contains("An app can adopt none, reload, rebuild, webkit-default with public API"), "\(flat)")
            #expect(flat.contains("always-foreground (the private foreground-priority setting), guarded (observing the "
                + "process from its launch, a boosted band, spare processes) need WebKit changes."), "\(flat)")
        }

        /// From our own run to the fix: a raced run's iOS log, analyzed into a schedule, replayed against every
        /// policy. Every kill before render the analyzer found is a blank again under reload, and saved under guarded.
        @Test func aRacedRunsIncidentsReplayedAreBlankUnderReloadAndSavedUnderGuarded() throws {
            let folder = try TemporaryFolder([:])
            let (log, schedule) = (folder.path + "/R.jsonl", folder.path + "/S.json")
            let quick = ["--watchdog", "200", "--blank-timeout", "1000"]
            let run = try runSupervisorBounded(
                ["run", "--inject-race", "1/20", "--loads", "200", "--seed", "5", "--log", log, "--log-format", "ios"] + quick,
                seconds: 120)
            try #require(run.status == 0, "\(run.stderr)")
            let analyze = try runSupervisorBounded(["analyze", log + ".ios.log", "--replay", schedule])
            try #require(analyze.status == 0, "\(analyze.stderr)")
            let written = try ReplaySchedule(json: Array(try #require(FileManager.default.contents(atPath: schedule))))
            let beforeRender = written.incidents.indices.filter { written.incidents[$0].kind == .killedBeforeRender }
            try #require(beforeRender.count >= 3, "the run's races gave \(written.incidents.count) incidents")
            let (policies, _) = try replay(String(decoding: try #require(FileManager.default.contents(atPath: schedule)), as: UTF8.self), repeat: 1)
            for i in beforeRender {
                #expect(policies["reload"]?.results[i]["saved"] as? Int == 0, "incident \(i + 1) under reload")
                #expect(policies["guarded"]?.results[i]["saved"] as? Int == 1, "incident \(i + 1) under guarded")
            }
        }

        /// A kill after render, after the view attached, in the foreground (a per-process limit): the load stays
        /// open until the death comes, no band spares it, and only a policy that recovers on the callback shows the
        /// page again. A crash dealt before hello is the fault's doing, not a broken worker binary: the run goes on.
        /// (The kill comes 400 ms after launch: at 40 ms, a loaded CI machine once had not rendered the page by
        /// then, and reload saved fewer than 2.)
        @Test func aKillAfterRenderAndACrashBeforeHelloAreReplayedAsTheyHappened() throws {
            let schedule = """
                {"format": "supervisor-replay", "version": 1, "sources": [], "incidents": [
                 {"id": "after", "kind": "killed-after-render", "attachMs": 3, "deathMs": 400, "band": "foreground",
                  "rendered": true, "cause": "kill", "detail": "", "evidence": []},
                 {"id": "early crash", "kind": "crash", "attachMs": 3, "deathMs": 0.05, "band": null,
                  "rendered": false, "cause": "crash", "detail": "", "evidence": []}]}
                """
            let (policies, _) = try replay(schedule, repeat: 2)
            let none = try #require(policies["none"]), reload = try #require(policies["reload"])
            let foreground = try #require(policies["always-foreground"])
            // The kill after render: dealt under every policy (the process died in the foreground), lost by none.
            #expect(none.results[0]["saved"] as? Int == 0 && none.results[0]["notReplayed"] as? Int == 0)
            #expect(reload.results[0]["saved"] as? Int == 2 && foreground.results[0]["spared"] as? Int == 0,
                    "reload: \(reload.results[0]); always-foreground: \(foreground.results[0])")
            // The early crash ran under every policy, none of which stopped for a broken worker binary; it came before
            // attach, so only a policy that observes from spawn is told, and saves it.
            for (name, policy) in policies { #expect(policy.results[1]["loads"] as? Int == 2, "\(name)") }
            #expect(reload.results[1]["saved"] as? Int == 0 && policies["guarded"]?.results[1]["saved"] as? Int == 2)
            // Alone, the early crash is every worker's first word: two in a row are still no broken binary.
            let crashes = schedule.replacingOccurrences(of: #"[""#, with: "[").components(separatedBy: "},")[1]
            let alone = #"{"format": "supervisor-replay", "version": 1, "sources": [], "incidents": ["# + crashes
            #expect(try replay(alone, repeat: 3).policies["none"]?.results[0]["loads"] as? Int == 3)
        }

        /// SIGINT during the first policy (issue 29, item 18): no policy replayed every incident, so there is no
        /// verdict, neither in the text nor in the JSON; not "No policy saved every incident".
        @Test(arguments: [false, true])
        func anInterruptedReplayGivesNoVerdict(json: Bool) throws {
            let folder = try TemporaryFolder(["schedule.json": seed000Schedule])
            let (status, stdout) = try #require(try interruptedSupervisor(
                ["compare", "--replay", folder.path + "/schedule.json", "--repeat", "10000", "--policies", "none,guarded"]
                    + (json ? ["--json"] : [])))
            #expect(status == 130)
            let verdict = "No verdict: the comparison was interrupted before any policy replayed every incident."
            if json {
                let output = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
                let replay = try #require(output["replay"] as? [String: Any])
                #expect(replay["verdict"] as? String == verdict && replay["interrupted"] as? Bool == true)
                #expect(replay["savers"] as? [String] == [])
            } else {
                #expect(stdout.replacingOccurrences(of: "\n", with: " ").contains(verdict), "\(stdout)")
                #expect(!stdout.contains("No policy saved"))
            }
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
