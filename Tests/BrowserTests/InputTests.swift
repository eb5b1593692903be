import Foundation
import Glibc
import Testing

@testable import Core
@testable import LogAnalysis
@testable import Browser
@testable import Scenario
@testable import System
import WireProtocol
@testable import SupervisorTesting

/// Seed 001: typed input is never lost, and never applied twice, whatever dies.
@Suite struct InputJournalFile {
    static func words(_ range: ClosedRange<Int>) -> [String] { range.map { "w\($0) " } }

    func texts(_ journal: InputJournal) -> [String] { journal.recovered.map { String(decoding: $0.text, as: UTF8.self) } }

    /// A record cut short, or whole but with a flipped byte, that no `synced` mark vouches for is the torn tail of
    /// a write that never finished: dropped from the file, never replayed, and the records before it are kept.
    @Test(arguments: [("truncated", 3), ("corrupt", 0)])
    func aTornLastRecordIsDroppedByItsChecksum(kind: String, cut: Int) throws {
        let folder = try TemporaryFolder([:])
        let path = folder.path + "/journal"
        let good = journalBytes([["w1 ", "w2 "]])
        var bytes = good
        InputJournal.appendRecord(seq: 3, text: Array("w3 ".utf8), to: &bytes)
        if cut > 0 { bytes.removeLast(cut) } else { bytes[bytes.count - 2] ^= 0x20 }
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        do {
            let journal = try InputJournal(path: path)
            #expect(texts(journal) == ["w1 ", "w2 "])
            #expect(journal.tornBytes == bytes.count - good.count)
            journal.append(seq: 3, text: Array("w3 ".utf8))
            #expect(try journal.sync(inputs: ["w1 ", "w2 ", "w3 "].map { Array($0.utf8) }) == nil)
        }
        #expect(try texts(InputJournal(path: path)) == ["w1 ", "w2 ", "w3 "])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(journalBytes([["w1 ", "w2 "], ["w3 "]])))
    }

    /// A crash can leave a group's later bytes on the disk and its earlier ones not: a damaged record followed by an
    /// intact one is still a torn tail when no `synced` mark vouches for either.
    @Test func aTornGroupWithIntactRecordsAfterItsDamageIsStillATail() throws {
        let folder = try TemporaryFolder([:])
        let path = folder.path + "/journal"
        let good = journalBytes([["w1 ", "w2 "]])
        var bytes = good
        for (seq, text) in [(3, "w3 "), (4, "w4 ")] { InputJournal.appendRecord(seq: UInt64(seq), text: Array(text.utf8), to: &bytes) }
        bytes[good.count + 17] ^= 0xFF
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let journal = try InputJournal(path: path)
        #expect(texts(journal) == ["w1 ", "w2 "])
        #expect(journal.tornBytes == bytes.count - good.count)
    }

