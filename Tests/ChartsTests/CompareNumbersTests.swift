import Foundation
import Glibc
import ProcFS
import Testing

@testable import Text
@testable import SupervisorTesting

extension Processes {
    /// `compare` as a user reads it: faults delivered and spared per policy, blank time that is blank time, an
    /// interruption that says how far it got, and lists that cannot be empty.
    @Suite struct CompareNumbers {
        static let raced = [
            "compare", "--loads", "6", "--inject-race", "1/2", "--watchdog", "100", "--blank-timeout", "300",
            "--policies", "none,guarded",
        ]

        /// The table's rows by policy, from the block whose header starts with `policy` and names `column`.
        static func block(_ table: String, column: String) -> [String: [String: String]] {
            let lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let start = lines.firstIndex(where: { $0.hasPrefix("policy") && $0.contains(column) }) else { return [:] }
            // Headers of several words ("blank s", "TTV p50 ms", "race kills") are one column each.
            let header = lines[start].split(separator: " ").map(String.init).reduce(into: [String]()) { names, word in
                if ["s", "p50", "p99", "ms", "kills", "errs", "worker-s", "MiB"].contains(word) {
                    names[names.count - 1] += " " + word
                } else {
                    names.append(word)
                }
            }
            var rows: [String: [String: String]] = [:]
            for line in lines[(start + 1)...] {
                if line.isEmpty { break }
                var cells = line.split(separator: " ").map(String.init)
                // A policy cut short ran `137 of 300` loads: one cell.
                if let of = cells.firstIndex(of: "of") { cells[(of - 1)...(of + 1)] = [cells[(of - 1)...(of + 1)].joined(separator: " ")] }
                guard cells.count == header.count else { continue }
                rows[cells[0]] = Dictionary(uniqueKeysWithValues: zip(header, cells))
            }
            return rows
        }

        /// Side by side (`--jobs 2`), the table says its times measure the machine's load too; one at a time, the
        /// JSON says so by its `atOnce`.
        @Test func theTableShowsDeliveredAndSparedFaultsAndTrueBlankTime() throws {
            let result = try runSupervisor(Self.raced + ["--jobs", "2"])
            #expect(result.status == 0, "\(result.stderr)")
            let outcomes = Self.block(result.stdout, column: "blank s")
            let faults = Self.block(result.stdout, column: "spared")
            let none = try #require(faults["none"])
            let guarded = try #require(faults["guarded"])
            let raced = try #require(Int(none["faults"] ?? ""))
            #expect(raced > 0 && none["spared"] == "0")
            // The same loads were raced under guarded; its workers were protected, so every fault was spared.
            #expect(guarded["faults"] == "0" && guarded["spared"] == "\(raced)")
            #expect(outcomes["guarded"]?["blank"] == "0" && outcomes["guarded"]?["blank s"] == "0.0")
            #expect(outcomes["none"]?["blank"] == "\(raced)")
            #expect(Double(outcomes["none"]?["blank s"] ?? "") ?? 0 >= 0.3 * Double(raced))
            #expect(result.stdout.contains("spared:") && result.stdout.contains("blank s: seconds users looked at views"))
            #expect(result.stdout.contains("2 policies ran at a time: their times to visible and protected time measure"))

            let json = try runSupervisor(Self.raced + ["--json", "--jobs", "1"])
            let output = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(output["interrupted"] as? Bool == false && (output["notRun"] as? [String])?.isEmpty == true)
            #expect(output["atOnce"] as? Int == 1)
            let runs = try #require(output["runs"] as? [[String: Any]])
            let byPolicy = Dictionary(uniqueKeysWithValues: runs.map { ($0["policy"] as? String ?? "", $0) })
            #expect(byPolicy["guarded"]?["faults"] as? [String: Int] == ["delivered": 0, "spared": raced])
            #expect(byPolicy["none"]?["faults"] as? [String: Int] == ["delivered": raced, "spared": 0])
            #expect(byPolicy["guarded"]?["blankMs"] as? Double == 0)
        }

        /// SIGINT during the first of two policies run one after another: the output says it was interrupted, how
        /// many of the planned loads that policy ran, and which policies never ran; none of them is shown as if it had.
        @Test(arguments: [false, true])
        func anInterruptedComparisonSaysHowFarItGot(json: Bool) throws {
            let folder = try TemporaryFolder([:])
            let svg = folder.path + "/compare.svg"
            let (status, stdout) = try #require(try interruptedSupervisor(
                ["compare", "--loads", "100000", "--policies", "none,guarded", "--jobs", "1", "--svg", svg] + (json ? ["--json"] : [])))
            #expect(status == 130)
            if json {
                let output = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
                #expect(output["interrupted"] as? Bool == true && output["plannedLoads"] as? Int == 100000)
                #expect(output["notRun"] as? [String] == ["guarded"])
                let runs = try #require(output["runs"] as? [[String: Any]])
                #expect(runs.count == 1 && runs[0]["policy"] as? String == "none")
                #expect(runs[0]["interrupted"] as? Bool == true && runs[0]["plannedLoads"] as? Int == 100000)
                #expect((runs[0]["loads"] as? Int ?? 100000) < 100000)
            } else {
                let loads = try #require(Self.block(stdout, column: "blank s")["none"]?["loads"])
                let ran = try #require(Int(loads.prefix { $0 != " " }))
                #expect(loads == "\(ran) of 100000")
                #expect(stdout.hasPrefix("interrupted during 'none' after \(grouped(ran)) of 100,000 loads; not run: guarded"))
                #expect(Self.block(stdout, column: "spared")["guarded"] == nil)
                #expect(!stdout.contains("\nguarded"))
            }
            let drawing = try String(contentsOfFile: svg, encoding: .utf8)
            #expect(drawing.contains("interrupted during &#39;none&#39; after"))
            #expect(drawing.contains("not run: guarded"))
            #expect(!drawing.contains(">guarded<"))
        }

        /// An empty list is a mistake: it must not turn a CI gate off or compare nothing.
        @Test(arguments: [
            ["compare", "--policies", ""], ["compare", "--policies", "none,"], ["compare", "--policies", ",guarded"],
            ["analyze", "any.log", "--fail-on", ""], ["analyze", "any.log", "--fail-on", "crash,,launch-failed"],
        ])
        func anEmptyListIsAUsageError(arguments: [String]) throws {
            let result = try runSupervisor(arguments)
            #expect(result.status == 64)
            #expect(result.stdout.isEmpty)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("supervisor: error: '--"))
            #expect(lines.allSatisfy { $0.unicodeScalars.count <= 100 })
        }
    }
}
