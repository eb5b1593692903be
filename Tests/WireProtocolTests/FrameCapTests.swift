import Foundation
import Glibc
import Testing
import Vocabulary
import WireProtocol

@testable import LogAnalysis
@testable import Process
@testable import Browser
@testable import Core
@testable import Scenario
@testable import SupervisorTesting

/// No frame over the protocol's cap, in either direction: large values go in pieces, and the rest is bounded.
@Suite struct FrameCap {
    let longURL = "app://local/page.html?q=" + String(repeating: "q", count: maxURLBytes)

    @Test func everyMessageKnowsItsFrameLengthBeforeItIsEncoded() {
        for message in Frames.toWorkerSamples + [.load(url: longURL, replace: false)] {
            #expect(message.frameLength == message.frame.count - 4)
        }
        for message in Frames.fromWorkerSamples + [.fetch(url: longURL, kind: .image)] {
            #expect(message.frameLength == message.frame.count - 4)
        }
    }

    /// A history of 100 URLs of 60 KiB (6 MB), restored and reported, and a 3 MB document each go in pieces that
    /// fit a frame, and come back whole through a decoder.
    @Test func largeValuesGoInPiecesThatEachFitAFrame() throws {
        let urls = (0..<historyCapacity).map { "app://local/p?n=\($0)&q=" + String(repeating: "é", count: 30_000) }
        let restore = ToWorker.restorePieces(index: 99, urls: urls)
        let text = Array(String(repeating: "w1 ", count: 1_000_000).utf8)
        let reported = FromWorker.historyPieces(index: 98, urls: urls) + FromWorker.documentPieces(text)
        #expect(restore.count > 20 && reported.count > 30)
        var restoreStream: [UInt8] = []
        for piece in restore {
            #expect(piece.limitViolation == nil)
            #expect(piece.frameLength <= pieceBytes + 64)
            piece.encode(into: &restoreStream)
        }
        var reportStream: [UInt8] = []
        for piece in reported {
            #expect(piece.limitViolation == nil)
            #expect(piece.frameLength <= pieceBytes + 64)
            piece.encode(into: &reportStream)
        }
        var workerSide = FrameDecoder<ToWorker>()
        restoreStream.withUnsafeBytes { workerSide.append($0) }
        var restored: [String] = []
        while let message = try workerSide.next() {
            switch message {
            case .restoreHistory(let index, let count, let first):
                #expect(index == 99 && count == UInt32(historyCapacity))
                restored = first
            case .historyData(let more): restored += more
            default: Issue.record("unexpected \(message)")
            }
        }
        var supervisorSide = FrameDecoder<FromWorker>()
        reportStream.withUnsafeBytes { supervisorSide.append($0) }
        var history: [String] = []
        var typed: [UInt8] = []
        while let message = try supervisorSide.next() {
            switch message {
            case .history(let index, let count, let first):
                #expect(index == 98 && count == UInt32(historyCapacity))
                history = first
            case .historyData(let more): history += more
            case .document(let length, let first):
                #expect(Int(length) == text.count)
                typed = first
            case .documentData(let more): typed += more
            default: Issue.record("unexpected \(message)")
            }
        }
        #expect(restored == urls && history == urls && typed == text)
    }

    /// An empty list is still one message, which says so: a new worker must learn that its tab has no history.
    @Test func anEmptyHistoryIsOneMessage() {
        #expect(ToWorker.restorePieces(index: 0, urls: []) == [.restoreHistory(index: 0, count: 0, urls: [])])
        #expect(FromWorker.historyPieces(index: 0, urls: []) == [.history(index: 0, count: 0, urls: [])])
    }

    /// What a sender must never send, a receiver refuses: a title or a URL over its limit, a history over the
    /// capacity.
    @Test(arguments: [
        FromWorker.didFinish(title: String(repeating: "t", count: maxTitleBytes + 1)),
        .title(id: 1, title: String(repeating: "t", count: maxTitleBytes + 1)),
        .fetch(url: "app://local/" + String(repeating: "u", count: maxURLBytes), kind: .image),
        .navigationAction(type: .linkActivated, mainFrame: true, url: "app://local/" + String(repeating: "u", count: maxURLBytes)),
        .history(index: 0, count: UInt32(historyCapacity + 1), urls: []),
        .historyData(urls: Array(repeating: "app://local/", count: historyCapacity + 1)),
    ])
    func aFieldFromTheWorkerOverItsLimitIsAWireError(message: FromWorker) {
        let violation = message.limitViolation
        #expect(violation != nil)
        var decoder = FrameDecoder<FromWorker>()
        message.frame.withUnsafeBytes { decoder.append($0) }
        #expect(throws: violation!) { try decoder.next() }
    }