    /// The case: one flipped byte in input 5 of 53, each synced on its own. Everything after it was on
    /// the disk, so cutting there would delete 48 saved inputs: the journal is refused, byte for byte as it was;
    /// told to salvage, the run keeps the 52 intact inputs and rewrites the journal without the damage.
    @Test func damageInSavedInputsIsRefusedOrSalvagedNeverCut() throws {
        let folder = try TemporaryFolder([:])
        let path = folder.path + "/journal"
        var bytes = journalBytes(Self.words(1...53).map { [$0] })
        let fifth = journalBytes(Self.words(1...4).map { [$0] }).count
        bytes[fifth + 17] ^= 0x01
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))

        let refused = #expect(throws: FileError.self) { try InputJournal(path: path) }
        #expect(refused?.description.contains("damaged at byte \(fifth) (after input 4)") == true)
        #expect(refused?.description.contains("48 intact inputs follow and 1 input cannot be read") == true)
        #expect(refused?.description.contains("--salvage-journal") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))

        let kept = Self.words(1...4) + Self.words(6...53)
        do {
            let salvaged = try InputJournal(path: path, salvage: true)
            #expect(texts(salvaged) == kept)
            #expect(salvaged.recovered.map(\.seq) == Array(1...52))
            #expect(salvaged.salvaged == JournalDamage(offset: fifth, lastIntactSeq: 4, intactAfter: 48, lost: 1))
        }
        #expect(try texts(InputJournal(path: path)) == kept)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["journal"])
    }

    /// Two MiB of damage a mark vouches for, crafted so that every fourth offset claims a 528 KiB record: the
    /// salvage that words the error checks each claim in constant steps, running the CRC over each byte at most
    /// once. It ran it over every claim that fits (16 s of CPU per MiB): here some 390,000 claims, 210 GB, far
    /// past the time limit; now a pass over 2 MiB.
    @Test(.timeLimit(.minutes(1))) func wordingTheDamageOfACraftedJournalIsLinearWork() throws {
        var bytes = journalBytes([["w1 "]])
        let damaged = bytes.count
        for _ in 0..<(1 << 19) { bytes += [0x41, 0x41, 8, 0] }
        InputJournal.appendSyncedMark(seq: 1_000, to: &bytes)
        let scan = JournalScan(bytes)
        #expect(scan.damage == JournalDamage(offset: damaged, lastIntactSeq: 1, intactAfter: 0, lost: 0))
    }

    /// The salvage finds what trying every offset with a CRC over all it claims finds, in damaged journals of
    /// every kind: bytes flipped, stretches overwritten, records planted inside the damage, the end cut.
    @Test func theSalvageKeepsWhatCheckingEveryOffsetWholeKeeps() {
        var random = TestRandom(seed: 4)
        var salvaged = 0
        for _ in 0..<300 {
            var bytes = journalBytes((0..<random.next(6)).map { _ in (0..<(1 + random.next(4))).map { _ in "w\(random.next(99)) " } })
            for _ in 0..<random.next(4) {
                let at = InputJournal.headerSize + random.next(max(1, bytes.count - InputJournal.headerSize))
                switch random.next(4) {
                case 0: bytes[min(at, bytes.count - 1)] ^= UInt8(1 + random.next(255))
                case 1:
                    for i in at..<min(bytes.count, at + random.next(40)) { bytes[i] = UInt8(random.next(256)) }
                case 2:
                    var planted: [UInt8] = []
                    InputJournal.appendRecord(seq: UInt64(random.next(30)), text: Array("p\(random.next(9))".utf8), to: &planted)
                    bytes.insert(contentsOf: planted, at: min(at, bytes.count))
                default: bytes.removeLast(random.next(min(20, bytes.count - InputJournal.headerSize) + 1))
                }
            }
            InputJournal.appendSyncedMark(seq: 40, to: &bytes)
            let scan = JournalScan(bytes)
            guard let damage = scan.damage else { continue }
            let reference = Self.salvagedCheckingEveryOffsetWhole(bytes, from: damage.offset, lastSeq: damage.lastIntactSeq)
            #expect(scan.records(afterDamage: damage) == scan.recovered.map(\.text) + reference.records)
            #expect(damage.intactAfter == reference.records.count && damage.lost == reference.lost)
            salvaged += reference.records.count
        }
        #expect(salvaged > 100)
    }

    /// The salvage as first written, a CRC over the whole claim at every offset: the reference for the one above.
    static func salvagedCheckingEveryOffsetWhole(_ bytes: [UInt8], from offset: Int, lastSeq: UInt64) -> (records: [[UInt8]], lost: Int) {
        func integer<T: FixedWidthInteger>(_ at: Int, _: T.Type) -> T {
            (0..<MemoryLayout<T>.size).reduce(T.zero) { $0 | T(bytes[at + $1]) << (8 * $1) }
        }
        var records: [[UInt8]] = []
        var lost = 0
        var last = lastSeq
        var at = offset + 1
        while at + 16 <= bytes.count {
            let length = integer(at, UInt32.self)
            let seq = integer(at + 4, UInt64.self)
            let head = crc32(bytes[at..<(at + 12)])
            if length == UInt32.max, head == integer(at + 12, UInt32.self) {
                at += 16
            } else if length != UInt32.max, length <= InputJournal.maxRecord, Int(length) <= bytes.count - at - 16, seq > last,
                crc32(bytes[(at + 16)..<(at + 16 + Int(length))], from: head) == integer(at + 12, UInt32.self)
            {
                lost = Int(clamping: UInt64(lost) + min(seq - last - 1, UInt64(Int.max)))
                records.append(Array(bytes[(at + 16)..<(at + 16 + Int(length))]))
                last = seq
                at += 16 + Int(length)
            } else {
                at += 1
            }
        }
        return (records, lost)
    }

    /// A file that is not a journal is never emptied or written: `--journal notes.txt` must not destroy notes. An
    /// empty file holds nothing to lose and becomes a journal.
    @Test func aFileThatIsNotAJournalIsRefusedAndKept() throws {
        let folder = try TemporaryFolder(["notes.txt": "my notes", "empty": ""])
        let error = #expect(throws: FileError.self) { try InputJournal(path: folder.path + "/notes.txt") }
        #expect(error?.description == "cannot use '\(folder.path)/notes.txt': it is not an input journal; move it away or name another file")
        #expect(try String(contentsOfFile: folder.path + "/notes.txt", encoding: .utf8) == "my notes")
        #expect(try InputJournal(path: folder.path + "/empty").recovered.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/empty")) == Data(journalBytes([])))
    }

    /// Nothing that is not a regular file is opened, and nothing larger than a journal can be is read: a FIFO
    /// would block forever, /dev/zero would be read until memory runs out, and a 3 GB sparse file too.
    @Test func fifosDevicesAndHugeFilesAreRefusedAtOnce() throws {
        let folder = try TemporaryFolder([:])
        #expect(mkfifo(folder.path + "/fifo", 0o600) == 0)
        let fifo = #expect(throws: FileError.self) { try InputJournal(path: folder.path + "/fifo") }
        #expect(fifo?.description.hasSuffix("it is a FIFO, not a regular file") == true)
        let zero = #expect(throws: FileError.self) { try InputJournal(path: "/dev/zero") }
        #expect(zero?.description.hasSuffix("it is a character device, not a regular file") == true)
        for (name, head, message) in [
            ("sparse", [UInt8](), "it is not an input journal; move it away or name another file"),
            ("huge", journalBytes([["w1 "]]), "it is 3 GiB, over the 1 GiB limit"),
        ] {
            let path = folder.path + "/" + name
            _ = FileManager.default.createFile(atPath: path, contents: Data(head))
            #expect(truncate(path, 3 << 30) == 0)
            let error = #expect(throws: FileError.self) { try InputJournal(path: path) }
            #expect(error?.description.hasSuffix(message) == true, "\(name)")
        }
    }

    /// Two runs on one journal would each count the inputs they saved while the file holds one run's worth.
    @Test func aJournalInUseIsRefusedWithItsHolder() throws {
        let folder = try TemporaryFolder([:])
        do {
            let first = try InputJournal(path: folder.path + "/journal")
            let second = #expect(throws: FileError.self) { try InputJournal(path: folder.path + "/journal") }
            #expect(second?.description.hasSuffix("it is in use by pid \(getpid()) (another supervisor)") == true)
            withExtendedLifetime(first) {}
        }
        _ = try InputJournal(path: folder.path + "/journal")
    }

    /// A journal deleted during the run saves nothing more: the sync that finds it gone says so.
    @Test func aJournalDeletedDuringTheRunFailsItsNextSync() throws {
        let folder = try TemporaryFolder([:])
        let path = folder.path + "/journal"
        let journal = try InputJournal(path: path)
        journal.append(seq: 1, text: Array("w1 ".utf8))
        #expect(try journal.sync(inputs: [Array("w1 ".utf8)]) == nil)
        #expect(unlink(path) == 0)
        journal.append(seq: 2, text: Array("w2 ".utf8))
        let error = #expect(throws: FileError.self) { try journal.sync(inputs: ["w1 ", "w2 "].map { Array($0.utf8) }) }
        #expect(error?.description == "cannot write '\(path)': it was deleted during the run")
    }

    /// A journal cut short in place during the run (`: > FILE`, a copy-truncate rotation, to any length) is found
    /// at the next sync, or at the run's last one with nothing to write, and written again whole from the inputs
    /// the run holds: the next run restores every one. The run's writes land at the file's end, so one after the
    /// cut leaves no hole of zeros that hides it.
    @Test(arguments: [0, 5, 16, 40])
    func aJournalCutShortDuringTheRunIsWrittenAgainWhole(cut: Int) throws {
        let folder = try TemporaryFolder([:])
        let path = folder.path + "/journal"
        let inputs = Self.words(1...3).map { Array($0.utf8) }
        do {
            let journal = try InputJournal(path: path)
            journal.append(seq: 1, text: inputs[0])
            journal.append(seq: 2, text: inputs[1])
            #expect(try journal.sync(inputs: inputs[..<2]) == nil)
            let written = journalBytes([["w1 ", "w2 "]]).count
            #expect(truncate(path, off_t(cut)) == 0)
            journal.append(seq: 3, text: inputs[2])
            let found = try #require(try journal.sync(inputs: inputs[...]))
            #expect(found.written == written + journalBytes([["w3 "]]).count - InputJournal.headerSize)
            #expect(found.found == cut + found.written - written)
            #expect(truncate(path, off_t(cut)) == 0)
            #expect(try journal.sync(inputs: inputs[...])?.found == cut)
            #expect(try journal.sync(inputs: inputs[...]) == nil)
        }
        // Read, not opened: a process spawned meanwhile by a test beside this one may hold the closed journal's
        // lock until its exec.
        let scan = JournalScan(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(scan.damage == nil && scan.recovered.map(\.text) == inputs)
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
            let (summary, events) = try simulate({
                $0.policy = policy
                $0.policy.maxRecoveries = .max
                $0.loads = 12
                $0.dwellNanoseconds = 40_000_000
                $0.typingIntervalNanoseconds = 1_000_000
            }, content: ContentProvider()) { event in
                if event.name == "visible", event["editor"] == .bool(true) { editorPID = event.pid }
                if event.name == "load-end", let pid = editorPID {
                    editorPID = nil
                    kills += 1
                    killFromOutside(pid)
                }
            }
            let editor = try #require(summary.audit)
            #expect(kills >= 4)
            #expect(editor.typed > 200)
            #expect(editor.replayed > 0)
            #expect(summary.lostInputs == 0 && summary.duplicateInputs == 0)
            #expect(editor.intact && editor.documentFrom == .worker)
            #expect(events.named("death").filter { $0.string("status") == "killed" }.count == kills)
        }

        /// The journal waits for its disk on a thread of its own, never on the event loop: a run that synced it
        /// dozens of times called fdatasync on the loop's thread at most twice (for the new journal's header, and
        /// before the editor's audit), as the fault seam counts them (a rule that counts and fails nothing).
        @Test func theJournalWaitsForTheDiskOffTheEventLoop() throws {
            let folder = try TemporaryFolder([:])
            let path = folder.path + "/journal"
            var count = SyscallFaults.Rule([.sync], 0)
            count.path = path
            SyscallFaults.arm([count])
            let simulated = Result {
                try simulate({
                    $0.loads = 4
                    $0.dwellNanoseconds = 60_000_000
                    $0.typingIntervalNanoseconds = 2_000_000
                    $0.journalPath = path
                }, content: ContentProvider())
            }
            let onTheLoop = try #require(SyscallFaults.disarm().first).matched
            let (summary, events) = try simulated.get()
            #expect(summary.lostInputs == 0)
            #expect(events.named("journal-synced").count >= 20)
            #expect(onTheLoop <= 2)
        }

        /// A stopped editor worker owes acknowledgements: it is found unresponsive, killed and replaced, and no
        /// input is lost.
        @Test func aStoppedEditorWorkerIsUnresponsiveAndItsInputsReplayed() throws {
            var stopped: Int32?
            let (summary, events) = try simulate({
                $0.policy = .guarded
                $0.loads = 4
                $0.dwellNanoseconds = 250_000_000
                $0.typingIntervalNanoseconds = 2_000_000
                $0.hangTimeoutNanoseconds = 200_000_000
            }, content: ContentProvider()) { event in
                if event.name == "visible", event["editor"] == .bool(true), stopped == nil, let pid = event.pid {
                    stopped = pid
                    kill(pid, SIGSTOP)
                }
            }
            let death = try #require(events.named("death").first { $0.pid == stopped })
            #expect(death.string("status") == "unresponsive")
            #expect(summary.lostInputs == 0 && summary.duplicateInputs == 0)
            #expect(summary.audit?.replayed ?? 0 > 0)
        }

        /// The supervisor itself is SIGKILLed mid-typing, and a torn record is left at the journal's end: the next
        /// run restores every saved input, drops the torn bytes, and loses nothing it restored. Every
        /// `journal-synced` line the killed run logged is on the disk: the journal holds that many inputs, and
        /// they hash to the line's digest.
        @Test func aSupervisorKilledMidTypingRestartsFromItsJournal() throws {
            let folder = try TemporaryFolder([:])
            let journal = folder.path + "/journal"
            let firstLog = folder.path + "/first.jsonl"
            let first = try BackgroundSupervisor(
                ["run", "--policy", "guarded", "--loads", "1000000", "--dwell", "20", "--typing", "500", "--journal", journal,
                 "--log", firstLog],
                folder: folder)
            let size = { (try? FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) ?? 0 }
            // Each input is a 16-byte header and its word, and each group commit a 16-byte mark.
            #expect(eventually(within: 20) { size() > 150 * 40 })
            let orphans = first.liveChildren().map(\.pid)
            kill(first.pid, SIGKILL)
            _ = first.wait()
            #expect(reapOrphans(orphans))
            let saved = try InputJournal(path: journal).recovered
            #expect(saved.count > 100)
            let synced = logEvents(firstLog).filter { $0["event"] as? String == "journal-synced" }
            #expect(synced.count > 10)
            for line in synced {
                let records = try #require(line["records"] as? Int)
                #expect(records <= saved.count && line["typed"] as? Int ?? -1 >= records)
                let digest = saved.prefix(records).reduce(documentDigestBasis) { documentDigest($1.text, from: $0) }
                #expect(String(digest, radix: 16) == line["digest"] as? String, "journal-synced at \(records)")
            }
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
