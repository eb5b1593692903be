import Foundation
import Testing

extension Processes {
    /// Natural mode's numbers (issue 29, item 10): its options add to its workload, and a load no one looked at
    /// is an outcome of its own, so every policy's cost is measured.
    @Suite struct NaturalMode {
        /// `-- --svg x.svg` keeps the documented 600 loads; an option given after `--` wins over its default.
        @Test func optionsAfterTheDashesAddToTheWorkload() throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").path
            let svg = try runCommand("\(root)/scripts/natural", ["--dry-run", "--", "--svg", "x.svg"])
            #expect(svg.status == 0, "\(svg.stderr)")
            let workload = " --loads 600 --views 6 --hidden 3 --hidden-time 500 --arrival 40 --seed 1"
            #expect(svg.stdout.hasSuffix(workload + " --svg x.svg\n"), "\(svg.stdout)")
            let fewer = try runCommand("\(root)/scripts/natural", ["--dry-run", "--", "--loads", "100"])
            #expect(fewer.stdout.hasSuffix(workload + " --loads 100\n"), "\(fewer.stdout)")
        }

        /// Hidden tabs whose worker was killed before anyone looked, given up by their watchdog's only recovery:
        /// they are lost while hidden (no one's wait), not blanks with no blank time, and the policy's wait per
        /// load is measured from the loads someone looked at.
        @Test func aLoadNoOneLookedAtIsItsOwnOutcomeAndTheCostIsMeasured() throws {
            let out = try runSupervisorBounded([
                "compare", "--policies", "base=rebuild,max-recoveries=0", "--loads", "24", "--views", "4", "--hidden", "2",
                "--hidden-time", "5000", "--inject-race", "0.5", "--watchdog", "200", "--seed", "3", "--json",
            ], seconds: 60)
            try #require(out.status == 0, "\(out.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
            let run = try #require((json["runs"] as? [[String: Any]])?.first)
            let lostHidden = try #require(run["lostHidden"] as? Int)
            #expect(lostHidden > 0, "\(run)")
            let loads = try #require(run["loads"] as? Int), rendered = try #require(run["rendered"] as? Int)
            let blank = try #require(run["blank"] as? Int), failed = try #require(run["failed"] as? Int)
            #expect(rendered + blank + failed + lostHidden == loads)
            let cost = try #require(run["cost"] as? [String: Any])
            #expect(cost["waitMsPerLoad"] as? Double != nil, "\(cost)")
            #expect(json["frontier"] as? [String] == ["rebuild max-recoveries=0"])
        }
    }
}
