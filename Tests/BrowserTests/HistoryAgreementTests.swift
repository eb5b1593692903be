import Foundation
import Testing
@testable import SupervisorTesting

extension BesideOthers {
    /// Issue 18's defect: the worker kept its own back/forward list without the supervisor's 100-entry cap, so a tab
    /// that kept one worker for long went back or forward to a page other than the one the supervisor decided on
    /// (first at navigation 205 of this run), and the wrong URL was then saved. Both sides now share one list type.
    @Suite struct HistoryAgreement {
        @Test func sixHundredNavigationsCommitWhereTheSupervisorDecided() throws {
            let folder = try TemporaryFolder([:])
            let log = folder.path + "/run.jsonl"
            let run = try runSupervisor([
                "run", "--session", folder.path + "/s.session", "--tabs", "1", "--loads", "600", "--seed", "3", "--log", log,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            var decided: [String] = []
            var committed: [String] = []
            for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") {
                let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                switch event["event"] as? String {
                case "navigation-decision" where event["decision"] as? String == "allow": decided.append(try #require(event["url"] as? String))
                case "commit": committed.append(try #require(event["url"] as? String))
                default: break
                }
            }
            // The first commit is the tab's first page, which no decision precedes.
            try #require(decided.count == 600 && committed.count == 601, "\(decided.count) decided, \(committed.count) committed")
            let wrong = zip(decided, committed.dropFirst()).enumerated().filter { $0.element.0 != $0.element.1 }
            #expect(wrong.isEmpty, "\(wrong.count) navigations committed elsewhere, the first at \(wrong.first.map { "\($0.offset + 1): \($0.element)" } ?? "-")")
            let back = try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: #""type":"backForward""#).count - 1
            #expect(back > 50, "the run goes back and forward often enough to reach past the cap")
            #expect(orphanedWorkers().isEmpty)
        }
    }
}
