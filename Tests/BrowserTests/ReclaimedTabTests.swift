import Foundation
import Glibc
import Testing
import TestSupport
import WireProtocol

@testable import Browser
@testable import Core
@testable import Events
@testable import System
@testable import SupervisorTesting

/// Workers taken back after the supervisor's restart, as the browser places them (issue 34), in virtual time with
/// fake workers: a worker that tells the truth is adopted into its tab, which shows its page with nothing loaded;
/// one that lies is killed, not adopted, and its tab is recovered as after any death, by a new worker.
@Suite struct ReclaimedTabs {
    static let first = ["app://local/a.html", "app://local/b.html"]
    static let second = ["app://local/c.html", "app://local/d.html", "app://local/e.html"]

    /// A worker taken back that says it shows `urls` at `index`: its resync answer, then its list when asked.
    static func held(pid: Int32, _ urls: [String], at index: Int, clock: VirtualClock) -> FakeWorker {
        let worker = FakeWorker(pid: pid, clock: clock)
        worker.resync = { generation, worker in
            worker.say(.resynced(
                generation: generation, url: urls[index], title: "held \(pid)", finished: true,
                historyIndex: UInt32(index), historyCount: UInt32(urls.count), inputSeq: 0, digest: documentDigestBasis))
        }
        worker.script = { message, worker in
            if case .historyQuery = message {
                worker.say(.history(index: UInt32(index), count: UInt32(urls.count), urls: urls))
            } else {
                FakeWorker.healthy(message, worker)
            }
        }
        return worker
    }

    @Test func aLyingWorkerIsKilledAndItsTabRecoveredWhileAnHonestOneIsAdopted() throws {
        let clock = VirtualClock()
        let launcher = FakeLauncher(clock: clock)
        var settings = SupervisorSettings()
        settings.policy = .guarded
        settings.policy.spareWorkers = 0
        let log = EventLog()
        var events: [Event] = []
        log.observers.append { events.append($0) }
        let supervisor = Supervisor(settings: settings, clock: clock, launcher: launcher, log: log)
        let browser = try Browser(
            supervisor: supervisor, settings: BrowserSettings(), content: ContentProvider(), loop: EventLoop(),
            editor: false)
        let saved = [savedTab(1, Self.first, visible: true), savedTab(2, Self.second, index: 1)]
        browser.restore(
            SessionFile.decodeRecords(SessionFile.encode(Session(tabs: saved))).records,
            into: SessionStore(readOnly: "/nonexistent/session"))

        // The first tells the truth; the second claims tab 2's list, but at its last entry, where the session
        // saved the one before: a state the session never had.
        let honest = Self.held(pid: 501, Self.first, at: 1, clock: clock)
        let liar = Self.held(pid: 502, Self.second, at: 2, clock: clock)
        var settled = false
        supervisor.reclaimsSettled = { settled = true }
        supervisor.reclaim(honest, generation: 2)
        supervisor.reclaim(liar, generation: 2)
        clock.advance(by: 5_000_000)
        #expect(settled)

        let (tab1, tab2) = (browser.tabs[0], browser.tabs[1])
        #expect(tab1.realized && tab1.load?.view?.worker?.pid == 501 && tab1.load?.view?.title == "held 501")
        #expect(honest.received == [.historyQuery])
        #expect(events.named("visible").first?.view == tab1.load?.view?.id)
        // The liar: refused for what it said, killed by the supervisor, its death logged; its tab left unrealized.
        #expect(liar.sent?.signal == SIGKILL && !tab2.realized)
        #expect(events.named("adoption-refused").first?.pid == 502)
        #expect(events.named("adoption-refused").first?.string("reason") == "no saved tab has its list")
        #expect(events.named("death").contains { $0.pid == 502 && $0.string("status") == "protocol-violation" })

        // Recovered: shown, its tab gets a new worker, which restores the saved list and renders its entry.
        browser.show(tab2)
        clock.advance(by: 5_000_000)
        let fresh = try #require(launcher.launched.first)
        #expect(fresh.received.first == .restoreHistory(index: 1, count: 3, urls: Self.second))
        #expect(tab2.load?.view?.worker?.pid == fresh.pid && tab2.load?.view?.title == "Page")
        #expect(events.named("tab-realized").map { $0.string("reason") } == ["adopted", "shown"])
    }

    /// A browser whose editor restored `texts` from a journal, on a virtual clock with fake workers.
    static func editorBrowser(_ texts: [String], clock: VirtualClock) throws -> (Browser, Supervisor, TemporaryFolder) {
        let folder = try TemporaryFolder([:])
        let path = folder.path + "/journal"
        let records = journalRecords(texts.map { Array($0.utf8) })
        #expect(FileManager.default.createFile(atPath: path, contents: Data(records)))
        var settings = SupervisorSettings()
        settings.policy = .guarded
        settings.policy.spareWorkers = 0
        let launcher = FakeLauncher(clock: clock)
        let supervisor = Supervisor(settings: settings, clock: clock, launcher: launcher, log: EventLog())
        var browserSettings = BrowserSettings()
        browserSettings.journalPath = path
        let browser = try Browser(
            supervisor: supervisor, settings: browserSettings, content: ContentProvider(), loop: EventLoop(),
            editor: true)
        return (browser, supervisor, folder)
    }

    /// The editor's worker taken back with the document as the journal holds it: adopted, and sent nothing of
    /// it again; what is typed next goes to it. One that applied an input the journal never saved is refused.
    @Test(arguments: [(3, true), (4, false)])
    func theEditorsWorkerIsAdoptedOnlyWithTheJournalsDocument(applied: Int, adopted: Bool) throws {
        let clock = VirtualClock()
        let texts = ["w1 ", "w2 ", "w3 ", "w4 "]
        let (browser, supervisor, _) = try Self.editorBrowser(Array(texts.prefix(3)), clock: clock)
        let editor = try #require(browser.editor)
        let held = FakeWorker(pid: 700, clock: clock)
        let document = documentDigest(Array(texts.prefix(applied).joined().utf8))
        held.resync = { generation, worker in
            worker.say(.resynced(
                generation: generation, url: ContentProvider.editorURL, title: "Editor", finished: true,
                historyIndex: 0, historyCount: 1, inputSeq: UInt64(applied), digest: document))
        }
        held.script = { message, worker in
            guard case .historyQuery = message else { return }
            worker.say(.history(index: 0, count: 1, urls: [ContentProvider.editorURL]))
        }
        supervisor.reclaim(held, generation: 2)
        clock.advance(by: 5_000_000)
        #expect((editor.worker?.pid == 700) == adopted)
        #expect(held.received == [.historyQuery] && (held.sent?.signal == SIGKILL) == !adopted)
        guard adopted else { return }
        browser.type()
        #expect(held.received.last.map { if case .input(4, _) = $0 { true } else { false } } == true)
        #expect(editor.replayed == 0)
    }
}
