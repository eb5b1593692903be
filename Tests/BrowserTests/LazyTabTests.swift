import Testing
import WireProtocol

@testable import LogAnalysis
@testable import Browser
@testable import Core
@testable import Scenario
@testable import System
@testable import SupervisorTesting

/// Restored tabs are checked, not decoded: their strings are built when their history is first read.
@Suite struct LazyTabTests {
    static let session = Session.generated(tabs: 4, pages: ["app://local/a.html", "app://local/é.html"], seed: 7)

    @Test func checkingAgreesWithDecodingOnEveryCutOfTheFile() {
        let bytes = SessionFile.encode(Self.session)
        for end in 0...bytes.count {
            let cut = Array(bytes[..<end])
            let (records, checkedDamage) = SessionFile.decodeRecords(cut)
            let (decoded, damage) = SessionFile.decode(cut)
            #expect(records.records.map(\.saved) == decoded.tabs, "cut at \(end)")
            #expect(checkedDamage == damage, "cut at \(end)")
        }
    }

    @Test func aRecordThatBreaksABoundIsSkippedWhenCheckedNotWhenRead() {
        var bytes = SessionFile.encode(Self.session)
        let header = SessionFile.assemble(journal: nil, records: []).count
        // The second tab's first URL length, made to run past its record; the record's checksum is redone so
        // that only the walk over its lengths can find it.
        let first = SessionFile.record(for: Self.session.tabs[0]).count
        let second = header + first
        let urlLength = second + 8 + 17
        bytes[urlLength + 3] = 0x7F
        let payload = Array(bytes[(second + 8)..<(second + SessionFile.record(for: Self.session.tabs[1]).count)])
        let checksum = crc32(payload, from: crc32(bytes[second..<(second + 4)]))
        for i in 0..<4 { bytes[second + 4 + i] = UInt8(truncatingIfNeeded: checksum >> (8 * i)) }
        let (records, damage) = SessionFile.decodeRecords(bytes)
        #expect(records.records.map(\.id) == [1, 3, 4])
        #expect(damage?.skippedTabs == 1)
    }

    @Test func aRestoredTabKeepsItsBytesUntilItChanges() {
        let (records, _) = SessionFile.decodeRecords(SessionFile.encode(Self.session))
        let tab = Tab(records.records[1])
        // Untouched, it saves the very bytes it was restored from.
        #expect(tab.record.map(Array.init) == SessionFile.record(for: Self.session.tabs[1]))
        #expect(tab.history == Self.session.tabs[1].history)
        #expect(tab.record != nil)
        tab.visible.toggle()
        #expect(tab.record == nil)
        #expect(tab.history == Self.session.tabs[1].history)
        tab.history.setTitle("changed")
        #expect(tab.title == "changed")
    }

    /// An error page saved by an earlier launch carries that launch's key; restored, it carries this one's, so
    /// that reloading it still retries the page it stands for.
    @Test func errorPagesOfAnEarlierLaunchAreGivenThisOnesKey() throws {
        let failed = "app://local/x.html"
        let page = InternalURL.errorPage(for: failed, code: 404, key: LaunchKey())
        let history = BackForwardList(entries: [HistoryEntry(url: "app://local/a.html"), HistoryEntry(url: page)], index: 1)
        let saved = Session(tabs: [SavedTab(id: 1, history: history, visible: true)])
        let simulation = try Simulation(configuration: RunConfiguration(workerPath: workerPath), content: ContentProvider(), log: EventLog())
        simulation.browser.restore(SessionFile.decodeRecords(SessionFile.encode(saved)).records, into: SessionStore(readOnly: "/nonexistent"))
        #expect(simulation.browser.tabs[0].url == InternalURL.errorPage(for: failed, code: 404, key: simulation.browser.launchKey))
        #expect(simulation.browser.errorPageTarget(simulation.browser.tabs[0].url ?? "") == failed)
    }
}