    @Test(arguments: [
        ToWorker.load(url: "app://local/" + String(repeating: "u", count: maxURLBytes), replace: false),
        .restoreHistory(index: 0, count: UInt32(historyCapacity + 1), urls: []),
        .restoreHistory(index: 0, count: 1, urls: ["app://local/a", "app://local/b"]),
        .historyData(urls: ["app://local/" + String(repeating: "u", count: maxURLBytes)]),
    ])
    func aFieldToTheWorkerOverItsLimitIsAWireError(message: ToWorker) {
        let violation = message.limitViolation
        #expect(violation != nil)
        var decoder = FrameDecoder<ToWorker>()
        message.frame.withUnsafeBytes { decoder.append($0) }
        #expect(throws: violation!) { try decoder.next() }
    }

    @Test func aCutNeverEndsHalfwayThroughACharacter() {
        let bytes = Array(("a" + String(repeating: "é", count: 10)).utf8)
        #expect(utf8Boundary(in: bytes, from: 0, limit: 4) == 3)
        #expect(utf8Boundary(in: bytes, from: 1, limit: 3) == 3)
        #expect(utf8Boundary(in: bytes, from: 0, limit: 100) == bytes.count)
        #expect(utf8Boundary(in: [0x80, 0x80, 0x80], from: 0, limit: 2) == 2)
    }
}

extension Processes {
    @Suite struct FrameCapEndToEnd {
        /// The supervisor's channel refuses a message over the cap without writing a byte of it: the worker, which
        /// would take such a frame as a broken channel, goes on answering.
        @Test func theSupervisorNeverWritesAnOversizedFrame() throws {
            let driver = try WorkerDriver()
            _ = try driver.receive()
            let refusals: [ToWorker] = [
                .input(seq: 1, text: String(repeating: "x", count: maxFrameSize)),
                .load(url: "app://local/" + String(repeating: "u", count: maxURLBytes), replace: false),
            ]
            for message in refusals {
                #expect {
                    try driver.worker.channel.send(message)
                } throws: { error in
                    guard case .refused(let reason)? = error as? ChannelError else { return false }
                    return reason == message.limitViolation
                }
            }
            #expect(driver.worker.channel.pendingOutput == 0)
            try driver.send(.ping(seq: 1))
            #expect(try driver.receive() == .pong(seq: 1))
        }

        /// A tab whose 100 entries hold 1.5 MB of URLs is restored into a new worker after its first is SIGKILLed,
        /// renders, and its worker reports the same list back, both ways in pieces. Meanwhile the supervisor tries to send
        /// that worker a message over the cap: it is refused and logged, and the channel stays sound.
        @Test func aLongHistoryIsRestoredAfterAKillAndReportedBack() throws {
            let long = String(repeating: "q", count: 15_000)
            let urls = (0..<100).map { local + "page.html?n=\($0)&q=" + long }
            nonisolated(unsafe) var finished = 0
            nonisolated(unsafe) var killed: Int32?
            nonisolated(unsafe) var reported: (index: Int, urls: [String])?
            let content = ContentProvider(pages: [("page.html", page("Page"))])
            let (_, events) = try runTabs([savedTab(1, urls, visible: true)], content: content) { simulation, tab, event in
                switch event {
                case .realized:
                    simulation.loop.schedule(afterNanoseconds: 10_000_000_000) { simulation.endBrowsing() }
                case .finished(let title):
                    #expect(title == "Page")
                    finished += 1
                    guard let worker = tab.load?.view?.worker else { return }
                    if finished == 1 {
                        killed = worker.pid
                        killFromOutside(worker.pid)
                    } else {
                        simulation.supervisor.send(.input(seq: 1, text: String(repeating: "x", count: maxFrameSize)), to: worker)
                        simulation.browser.queryWorkerHistory(tab)
                    }
                case .workerHistory(let index, let urls):
                    reported = (index, urls)
                    simulation.endBrowsing()
                default: break
                }
            }
            #expect(finished == 2)
            #expect(events.named("death").first?.pid == killed && events.named("death").first?.int("signal") == 9)
            #expect(reported?.index == 99 && reported?.urls == urls)
            #expect(events.named("send-refused").map { $0.int("message") } == [15])
            #expect(events.named("protocol-violation").isEmpty)
        }

