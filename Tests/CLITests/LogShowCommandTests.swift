import Foundation
import Testing

@testable import SupervisorTesting

/// `supervisor log show` on the real iOS 15 tracev3 (Tests/Fixtures/unified-log): every entry dtformats lists, with
/// `log show`'s field names, time-sorted, and the filters (issue 33, item 2 and must-show).
extension BesideOthers {
    @Suite struct LogShowCommand {
        static let folder = repositoryRoot + "/Tests/Fixtures/unified-log"
        static let file = folder + "/0000000000000f85.tracev3"

        /// dtformats' rows: its first nine columns.
        static func listed() throws -> [String: Int] {
            let text = try String(contentsOfFile: folder + "/0000000000000f85.dtformats.tsv", encoding: .utf8)
            var rows: [String: Int] = [:]
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                rows[line.split(separator: "\t", omittingEmptySubsequences: false).prefix(9).joined(separator: "\t"), default: 0] += 1
            }
            return rows
        }

        static func objects(_ output: String) throws -> [[String: Any]] {
            try output.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
        }

        @Test func everyEntryWithLogShowsFieldNamesTimeSorted() throws {
            let result = try runSupervisorBounded(["log", "show", Self.file], seconds: 60)
            try #require(result.status == 0, "\(result.stderr)")
            let entries = try Self.objects(result.stdout)
            var rows: [String: Int] = [:]
            for e in entries {
                func text(_ key: String) -> String { (e[key] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "-" }
                let row = [text("timestamp"), "\(e["machTimestamp"]!)", "\(e["processID"]!)", "\(e["threadID"]!)",
                           text("eventType"), text("messageType"), text("subsystem"), text("category"), "\(e["activityIdentifier"]!)"]
                rows[row.joined(separator: "\t"), default: 0] += 1
            }
            let expected = try Self.listed()
            #expect(rows == expected, "\(rows.filter { expected[$0.key] != $0.value }.keys.prefix(3))")
            let times = entries.compactMap { $0["timestamp"] as? String }
            #expect(times.count == 8_654 && times == times.sorted())
            #expect(result.stderr.contains("8,654 entries from 1 file"))
        }

        @Test func theFiltersKeepOnlyTheirSubsystemsAndProcesses() throws {
            let accounts = try runSupervisorBounded(["log", "show", Self.folder, "--subsystem", "com.apple.accounts"], seconds: 60)
            let kept = try Self.objects(accounts.stdout)
            #expect(!kept.isEmpty && kept.allSatisfy { $0["subsystem"] as? String == "com.apple.accounts" })
            let pid = try runSupervisorBounded(["log", "show", Self.folder, "--process", "49549", "--process", "14225"], seconds: 60)
            let pids = Set(try Self.objects(pid.stdout).compactMap { $0["processID"] as? Int })
            // One pid from each file of the folder: both files were read.
            #expect(pids == [49549, 14225])
        }

        @Test(arguments: [
            (["log"], "'log' needs 'show'"), (["log", "show"], "takes one .tracev3 file or one folder"),
            (["log", "show", "/nowhere/at/all"], "no such file or folder"), (["log", "show", "a", "--process", ""], "takes a pid or a process name"),
        ])
        func aMistakeIsOneLineAndStatus64(arguments: [String], message: String) throws {
            let result = try runSupervisorBounded(arguments, seconds: 30)
            #expect(result.status == 64 && result.stderr.contains(message) && result.stderr.split(separator: "\n").count == 1,
                    "\(result.stderr)")
        }
    }
}
