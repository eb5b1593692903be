import Foundation
import Testing

@testable import Browser
@testable import Scenario
@testable import SupervisorTesting

extension Processes {
    /// `compare`'s simulated waits: what no process is working through passes at once on the run's clock; what a
    /// process does takes its real time; and the outcomes are those of a run that waited everything out.
    @Suite struct SimulatedWaits {
        /// Each page's answer is held back a second (its fetch latency) and then takes 150 ms of CPU to render.
        /// The seconds the worker waits on the supervisor pass in simulated time; the renders, in real time.
        @Test func aHeldAnswerPassesInSimulatedTimeAndARenderInReal() throws {
            let content = ContentProvider(pages: [("slow.html", page("Slow", render: "cpu=150ms"))])
            let (summary, _) = try simulate({
                $0.loads = 3
                $0.fetchLatencyNanoseconds = 1_000_000_000...1_000_000_000
                $0.blankTimeoutNanoseconds = 5_000_000_000
                $0.waits = .simulated
            }, content: content)
            #expect(summary.rendered == 3)
            let simulated = try #require(summary.simulatedSeconds)
            let clock = try #require(summary.clockSeconds)
            #expect(simulated >= 3 * 0.95, "simulated \(simulated) s of \(clock) s")
            #expect(clock - simulated >= 3 * 0.15, "simulated \(simulated) s of \(clock) s")
            // Each load's time to visible is on the run's clock: its second of latency and its render.
            #expect(summary.timeToVisibleMs.allSatisfy { $0 >= 1150 }, "\(summary.timeToVisibleMs)")
        }

        static let raced = [
            "compare", "--policies", "none,rebuild", "--loads", "40", "--inject-race", "1/4", "--seed", "3",
            "--blank-timeout", "1000", "--watchdog", "500", "--json",
        ]

        /// The same comparison with its waits simulated (the default) and waited out: the same loads raced, blank
        /// and recovered, under each policy; only the simulated run says it passed time it did not wait.
        @Test func simulatedAndRealWaitsAgree() throws {
            var outcomes: [String: [String: [Int]]] = [:]
            for waits in ["default", "real"] {
                let chosen = waits == "real" ? ["--waits", "real"] : []
                let result = try runSupervisorBounded(Self.raced + chosen, seconds: 60)
                try #require(result.status == 0, "\(result.stderr)")
                let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
                let output = try #require(json as? [String: Any])
                #expect(output["waits"] as? String == (waits == "real" ? "real" : "simulated"))
                for run in try #require(output["runs"] as? [[String: Any]]) {
                    let policy = try #require(run["policy"] as? String)
                    let simulated = try #require(run["simulatedSeconds"] as? Double)
                    // The last blank load's timeout (1 s) past the last arrival (at 0.2 s) at least, under none, where
                    // nothing else was under way; some of rebuild's watchdog periods (0.5 s).
                    let least = policy == "none" ? 0.5 : 0.1
                    if waits == "real" { #expect(simulated == 0) } else { #expect(simulated > least, "\(policy)") }
                    outcomes[waits, default: [:]][policy] = ["rendered", "blank", "raceKills", "recoveredLoads"].map {
                        run[$0] as? Int ?? -1
                    }
                }
            }
            #expect(outcomes["default"]?["none"]?[1] ?? 0 > 0, "\(outcomes)")
            #expect(outcomes["default"] == outcomes["real"], "\(outcomes)")
        }

        /// The table says how much of the runs' time was simulated, and says nothing of it when nothing was.
        @Test func theTableSaysWhatWasSimulated() throws {
            let arguments = [
                "compare", "--policies", "none", "--loads", "4", "--inject-race", "1/2", "--blank-timeout", "300",
            ]
            let simulated = try runSupervisorBounded(arguments)
            #expect(simulated.status == 0, "\(simulated.stderr)")
            let said = simulated.stdout.replacingOccurrences(of: "\n", with: " ")
            #expect(said.contains("blank timeouts) passed in simulated time: "), "\(simulated.stdout)")
            let real = try runSupervisorBounded(arguments + ["--waits", "real"])
            #expect(real.status == 0 && !real.stdout.contains("simulated time"), "\(real.stdout)")
        }

        /// Jetsam and the typist run in real time beside the workers: simulated waits are refused with them, in one
        /// line, before anything runs.
        @Test(arguments: [["--jetsam"], ["--typing", "20"]])
        func simulatedWaitsAreRefusedBesideWhatRunsInRealTime(option: [String]) throws {
            let result = try runSupervisor(["compare", "--waits", "simulated"] + option)
            #expect(result.status == 64 && result.stdout.isEmpty)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("'--waits simulated' cannot be combined with '\(option[0])'"))
        }
    }
}