        /// An editor document over 1 MiB (restored from a journal of three 500 KB inputs) goes to the new worker
        /// and comes back whole for the audit.
        @Test func anEditorDocumentOverAFrameIsReadBackWhole() throws {
            let folder = try TemporaryFolder([:])
            let path = folder.path + "/journal"
            let texts = ["a", "b", "c"].map { Array((String(repeating: $0, count: 500_000) + " ").utf8) }
            _ = FileManager.default.createFile(atPath: path, contents: Data(journalRecords(texts)))
            let (summary, events) = try simulate({
                $0.policy = .guarded
                $0.loads = 2
                $0.dwellNanoseconds = 100_000_000
                $0.typingIntervalNanoseconds = 2_000_000
                $0.journalPath = path
            }, content: ContentProvider())
            let editor = try #require(summary.audit)
            #expect(editor.restored == 3)
            #expect(editor.documentFrom == .worker && editor.intact)
            #expect(summary.lostInputs == 0 && summary.duplicateInputs == 0)
            #expect(events.named("protocol-violation").isEmpty)
        }

        /// A 1.2 MB title is cut to the limit at the last whole character.
        @Test func aHugeTitleIsCutAtACharacterBoundary() throws {
            let title = "a" + String(repeating: "é", count: 600_000)
            let content = ContentProvider(pages: [("title.html", "<title>\(title)</title>")])
            // A 1.2 MB page on a loaded machine may take more than the tests' one second to show: it must show.
            let (summary, events) = try simulate({ $0.loads = 1; $0.blankTimeoutNanoseconds = 30_000_000_000 }, content: content)
            #expect(summary.rendered == 1)
            let shown = try #require(events.named("render").first?.string("title"))
            #expect(shown == "a" + String(repeating: "é", count: (maxTitleBytes - 1) / 2))
            #expect(events.named("protocol-violation").isEmpty)
        }

        /// A navigation to a URL over the limit is refused before it starts, and a page that names one (a link,
        /// an image) has it ignored by its worker: nothing is fetched, nothing breaks.
        @Test func aURLOverTheLimitIsRefusedAndIgnored() throws {
            let huge = local + "page.html?q=" + String(repeating: "q", count: maxURLBytes)
            let hostile = "<title>Hostile</title><img src=\"\(huge)\"><meta name=\"x-navigate\" content=\"url=\(huge)\">"
            let content = ContentProvider(pages: [("page.html", page("Page")), ("hostile.html", hostile)])
            nonisolated(unsafe) var titles: [String] = []
            let (simulation, events) = try runTabs([savedTab(1, [local + "page.html"], visible: true)], content: content) {
                simulation, tab, event in
                switch event {
                case .finished(let title):
                    titles.append(title)
                    if titles.count == 1 {
                        simulation.browser.navigate(tab, to: huge, type: .linkActivated)
                        simulation.browser.navigate(tab, to: local + "hostile.html", type: .linkActivated)
                    } else {
                        // A round trip after the hostile page: its worker is still there to answer.
                        simulation.browser.queryWorkerHistory(tab)
                        simulation.loop.schedule(afterNanoseconds: 10_000_000_000) { simulation.endBrowsing() }
                    }
                case .workerHistory: simulation.endBrowsing()
                default: break
                }
            }
            #expect(titles == ["Page", "Hostile"])
            #expect(events.named("death").allSatisfy { $0.int("code") == 0 })
            let refusal = events.named("navigation-decision").first { $0.string("url") == huge }
            #expect(refusal?.string("decision") == "cancel")
            #expect(!events.named("fetch").contains { $0.string("url")!.utf8.count > maxURLBytes })
            #expect(simulation.browser.tabs[0].history.entries.map(\.url) == [local + "page.html", local + "hostile.html"])
            #expect(events.named("protocol-violation").isEmpty)
        }
    }
}
