import Foundation
import Glibc
import Testing
import WireProtocol

@testable import LogAnalysis
@testable import Browser
@testable import System
@testable import SupervisorTesting

/// The shared CRC-32 is zlib's, whichever way its input is split.
@Suite struct SharedCRC32 {
    /// One bit at a time, straight from the polynomial.
    func bitwise(_ bytes: [UInt8], from: UInt32 = 0) -> UInt32 {
        var crc = ~from
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    @Test(arguments: [
        ("", 0), ("a", 0xE8B7_BE43), ("123456789", 0xCBF4_3926),
        ("The quick brown fox jumps over the lazy dog", 0x414F_A339),
    ] as [(String, UInt32)])
    func matchesTheKnownVectors(text: String, expected: UInt32) {
        #expect(crc32(Array(text.utf8)) == expected)
    }

    /// Any piece's checksum from the running ones, as the salvage of a damaged journal asks for them: pieces in
    /// the order they start, overlapping, up to the longest allowed, continuing any checksum before them.
    @Test func aPieceFromTheRunningChecksumsIsThePiecesChecksum() {
        var random = TestRandom(seed: 33)
        for _ in 0..<40 {
            let bytes = (0..<random.next(3_000)).map { _ in UInt8(random.next(256)) }
            let start = random.next(bytes.count + 1)
            let longest = random.next(600)
            var pieces = CRC32Pieces(bytes, from: start, maxLength: longest)
            var lower = start
            while lower < bytes.count {
                let length = random.next(min(longest, bytes.count - lower) + 1)
                let from = random.next(3) == 0 ? 0 : UInt32(truncatingIfNeeded: random.next(1 << 31) * 2 + 1)
                let range = lower..<(lower + length)
                #expect(pieces.crc32(of: range, from: from) == crc32(bytes[range], from: from), "\(range) of \(bytes.count)")
                lower += random.next(40)
            }
        }
    }

    @Test func agreesWithABitwiseReferenceAcrossSplitsAndAlignments() {
        var random = TestRandom(seed: 32)
        for _ in 0..<300 {
            let bytes = (0..<random.next(600)).map { _ in UInt8(random.next(256)) }
            let expected = bitwise(bytes)
            #expect(crc32(bytes) == expected)
            #expect(crc32(bytes.lazy.map { $0 }) == expected)
            for _ in 0..<4 {
                let split = random.next(bytes.count + 1)
                #expect(crc32(bytes[split...], from: crc32(bytes[..<split])) == expected)
                #expect(crc32(bytes[split...], from: bitwise(Array(bytes[..<split]))) == expected)
            }
        }
    }
}

/// The session survives a restart, and a damaged file restores what it still holds and says what it lost.
@Suite struct SessionFileTests {
    static let sample = Session(
        tabs: [
            SavedTab(id: 1, history: BackForwardList(), visible: false),
            SavedTab(
                id: 0x7FFF_FFFF_FFFF_FFFE,
                history: BackForwardList(
                    entries: [
                        HistoryEntry(url: "app://local/ü.html", title: "Größe ✓ 日本語 🚀"),
                        HistoryEntry(url: "app://local/b.html", title: ""),
                        HistoryEntry(url: "", title: "no url"),
                    ], index: 1),
                visible: true),
            SavedTab(id: 3, history: BackForwardList(entries: [HistoryEntry(url: "app://local/c", title: "C")], index: 0),
                visible: false),
        ],
        journal: JournalPosition(path: "/var/tmp/editor journal ✎", records: 1 << 40))

    /// Where each part of `sample`'s file starts: the records, and the byte after the last.
    static var layout: (headerEnd: Int, recordStarts: [Int], end: Int) {
        let header = SessionFile.assemble(journal: sample.journal, records: []).count
        var starts: [Int] = []
        var offset = header
        for tab in sample.tabs {
            starts.append(offset)
            offset += SessionFile.record(for: tab).count
        }
        return (header, starts, offset)
    }

    /// A record with a good checksum around any payload, for files no encoder would write.
    func record(_ payload: [UInt8]) -> [UInt8] {
        let length = le(UInt32(payload.count))
        return length + le(crc32(payload, from: crc32(length))) + payload
    }

    func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    // MARK: - Round trips

    @Test(arguments: [sample.journal, nil, JournalPosition(path: "", records: 0)])
    func aSessionRoundTrips(journal: JournalPosition?) {
        var session = Self.sample
        session.journal = journal
        let decoded = SessionFile.decode(SessionFile.encode(session))
        #expect(decoded.session == session)
        #expect(decoded.damage == nil)
    }

    @Test func anEmptySessionRoundTrips() {
        #expect(SessionFile.decode(SessionFile.encode(Session())) == (Session(), nil))
    }

