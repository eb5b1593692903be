import Foundation
import Glibc
import Testing
import WireProtocol

@testable import Events
@testable import LogAnalysis
@testable import Browser
@testable import Core
@testable import Scenario
@testable import System
@testable import SupervisorTesting

/// A save appends only the tabs that changed, off the event loop, and is read whole or not at all.
@Suite struct SessionSaves {
    static let base = SessionFileTests.sample

    /// The sample, then a save that changes tab 2 and moves the journal, then one that adds a fourth tab.
    static func saved() -> (bytes: [UInt8], first: Int, afterFirst: Session, afterSecond: Session) {
        var bytes = SessionFile.encode(base)
        var first = base
        first.tabs[1].history.push(HistoryEntry(url: "app://local/new.html", title: "New"))
        first.journal = JournalPosition(path: "/j", records: 7)
        bytes += SessionFile.save(tabCount: 3, journal: first.journal, changes: [(1, SessionFile.record(for: first.tabs[1])[...])])
        let end = bytes.count
        var second = first
        second.tabs.append(SavedTab(id: 9, history: BackForwardList(entries: [HistoryEntry(url: "app://local/9")], index: 0), visible: false))
        bytes += SessionFile.save(tabCount: 4, journal: first.journal, changes: [(3, SessionFile.record(for: second.tabs[3])[...])])
        return (bytes, end, first, second)
    }

    @Test func savesAreAppliedInOrder() {
        let (bytes, _, _, second) = Self.saved()
        let (session, damage) = SessionFile.decode(bytes)
        #expect(damage == nil)
        #expect(session == second)
    }

    /// A crash at any byte of the last save leaves the session the save before it made, and says so.
    @Test func aTornLastSaveIsIgnoredAtEveryCut() {
        let (bytes, end, first, _) = Self.saved()
        for cut in end..<bytes.count {
            let (session, damage) = SessionFile.decode(Array(bytes[..<cut]))
            #expect(session == first, "cut at \(cut)")
            #expect(damage?.tornSaveBytes == (cut == end ? nil : cut - end), "cut at \(cut)")
            if cut > end { #expect(damage?.description.contains("its last save was cut short") == true) }
        }
        // A save whose extent reached the disk before its bytes did: zeros, or garbage where it ends.
        var zeros = Array(bytes[..<end]) + [UInt8](repeating: 0, count: bytes.count - end)
        #expect(SessionFile.decode(zeros).session == first && SessionFile.decode(zeros).damage?.tornSaveBytes == bytes.count - end)
        zeros = bytes
        zeros[bytes.count - 10] ^= 0xFF
        #expect(SessionFile.decode(zeros).session == first && SessionFile.decode(zeros).damage?.tornSaveBytes == bytes.count - end)
    }

    /// Damage in a save with another after it is not a crash: the saves before it stand, the rest is reported.
    @Test func aDamagedSaveFollowedByAnotherIsDamage() {
        var (bytes, end, _, _) = Self.saved()
        bytes[end - 10] ^= 0xFF
        let (session, damage) = SessionFile.decode(bytes)
        #expect(session == Self.base)
        #expect(damage?.tornSaveBytes == 0 && damage?.trailingBytes == bytes.count - SessionFile.encode(Self.base).count)
        #expect(damage?.description.contains("damaged bytes after the last intact save were ignored") == true)
    }

    /// A save whose checksum passes but whose tab count names tabs it holds no record of is damage: its count
    /// never sizes what the decoder allocates (see `SessionCLI` for four billion of them), and the warning says
    /// what was ignored rather than nothing.
    @Test func aSaveCountingTabsItDoesNotHoldIsDamage() {
        let whole = SessionFile.encode(Self.base)
        let added = SavedTab(id: 9, history: BackForwardList(entries: [HistoryEntry(url: "app://local/9")], index: 0), visible: false)
        let record = SessionFile.record(for: added)[...]
        // A thousand tabs more and no record, then two more and one record twice.
        for save in [
            SessionFile.save(tabCount: 1_003, journal: Self.base.journal, changes: []),
            SessionFile.save(tabCount: 5, journal: Self.base.journal, changes: [(3, record), (3, record)]),
        ] {
            let (session, damage) = SessionFile.decode(whole + save)
            #expect(session == Self.base)
            #expect(damage?.trailingBytes == save.count && damage?.lostTabs == 0)
            #expect(damage?.description == "\(save.count) damaged bytes after the last intact save were ignored (from byte \(whole.count))")
        }
    }

    /// Files written before saves were appended (version 1) still read.
    @Test func aVersionOneFileStillReads() {
        var bytes = SessionFile.encode(Self.base)
        let headerEnd = SessionFile.header(tabCount: 3, journal: Self.base.journal).count
        bytes[8] = 1
        let crc = crc32(bytes[..<(headerEnd - 4)])
        for i in 0..<4 { bytes[headerEnd - 4 + i] = UInt8(truncatingIfNeeded: crc >> (8 * i)) }
        #expect(SessionFile.decode(bytes) == (Self.base, nil))
    }

    /// The digest kept up to date one tab at a time is the digest of the tabs as they are.
    @Test func theRunningDigestIsTheDigestOfTheTabsAsTheyAre() {
        var records = Self.base.tabs.map { SessionFile.record(for: $0)[...] }
        var digest = SessionDigest(records)
        var changed = Self.base.tabs[0]
        changed.history.push(HistoryEntry(url: "app://local/x"))
        records[0] = SessionFile.record(for: changed)[...]
        digest.set(records[0], at: 0)
        records.append(records[2])
        digest.set(records[3], at: 3)
        #expect(digest.value == SessionDigest(records).value)
        records.swapAt(0, 1)
        #expect(digest.value != SessionDigest(records).value)
    }
}

extension Processes {
    @Suite struct SessionSaving {
        /// A session of 10,000 tabs browsed for 40 navigations: every save after the restore appends only the
        /// tabs that changed (a few hundred bytes, not the 2 MB file), and the file reads back as last saved. (CI
        /// browses a session of 1,000,000 tabs the same way.)
        @Test func aSaveWritesOnlyTheTabsThatChanged() throws {
            let folder = try TemporaryFolder([:])
            let path = folder.path + "/big.session"
            try SessionFile.write(
                SessionFile.encode(Session.generated(tabs: 10_000, pages: ContentProvider().pages, seed: 4)), to: path)
            let before = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            let log = folder.path + "/run.jsonl"
            let result = try runSupervisorBounded(["run", "--session", path, "--loads", "40", "--log", log])
            #expect(result.status == 0, "\(result.stderr)")
            let saves = logEvents(log).filter { $0["event"] as? String == "session-saved" }
            // Saves coalesce while one is on the disk: beside three CPU-bound processes, 40 navigations made 3.
            #expect(saves.count >= 2)
            #expect(saves.allSatisfy { $0["whole"] as? Bool == false && $0["bytes"] as? Int ?? .max < 4096 })
            let after = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            #expect(after - before == saves.reduce(0) { $0 + ($1["bytes"] as? Int ?? 0) })
            let restored = try runSupervisorBounded(["run", "--session", path, "--loads", "0", "--log", log])
            #expect(restored.status == 0)
            let digest = logEvents(log).first { $0["event"] as? String == "session-restored" }?["digest"] as? String
            #expect(digest == saves.last?["digest"] as? String)
        }

