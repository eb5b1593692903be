import Foundation
import Glibc
import Testing

@testable import SupervisorKit

/// Seed 001: typed input is never lost, and never applied twice, whatever dies.
@Suite struct InputJournalFile {
    func records(_ texts: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (i, text) in texts.enumerated() {
            var header: [UInt8] = []
            withUnsafeBytes(of: UInt32(text.utf8.count).littleEndian) { header += $0 }
            withUnsafeBytes(of: UInt64(i + 1).littleEndian) { header += $0 }
            let crc = crc32(header + Array(text.utf8))
            bytes += header
            withUnsafeBytes(of: crc.littleEndian) { bytes += $0 }
            bytes += Array(text.utf8)
        }
        return bytes
    }

    /// A record cut short, or whole but with a flipped byte, is the torn tail: dropped from the file, never
    /// replayed, and the records before it are kept.
    @Test(arguments: [("truncated", 3), ("corrupt", 0)])
    func aTornLastRecordIsDroppedByItsChecksum(kind: String, cut: Int) throws {
        let folder = try TemporaryFolder([:])
        let path = folder.path + "/journal"
        var bytes = records(["w1 ", "w2 ", "w3 "])
        let good = records(["w1 ", "w2 "]).count
        if cut > 0 { bytes.removeLast(cut) } else { bytes[bytes.count - 2] ^= 0x20 }
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let journal = try InputJournal(path: path)
        #expect(journal.recovered.map { String(decoding: $0.text, as: UTF8.self) } == ["w1 ", "w2 "])
        #expect(journal.tornBytes == bytes.count - good)
        journal.append(seq: 3, text: Array("w3 ".utf8))
        try journal.sync()
        #expect(try InputJournal(path: path).recovered.count == 3)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(records(["w1 ", "w2 ", "w3 "])))
    }
}

extension Processes {
    @Suite struct TypedInput {
        /// The editor's worker is SIGKILLed again and again mid-typing: each new worker gets the saved document
        /// and the unacknowledged inputs, and the final document holds every input exactly once.
        @Test(arguments: [Policy.guarded, .rebuild])
        func typedInputSurvivesEveryWorkerDeath(policy: Policy) throws {
            var editorPID: Int32?
            var kills = 0
            let (summary, events) = try runHost({
                $0.policy = policy
                $0.policy.maxRecoveries = .max
                $0.loads = 12
                $0.dwellNanoseconds = 40_000_000
                $0.typingIntervalNanoseconds = 1_000_000
            }, content: ContentProvider()) { event in
                if event.name == "visible", event["editor"] != nil { editorPID = event.pid }
                if event.name == "load-end", let pid = editorPID {
                    editorPID = nil
                    kills += 1
                    kill(pid, SIGKILL)
                }
            }
            let editor = try #require(summary.editor)
            #expect(kills >= 4)
            #expect(editor.int("typed")! > 200)
            #expect(editor.int("replayed")! > 0)
            #expect(summary.lostInputs == 0 && summary.duplicateInputs == 0)
            #expect(editor["intact"] == .bool(true) && editor.string("documentFrom") == "worker")
            #expect(events.named("death").filter { $0.string("status") == "killed" }.count == kills)
        }

        /// A stopped editor worker owes acknowledgements: it is found unresponsive, killed and replaced, and no
        /// input is lost.
        @Test func aStoppedEditorWorkerIsUnresponsiveAndItsInputsReplayed() throws {
            var stopped: Int32?
            let (summary, events) = try runHost({
                $0.policy = .guarded
                $0.loads = 4
                $0.dwellNanoseconds = 250_000_000
                $0.typingIntervalNanoseconds = 2_000_000
                $0.hangTimeoutNanoseconds = 200_000_000
            }, content: ContentProvider()) { event in
                if event.name == "visible", event["editor"] != nil, stopped == nil, let pid = event.pid {
                    stopped = pid
                    kill(pid, SIGSTOP)
                }
            }
            let death = try #require(events.named("death").first { $0.pid == stopped })
            #expect(death.string("status") == "unresponsive")
            #expect(summary.lostInputs == 0 && summary.duplicateInputs == 0)
            #expect(summary.editor?.int("replayed") ?? 0 > 0)
        }

        /// The supervisor itself is SIGKILLed mid-typing, and a torn record is left at the journal's end: the next
        /// run restores every saved input, drops the torn bytes, and loses nothing it restored.
        @Test func aSupervisorKilledMidTypingRestartsFromItsJournal() throws {
            let folder = try TemporaryFolder([:])
            let journal = folder.path + "/journal"
            let first = try BackgroundSupervisor(
                ["run", "--policy", "guarded", "--loads", "1000000", "--dwell", "20", "--typing", "500", "--journal", journal],
                folder: folder)
            let size = { (try? FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) ?? 0 }
            #expect(eventually(within: 20) { size() > 100 * 20 })
            let orphans = first.liveChildren().map(\.pid)
            kill(first.pid, SIGKILL)
            _ = first.wait()
            #expect(reapOrphans(orphans))
            let saved = try InputJournal(path: journal).recovered
            #expect(saved.count > 100)
            let torn: [UInt8] = [9, 0, 0, 0, 0xFF, 0xFF]
            let handle = try #require(FileHandle(forWritingAtPath: journal))
            handle.seekToEndOfFile()
            handle.write(Data(torn))
            try handle.close()

            let second = try runSupervisor([
                "run", "--policy", "guarded", "--loads", "4", "--dwell", "50", "--typing", "500", "--journal", journal, "--json",
            ])
            #expect(second.status == 0)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
            let inputs = try #require(json["inputs"] as? [String: Int])
            #expect(inputs["restored"] == saved.count)
            #expect(inputs["tornBytesDropped"] == torn.count)
            #expect(inputs["typed"]! > saved.count)
            #expect(json["lostInputs"] as? Int == 0 && json["duplicateInputs"] as? Int == 0)
            let after = try InputJournal(path: journal).recovered
            #expect(after.prefix(saved.count).map(\.text) == saved.map(\.text))
            #expect(after.count == inputs["typed"])
        }
    }
}