    @Test func encodingIsAssemblingTheTabsRecords() {
        let records = Self.sample.tabs.map { SessionFile.record(for: $0)[...] }
        #expect(SessionFile.assemble(journal: Self.sample.journal, records: records) == SessionFile.encode(Self.sample))
    }

    /// What encode cannot keep whole it cuts at a character boundary, so that the file it writes still decodes.
    @Test func anOverlongStringIsSavedCutBeforeTheCharacterThatCrossesTheBound() {
        let url = String(repeating: "a", count: SessionFile.maxStringBytes - 1) + "é" + "tail"
        let tab = SavedTab(id: 9, history: BackForwardList(entries: [HistoryEntry(url: url)], index: 0), visible: true)
        let decoded = SessionFile.decode(SessionFile.encode(Session(tabs: [tab])))
        #expect(decoded.damage == nil)
        let kept = String(repeating: "a", count: SessionFile.maxStringBytes - 1)
        #expect(decoded.session.tabs.first?.history.current?.url == kept)
    }

    // MARK: - Damage

    /// Whatever byte the file ends at, the tabs whose records are whole come back, and the rest is reported.
    @Test func aFileCutAtAnyByteRestoresItsCompleteLeadingTabs() throws {
        let bytes = SessionFile.encode(Self.sample)
        let layout = Self.layout
        #expect(layout.end == bytes.count)
        for cut in 0..<bytes.count {
            let (session, damage) = SessionFile.decode(Array(bytes[..<cut]))
            let damageAt = try #require(damage, "cut at \(cut)")
            if cut < layout.headerEnd {
                #expect(session == Session())
                #expect(damageAt.refusal == .truncatedHeader)
                let said = cut == 0 ? "session file is empty" : "session file ends inside its header (at byte \(cut)); no tabs restored"
                #expect(damageAt.description == said)
                continue
            }
            let whole = (layout.recordStarts + [layout.end]).dropFirst().filter { $0 <= cut }.count
            #expect(session.tabs == Array(Self.sample.tabs.prefix(whole)), "cut at \(cut)")
            #expect(session.journal == Self.sample.journal)
            #expect(damageAt.refusal == nil && damageAt.restoredTabs == whole && damageAt.lostTabs == 3 - whole)
            #expect(damageAt.truncatedAt == layout.recordStarts[whole] && damageAt.offset == layout.recordStarts[whole])
            let said = "session file ends after \(whole) of 3 tabs (truncated at byte \(layout.recordStarts[whole]))"
            #expect(damageAt.description == said)
        }
    }

    /// A flipped byte in the middle record's checksum or payload costs that tab alone.
    @Test func aCorruptRecordSkipsOnlyItsTab() {
        let bytes = SessionFile.encode(Self.sample)
        let layout = Self.layout
        for offset in (layout.recordStarts[1] + 4)..<layout.recordStarts[2] {
            var damaged = bytes
            damaged[offset] ^= 0x20
            let (session, damage) = SessionFile.decode(damaged)
            #expect(session.tabs == [Self.sample.tabs[0], Self.sample.tabs[2]], "flip at \(offset)")
            #expect(session.journal == Self.sample.journal)
            #expect(damage?.skippedTabs == 1 && damage?.lostTabs == 1 && damage?.truncatedAt == nil)
            #expect(damage?.description == "1 tab was damaged and skipped (first at byte \(layout.recordStarts[1]))")
        }
    }

    /// A flipped length loses the record it framed and may lose the ones after it (their start is unknown), but
    /// keeps the ones before.
    @Test func aCorruptRecordLengthKeepsTheTabsBeforeIt() {
        let bytes = SessionFile.encode(Self.sample)
        let layout = Self.layout
        for offset in layout.recordStarts[1]..<(layout.recordStarts[1] + 4) {
            for flip: UInt8 in [0x01, 0x20, 0x80] {
                var damaged = bytes
                damaged[offset] ^= flip
                let (session, damage) = SessionFile.decode(damaged)
                #expect(session.tabs.first == Self.sample.tabs[0] && !session.tabs.contains(Self.sample.tabs[1]))
                #expect(damage?.offset == layout.recordStarts[1])
            }
        }
    }

    /// Nothing in a header that fails can be trusted, so nothing is restored; the report says why.
    @Test func aCorruptHeaderRestoresNothing() {
        let bytes = SessionFile.encode(Self.sample)
        for offset in 0..<Self.layout.headerEnd {
            var damaged = bytes
            damaged[offset] ^= 0x20
            let (session, damage) = SessionFile.decode(damaged)
            #expect(session == Session(), "flip at \(offset)")
            switch offset {
            case 0..<8:
                #expect(damage?.refusal == .notASessionFile)
                #expect(damage?.description == "not a session file")
            case 8..<10: #expect(damage?.refusal == .unsupportedVersion(damaged[8] == 2 ? 0x2002 : 0x22))
            case 23..<27: #expect([.corruptHeader, .truncatedHeader].contains(damage?.refusal))
            default:
                #expect(damage?.refusal == .corruptHeader, "flip at \(offset)")
                #expect(damage?.description == "session file header is corrupt (bad checksum or bounds); no tabs restored")
            }
            #expect(damage?.lostTabs == nil && damage?.restoredTabs == 0)
        }
    }