        /// A new session is written whole once, then appended to; once the saves outgrow the records, the file is
        /// written whole again beside itself, and reads back as last saved with nothing left over. (90 loads: on a
        /// slow disk, saves coalesce, and 30 once gave too few appends to outgrow the file.)
        @Test func appendedSavesAreFoldedIntoAWholeFileOnceTheyOutgrowIt() throws {
            let folder = try TemporaryFolder([:])
            let path = folder.path + "/s"
            let (_, events) = try runSession(path) { $0.sessionRewriteGrowth = 0; $0.loads = 90 }
            let saves = events.named("session-saved")
            #expect(saves.first?["whole"] == .bool(true))
            #expect(saves.dropFirst().contains { $0["whole"] == .bool(false) })
            #expect(saves.dropFirst().contains { $0["whole"] == .bool(true) })
            let (session, damage) = try SessionFile.read(path)
            #expect(damage == nil && session.tabs.count == 3)
            let restored = SessionDigest(SessionFile.decodeRecords(try InputFile(path).readAll(limit: 1 << 20)).records.records.map(\.bytes))
            #expect(restored.value == saves.last?.string("digest"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["s"])
        }

        /// Browses a new session at `path` in a simulation in this process.
        func runSession(_ path: String, _ configure: (inout RunConfiguration) -> Void) throws -> (Simulation, [Event]) {
            var configuration = RunConfiguration(workerPath: workerPath)
            configure(&configuration)
            let log = EventLog()
            nonisolated(unsafe) var events: [Event] = []
            log.observers.append { events.append($0) }
            let simulation = try Simulation(configuration: configuration, content: ContentProvider(), log: log)
            simulation.browser.startSession(tabs: 3, into: try SessionStore(path: path))
            _ = try simulation.run()
            return (simulation, events)
        }
    }
}

/// The disk queue runs a job that waits on the disk while the event loop goes on with its own work.
@Suite struct DiskQueueTests {
    @Test func theLoopRunsWhileAJobBlocks() throws {
        let loop = try EventLoop()
        let queue = try DiskQueue(loop: loop)
        var gate: [Int32] = [-1, -1]
        #expect(pipe(&gate) == 0)
        defer { close(gate[0]); close(gate[1]) }
        let reader = gate[0]
        nonisolated(unsafe) var order: [String] = []
        queue.submit({
            var byte: UInt8 = 0
            _ = read(reader, &byte, 1)
        }) { order.append("job done") }
        // The loop fires a timer while the job is still blocked, and only then lets the job go on.
        loop.schedule(afterNanoseconds: 1_000_000) {
            order.append("timer")
            var byte: UInt8 = 1
            _ = write(gate[1], &byte, 1)
        }
        try loop.run(until: { !queue.isBusy && order.count == 2 })
        #expect(order == ["timer", "job done"])
    }
}
