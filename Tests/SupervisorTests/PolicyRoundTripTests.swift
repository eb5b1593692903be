import Foundation
import Testing

@testable import CommandLineOptions
@testable import Core
@testable import Browser
@testable import Scenario

extension Processes {
    /// The data form drives real runs: a built-in read back from what `supervisor policies` prints behaves as the
    /// built-in does, and user policies reach `run` and `compare` through the binary.
    @Suite struct PolicyRoundTrip {
        /// The counts of a run that follow from its seed and policy, not from timing.
        static func counts(_ summary: RunSummary) -> [String: Int] {
            [
                "loads": summary.loads, "rendered": summary.rendered, "blank": summary.blank, "failed": summary.failed,
                "reloads": summary.recoveries[.reload] ?? 0, "rebuilds": summary.recoveries[.rebuild] ?? 0,
                "delivered": summary.faultsDelivered, "spared": summary.faultsSpared,
                "unobserved": summary.unobservedDeaths,
            ]
        }

        /// 20 loads, a fifth of them raced (seed 1 races 3). The page renders slower than the race window lasts,
        /// so a raced worker never paints first, and the blank timeout (simulate's 1 s) leaves the watchdog (every
        /// 100 ms) time for reload's three recoveries and its give-up, and a rebuilt view time to render, however
        /// busy the machine is.
        static func run(_ policy: Policy) throws -> RunSummary {
            try simulate({
                $0.policy = policy
                $0.loads = 20
                $0.raceRate = 0.2
                $0.seed = 1
                $0.watchdogNanoseconds = 100_000_000
            }, content: ContentProvider(pages: [("page.html", page("Page", render: "cpu=30ms"))])).summary
        }

        @Test(arguments: Policy.all)
        func aBuiltInAndItsPrintedCopyGiveTheSameRun(builtIn: Policy) throws {
            let copy = try PolicyData.policy(builtIn.inlineForm)
            #expect(copy == builtIn)
            let (original, printed) = (try Self.run(builtIn), try Self.run(copy))
            #expect(Self.counts(printed) == Self.counts(original), "\(builtIn.name)")
            #expect(printed.policy == builtIn.name && original.loads == 20)
            #expect(original.faultsDelivered + original.faultsSpared == 3, "the seed's races")
        }

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