    @Test func aNewerVersionIsRefusedWithItsNumber() {
        var bytes = SessionFile.encode(Self.sample)
        bytes[8] = 9
        let (session, damage) = SessionFile.decode(bytes)
        #expect(session == Session())
        #expect(damage?.refusal == .unsupportedVersion(9))
        #expect(damage?.description == "session file version 9 is newer than this supervisor (2)")
    }

    @Test func anotherFileIsNotASessionFile() {
        let damage = SessionFile.decode(Array("<html>not a session</html>".utf8)).damage
        #expect(damage?.description == "not a session file")
    }

    /// Counts and lengths at u32 max are damage, not allocations: each case decodes at once to what it can.
    @Test func hostileLengthsAreDamageNotAllocations() {
        let header = SessionFile.assemble(journal: nil, records: [])
        func file(tabs: UInt32, _ records: [[UInt8]]) -> [UInt8] {
            var bytes = header
            bytes.replaceSubrange(10..<14, with: le(tabs))
            bytes.replaceSubrange((bytes.count - 4)..., with: le(crc32(bytes[..<(bytes.count - 4)])))
            return bytes + records.flatMap { $0 }
        }
        let good = SessionFile.record(for: Self.sample.tabs[2])
        let payloadHead = le(UInt64(5)) + [1] + le(UInt32(0))

        let manyTabs = SessionFile.decode(file(tabs: .max, [good]))
        #expect(manyTabs.session.tabs == [Self.sample.tabs[2]])
        #expect(manyTabs.damage?.lostTabs == Int(UInt32.max) - 1 && manyTabs.damage?.truncatedAt == header.count + good.count)
        let said = "session file ends after 1 of 4,294,967,295 tabs (truncated at byte \(header.count + good.count))"
        #expect(manyTabs.damage?.description == said)

        let longRecord = SessionFile.decode(file(tabs: 2, [good, le(UInt32.max) + le(UInt32(0)) + [1, 2, 3]]))
        #expect(longRecord.session.tabs == [Self.sample.tabs[2]] && longRecord.damage?.truncatedAt == header.count + good.count)

        let manyEntries = SessionFile.decode(file(tabs: 2, [record(payloadHead + le(UInt32.max)), good]))
        #expect(manyEntries.session.tabs == [Self.sample.tabs[2]] && manyEntries.damage?.skippedTabs == 1)

        let longURL = SessionFile.decode(file(tabs: 2, [record(payloadHead + le(UInt32(1)) + le(UInt32.max) + [0x61]), good]))
        #expect(longURL.session.tabs == [Self.sample.tabs[2]] && longURL.damage?.skippedTabs == 1)

        var longPath = header
        longPath.replaceSubrange(23..<27, with: le(UInt32.max))
        #expect(SessionFile.decode(longPath).damage?.refusal == .corruptHeader)
    }

    /// A tab's id and the journal's record count are Ints wherever the run writes them (the log, `session show
    /// --json`): one past Int.max is damage, not a trap when the run or the command gets to it.
    @Test func idsAndCountsPastIntAreDamage() {
        let payload = le(UInt64.max) + [1] + le(UInt32(0)) + le(UInt32(0))
        let file = SessionFile.assemble(journal: nil, records: [record(payload)[...], SessionFile.record(for: Self.sample.tabs[2])[...]])
        let (session, damage) = SessionFile.decode(file)
        #expect(session.tabs == [Self.sample.tabs[2]] && damage?.skippedTabs == 1)
        let header = SessionFile.header(tabCount: 0, journal: JournalPosition(path: "j", records: UInt64(Int.max) + 1))
        #expect(SessionFile.decode(header).damage?.refusal == .corruptHeader)
        let atMost = SessionFile.header(tabCount: 0, journal: JournalPosition(path: "j", records: UInt64(Int.max)))
        #expect(SessionFile.decode(atMost).damage == nil)
    }

    @Test func aRecordThatPassesItsChecksumButNotItsBoundsIsSkipped() {
        let entry = le(UInt32(1)) + [0x61] + le(UInt32(0))
        let payload = le(UInt64(5)) + [1] + le(UInt32(0)) + le(UInt32(1)) + entry
        let file = SessionFile.assemble(journal: nil, records: [record(payload + [0])[...], record(payload)[...]])
        let (session, damage) = SessionFile.decode(file)
        #expect(session.tabs.map(\.id) == [5])
        #expect(damage?.skippedTabs == 1 && damage?.offset == SessionFile.assemble(journal: nil, records: []).count)
    }

