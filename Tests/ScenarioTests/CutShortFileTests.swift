import Foundation
import Glibc
import Testing

@testable import Browser
@testable import Core
@testable import Events
@testable import Scenario
@testable import SupervisorTesting

extension Processes {
    /// A journal or session file cut short in place during a run (`: > FILE`, a copy-truncate rotation, an
    /// editor) is found by the run's next write, written again whole from what the run holds, and said: the next
    /// run restores everything the first one acknowledged. Unnoticed, later writes landed past a hole of zeros, the
    /// run ended saying all was saved, and the next run refused the file as not its own.
    @Suite struct CutShortFiles {
        @Test func aJournalCutShortMidRunIsWrittenAgainAndTheNextRunRestoresEveryInput() throws {
            let folder = try TemporaryFolder([:])
            let journal = folder.path + "/journal"
            let log = folder.path + "/first.jsonl"
            let first = try BackgroundSupervisor(
                ["run", "--policy", "guarded", "--loads", "1000000", "--dwell", "20", "--typing", "500", "--journal", journal,
                 "--log", log],
                folder: folder)
            let named = { (name: String) in logEvents(log).filter { $0["event"] as? String == name } }
            #expect(eventually(within: 20) { named("journal-synced").count >= 5 })
            let syncedBefore = named("journal-synced").count
            #expect(truncate(journal, 0) == 0)
            #expect(eventually(within: 20) { !named("file-rewritten").isEmpty && named("journal-synced").count > syncedBefore + 1 })
            try Self.stop(first, havingRewritten: "journal", at: journal, log: log)
            let audit = try #require(named("editor").last)
            let saved = try #require(audit["saved"] as? Int)
            #expect(saved >= named("journal-synced").last?["records"] as? Int ?? .max)

            let second = try runSupervisorBounded(["run", "--loads", "1", "--typing", "5", "--journal", journal, "--json"])
            #expect(second.status == 0, "\(second.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
            let inputs = try #require(json["inputs"] as? [String: Int])
            #expect(inputs["restored"] == saved && inputs["tornBytesDropped"] == 0)
        }

        @Test func aSessionFileCutShortMidRunIsWrittenAgainAndTheNextRunRestoresEveryTab() throws {
            let folder = try TemporaryFolder([:])
            let session = folder.path + "/tabs.session"
            let log = folder.path + "/first.jsonl"
            let first = try BackgroundSupervisor(
                ["run", "--policy", "guarded", "--session", session, "--tabs", "6", "--loads", "1000000", "--dwell", "3",
                 "--log", log],
                folder: folder)
            let events = { logEvents(log) }
            let named = { (name: String) in events().filter { $0["event"] as? String == name } }
            #expect(eventually(within: 20) { named("session-saved").count >= 3 })
            #expect(truncate(session, 0) == 0)
            // Found at the next save, which then writes the whole file.
            #expect(eventually(within: 20) {
                let all = events()
                guard let found = all.firstIndex(where: { $0["event"] as? String == "file-rewritten" }) else { return false }
                return all[found...].contains { $0["event"] as? String == "session-saved" && $0["whole"] as? Bool == true }
            })
            try Self.stop(first, havingRewritten: "session", at: session, log: log)
            let onDisk = try SessionFile.readRecords(session)
            #expect(onDisk.damage == nil && onDisk.records.records.count == 6)
            let last = try #require(named("session-saved").last)
            #expect(SessionDigest(onDisk.records.records.map(\.bytes)).value == last["digest"] as? String)

            let second = try runSupervisorBounded(["run", "--session", session, "--loads", "1", "--json"])
            #expect(second.status == 0 && second.stderr.isEmpty, "\(second.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
            #expect((json["session"] as? [String: Any])?["tabs"] as? Int == 6)
        }

        /// Stops `run` and checks that it wrote `file` again once, and said so once.
        static func stop(_ run: BackgroundSupervisor, havingRewritten file: String, at path: String, log: String) throws {
            kill(run.pid, SIGTERM)
            #expect(run.wait() == 130)
            let rewritten = logEvents(log).filter { $0["event"] as? String == "file-rewritten" }
            #expect(rewritten.count == 1 && rewritten.first?["file"] as? String == file)
            #expect(rewritten.first?["foundBytes"] as? Int ?? .max < rewritten.first?["writtenBytes"] as? Int ?? 0)
            let stderr = unwrapped(run.stderr)
            #expect(stderr.components(separatedBy: "supervisor: warning: \(file) '\(path)' held").count == 2, "\(stderr)")
            #expect(stderr.contains("another process cut it short during the run; it was written again whole"))
        }

        /// Cut short after the run's last write to them, both files are found at the run's end and written again
        /// whole, while the run still holds what they lost.
        @Test func filesCutShortAfterTheLastWriteAreWrittenAgainAtTheRunsEnd() throws {
            let folder = try TemporaryFolder([:])
            let session = folder.path + "/tabs.session"
            let journal = folder.path + "/journal"
            var configuration = RunConfiguration(workerPath: workerPath)
            configuration.loads = 6
            configuration.typingIntervalNanoseconds = 2_000_000
            configuration.browser.journalPath = journal
            let log = EventLog()
            nonisolated(unsafe) var events: [Event] = []
            log.observers.append { event in
                events.append(event)
                // The editor's audit follows the journal's last write.
                if event.name == "editor" { _ = (truncate(journal, 0), truncate(session, 0)) }
            }
            do {
                let simulation = try Simulation(configuration: configuration, content: ContentProvider(), log: log)
                simulation.browser.startSession(tabs: 3, into: try SessionStore(path: session))
                _ = try simulation.run()
            }
            #expect(events.named("file-rewritten").compactMap { $0.string("file") }.sorted() == ["journal", "session"])
            let saved = try #require(events.named("editor").last?.int("saved"))
            #expect(saved > 0)
            #expect(try InputJournal(path: journal).recovered.count == saved)
            let (restored, damage) = try SessionFile.read(session)
            #expect(damage == nil && restored.tabs.count == 3)
        }
    }
}
