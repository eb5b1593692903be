import CShim
import Foundation
import Glibc
import Testing
import TestSupport
import WireProtocol

@testable import LogAnalysis
@testable import Process
@testable import Browser
@testable import Core
@testable import Scenario
@testable import System
@testable import SupervisorTesting

/// Typing beyond what the worker can take is slowed, not lost; labels stay unique; the audit counts texts.
@Suite struct TypingWindow {
    /// A worker the editor can send to, which is no process: the editor only keeps account of it.
    func detachedWorker() throws -> Worker {
        Worker(FakeWorker(pid: 1, clock: VirtualClock()), limits: SupervisorSettings().conversationLimits)
    }

    @Test func theTypistWaitsWhileAWindowOfInputsIsUnacknowledged() throws {
        let worker = try detachedWorker()
        let editor = makeEditor()
        _ = editor.attach(worker)
        for _ in 0..<Editor.window { #expect(editor.type()) }
        #expect(editor.unsent().count == Editor.window)
        #expect(!editor.type() && !editor.type())
        #expect(editor.deferred == 2 && editor.typed == Editor.window)
        #expect(editor.applied(seq: 1, digest: documentDigest(editor.texts[0])))
        #expect(editor.type())
        #expect(editor.typed == Editor.window + 1 && editor.deferred == 2)
    }

    /// A journal salvaged after damage restores w1…w4 and w6…w53: the next word is w54, and the audit, which
    /// counts each input's own text, finds nothing lost, then exactly what was lost, doubled or never typed.
    @Test func labelsStayUniqueAfterAGapAndTheAuditCountsEachInputsText() throws {
        let folder = try TemporaryFolder([:])
        let path = folder.path + "/journal"
        let labels = Array(1...4) + Array(6...53)
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(journalRecords(labels.map { Array("w\($0) ".utf8) })))
        let editor = makeEditor(journal: try InputJournal(path: path))
        #expect(editor.restored == 52)
        #expect(editor.type())
        #expect(editor.texts.last == Array("w54 ".utf8))

        editor.final = editor.texts.joined().map { $0 }
        let whole = editor.audit()
        #expect(whole.lost == 0 && whole.duplicate == 0 && whole.intact)

        // w6 lost, w7 applied twice, w5 (never typed) applied once.
        let words = editor.texts.map { String(decoding: $0, as: UTF8.self) }.filter { $0 != "w6 " } + ["w7 ", "w5 "]
        editor.final = Array(words.joined().utf8)
        let damaged = editor.audit()
        #expect(damaged.lost == 1 && damaged.duplicate == 2 && !damaged.intact)
    }
}

extension Processes {
    @Suite struct TypingUnderLoad {
        /// The worker keeps a running digest: after a 4 MiB document, each input costs its own bytes, not the
        /// document's (a worker that re-digests the whole document takes seconds for these thousand inputs).
        @Test func aLongDocumentDoesNotSlowEachInput() throws {
            let driver = try WorkerDriver()
            _ = try driver.receive()
            let chunk = String(repeating: "x", count: pieceBytes)
            var digest = documentDigestBasis
            for _ in 0..<16 {
                try driver.send(.input(seq: 0, text: chunk))
                digest = documentDigest(chunk.utf8, from: digest)
                #expect(try driver.receive() == .inputApplied(seq: 0, digest: digest))
            }
            let start = Sys.monotonicNanoseconds()
            for seq in 1...1000 { try driver.send(.input(seq: UInt64(seq), text: "w\(seq) ")) }
            var last: FromWorker?
            for _ in 1...1000 { last = try driver.receive() }
            let elapsedMs = (Sys.monotonicNanoseconds() - start) / 1_000_000
            for seq in 1...1000 { digest = documentDigest("w\(seq) ".utf8, from: digest) }
            #expect(last == .inputApplied(seq: 1000, digest: digest))
            #expect(elapsedMs < 1000, "1000 inputs took \(elapsedMs) ms")
        }

        /// The editor's worker stops answering for 600 ms while the user types every millisecond: the typist
        /// waits at the window instead of piling up inputs, says how long it waited, and nothing is lost.
        @Test func typingBeyondWhatTheWorkerTakesIsDeferredNotLost() throws {
            var stopped = false
            let (summary, _) = try simulate({
                $0.policy = .guarded
                $0.loads = 4
                $0.dwellNanoseconds = 300_000_000
                $0.typingIntervalNanoseconds = 1_000_000
            }, content: ContentProvider()) { event in
                guard event.name == "visible", event["editor"] == .bool(true), !stopped, let pid = event.pid else { return }
                stopped = true
                kill(pid, SIGSTOP)
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.6) { kill(pid, SIGCONT) }
            }
            let editor = try #require(summary.audit)
            #expect(editor.deferred > 100)
            #expect(summary.lostInputs == 0 && summary.duplicateInputs == 0)
            #expect(editor.documentFrom == .worker && editor.intact)
        }
    }
}
