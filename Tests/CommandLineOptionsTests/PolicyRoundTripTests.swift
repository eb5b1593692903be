import Foundation
import Testing

@testable import CommandLineOptions
@testable import Core
@testable import Browser
@testable import Scenario
@testable import Events
@testable import SupervisorTesting

/// The data form drives whole runs: a built-in read back from what it prints behaves as the built-in does, every
/// event the same at the same moment, in virtual time.
@Suite struct PolicyRoundTrip {
    /// 20 loads, a fifth of them raced (seed 1 races 3). The page renders slower than the race window lasts, so a
    /// raced worker never paints first; the watchdog checks every 100 ms, within the blank timeout (1 s).
    static func run(_ policy: Policy) throws -> (RunSummary, [Event]) {
        let run = try simulateVirtually({
            $0.policy = policy
            $0.loads = 20
            $0.raceRate = 0.2
            $0.seed = 1
            $0.watchdogNanoseconds = 100_000_000
        }, content: ContentProvider(pages: [("page.html", page("Page", render: "cpu=30ms"))]))
        return (run.summary, run.events)
    }

    @Test(arguments: Policy.all)
    func aBuiltInAndItsPrintedCopyGiveTheSameRun(builtIn: Policy) throws {
        let copy = try PolicyData.policy(builtIn.inlineForm)
        #expect(copy == builtIn)
        let ((original, events), (printed, copied)) = (try Self.run(builtIn), try Self.run(copy))
        func steps(_ events: [Event]) -> [String] { events.map { "\($0.monotonic) \($0.name) \($0.view ?? 0) \($0.pid ?? 0)" } }
        #expect(steps(copied) == steps(events), "\(builtIn.name)")
        #expect(printed.policy == builtIn.name && original.loads == 20)
        #expect(original.faultsDelivered + original.faultsSpared == 3, "the seed's races")
        #expect(original.rendered + original.blank + original.failed == 20)
    }
}

extension Processes {
    /// User policies reach `run` and `compare` through the binary, which prints each built-in so that it reads back.
    @Suite struct PolicyCLI {
        /// Each line `supervisor policies` prints is a built-in, in order, that `--policy` reads back; with
        /// `--json`, each line is a policy file's content.
        @Test func theBinaryPrintsEachBuiltInSoThatItReadsBack() throws {
            let text = try runSupervisor(["policies"])
            #expect(text.status == 0)
            let lines = text.stdout.split(separator: "\n").map(String.init)
            #expect(try lines.map(PolicyData.policy) == Policy.all)
            let json = try runSupervisor(["policies", "--json"])
            let folder = try TemporaryFolder([:])
            let objects = json.stdout.split(separator: "\n").map(String.init)
            #expect(try objects.enumerated().map { try PolicyData.policy(PolicyData.file($1, in: folder, named: "\($0).json")) } == Policy.all)
        }

        /// A user policy runs under its derived name; compare runs built-ins beside user policies; a bad field is
        /// one line, exit status 64.
        @Test func userPoliciesRunAndABadOneIsAUsageError() throws {
            let run = try runSupervisor(["run", "--loads", "2", "--policy", "base=guarded,spares=0,reuse=no", "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            #expect(summary["policy"] as? String == "guarded spares=0 reuse=no" && summary["spareSpawns"] as? Int == 0)

            let compare = try runSupervisor([
                "compare", "--loads", "2", "--views", "1", "--policies", "none;observe=spawn,detect=callback,recover=rebuild", "--json",
            ])
            #expect(compare.status == 0, "\(compare.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(compare.stdout.utf8)) as? [String: Any])
            let runs = try #require(report["runs"] as? [[String: Any]])
            #expect(runs.map { $0["policy"] as? String } == ["none", "custom"])

            let bad = try runSupervisor(["run", "--policy", "base=guarded,recover=rebiuld"])
            #expect(bad.status == 64 && bad.stdout.isEmpty)
            #expect(bad.stderr == "supervisor: error: '--policy': 'recover' takes reload, rebuild or none, not 'rebiuld'\n")
        }
    }
}