    @Test func invalidUTF8InAGoodRecordIsReplacedNotFatal() {
        let payload = le(UInt64(5)) + [0] + le(UInt32(9)) + le(UInt32(1)) + le(UInt32(3)) + [0x61, 0xC3, 0x28]
            + le(UInt32(2)) + [0xFF, 0xFE]
        let (session, damage) = SessionFile.decode(SessionFile.assemble(journal: nil, records: [record(payload)[...]]))
        #expect(damage == nil)
        #expect(session.tabs.first?.history.current == HistoryEntry(url: "a\u{FFFD}(", title: "\u{FFFD}\u{FFFD}"))
        #expect(session.tabs.first?.history.index == 0 && session.tabs.first?.visible == false)
    }

    @Test func bytesAfterTheLastTabAreReported() {
        let (session, damage) = SessionFile.decode(SessionFile.encode(Self.sample) + [1, 2, 3])
        #expect(session == Self.sample)
        #expect(damage?.trailingBytes == 3 && damage?.offset == Self.layout.end && damage?.lostTabs == 0)
        #expect(damage?.description == "3 damaged bytes after the last intact save were ignored (from byte \(Self.layout.end))")
    }

    // MARK: - Files

    @Test func writingReplacesASessionWholeAndLeavesNoTemporary() throws {
        let folder = try TemporaryFolder([:])
        let path = folder.path + "/session"
        try SessionFile.write(SessionFile.encode(Session()), to: path)
        try SessionFile.write(SessionFile.encode(Self.sample), to: path)
        #expect(try SessionFile.read(path) == (Self.sample, nil))
        try SessionFile.write(SessionFile.encode(Session()), to: path)
        #expect(try SessionFile.read(path) == (Session(), nil))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["session"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode.map { $0 & 0o600 } == 0o600)
    }

    /// A file that is not a session is never overwritten: `session create notes.txt` must not destroy notes.
    @Test func aFileThatIsNotASessionIsRefusedAndKept() throws {
        let folder = try TemporaryFolder(["notes.txt": "my notes"])
        let error = #expect(throws: FileError.self) { try SessionFile.write(SessionFile.encode(Self.sample), to: folder.path + "/notes.txt") }
        #expect(error?.description.contains("it is not a session file") == true)
        #expect(try String(contentsOfFile: folder.path + "/notes.txt", encoding: .utf8) == "my notes")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"])
    }

    /// A session file of a version this supervisor does not read is not written over: a newer one is a newer
    /// supervisor's. One it reads, older or cut short, is its own to replace.
    @Test func aSessionFileOfANewerVersionIsRefusedAndKept() throws {
        let folder = try TemporaryFolder([:])
        let path = folder.path + "/session"
        for version: UInt8 in [3, 0] {
            var other = SessionFile.encode(Self.sample)
            other[8] = version
            try Data(other).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: FileError.self) { try SessionFile.write(SessionFile.encode(Session()), to: path) }
            let said = version == 3 ? "is newer than this supervisor (2)" : "is not one this supervisor reads (2)"
            #expect(error?.description == "cannot write '\(path)': session file version \(version) \(said); move it away or name another file")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(other))
        }
        for older in [Array(SessionFile.encode(Self.sample).prefix(9)), { var v1 = SessionFile.encode(Self.sample); v1[8] = 1; return v1 }()] {
            try Data(older).write(to: URL(fileURLWithPath: path))
            try SessionFile.write(SessionFile.encode(Session()), to: path)
            #expect(try SessionFile.read(path) == (Session(), nil))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["session"])
    }

    /// Into a directory that is not there, or over a directory, which is refused before anything is written.
    @Test func aFailedWriteThrowsAndLeavesNoTemporary() throws {
        let folder = try TemporaryFolder([:])
        let missing = #expect(throws: FileError.self) { try SessionFile.write([1], to: folder.path + "/missing/session") }
        #expect(missing?.errno == ENOENT)
        try FileManager.default.createDirectory(atPath: folder.path + "/occupied", withIntermediateDirectories: false)
        let occupied = #expect(throws: FileError.self) { try SessionFile.write([1], to: folder.path + "/occupied") }
        #expect(occupied?.description.contains("it is a directory, not a regular file") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["occupied"])
    }

    @Test func readingAMissingFileIsENOENT() throws {
        let folder = try TemporaryFolder([:])
        let error = #expect(throws: FileError.self) { try SessionFile.read(folder.path + "/session") }
        #expect(error?.errno == ENOENT)
    }

    @Test(arguments: [("session", "."), ("/session", "/"), ("/a/b/session", "/a/b"), ("a/session", "a")])
    func theDirectoryToSyncHoldsThePath(path: String, directory: String) {
        #expect(Sys.directory(of: path) == directory)
    }
}
