// libFuzzer harness for the session file's decoder (Sources/Browser/Tabs/SessionFile*), built and run by
// `scripts/fuzz`.
//
// The format has many encodings of one session (saves appended after the records, damaged records skipped, flag
// bits beside `visible`, an index past the list clamped, bytes that are not UTF-8 read as U+FFFD), so decoding
// then encoding cannot give back the input's bytes. What must hold, for any bytes x:
//   1. `decode(x)` and `decodeRecords(x)` never trap, and agree on the tabs and the journal.
//   2. `encode(decode(x))` decodes, undamaged, to the same session, and encodes again to the same bytes: the
//      encoding of a session is one, and a decoded session survives a save and a restore unchanged.
//   3. Damage, when there is any, says what it is in words.
// Each holds for x, and for x with every checksum made right (`checksumsFixed`): the fuzzer seldom guesses a
// CRC-32, and the counts and positions behind one are where a save claiming four billion tabs once hid.
// `scripts/fuzz` gives this target a 64 MB allocation limit: an input is at most 4 KiB, and the decoder never
// allocates much more than its input, so a larger allocation is a count trusted that should not have been.
@testable import Browser
import FuzzDriver
import System
import WireProtocol

func seeds() -> [(name: String, bytes: [UInt8])] {
    let page = HistoryEntry(url: "app://local/a.html", title: "A")
    let tabs = [
        SavedTab(id: 1, history: BackForwardList(entries: [page], index: 0), visible: true),
        SavedTab(
            id: 2, history: BackForwardList(entries: [page, HistoryEntry(url: "http://b/", title: "B\u{E9}")], index: 0),
            visible: false),
        SavedTab(id: 3, history: BackForwardList(), visible: false),
    ]
    let journal = JournalPosition(path: "editor.journal", records: 12)
    let whole = SessionFile.encode(Session(tabs: tabs, journal: journal))
    // A save appended after the records: tab 2 changed, a fourth tab added.
    var moved = tabs[1]
    moved.history.push(HistoryEntry(url: "http://c/"))
    let save = SessionFile.save(
        tabCount: 4, journal: journal,
        changes: [(1, SessionFile.record(for: moved)[...]), (3, SessionFile.record(for: tabs[0])[...])])
    return [
        ("empty", SessionFile.encode(Session())), ("one", SessionFile.encode(Session(tabs: [tabs[0]]))),
        ("three", whole), ("saved", whole + save), ("torn", whole + save.dropLast(3)),
    ]
}

/// `bytes` with the checksum of the header, of each record and of each save made right, wherever the lengths
/// before them place them; what cannot be placed is left as it is.
func checksumsFixed(_ input: [UInt8]) -> [UInt8] {
    var bytes = input
    func u32(_ at: Int) -> Int? {
        guard at >= 0, at + 4 <= bytes.count else { return nil }
        return (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
    }
    func setCRC(of range: Range<Int>, from: UInt32 = 0, at: Int) {
        let crc = crc32(bytes[range], from: from)
        for i in 0..<4 { bytes[at + i] = UInt8(truncatingIfNeeded: crc >> (8 * i)) }
    }
    /// Fixes the record at `offset` and returns where it ends.
    func fixRecord(at offset: Int) -> Int? {
        guard let length = u32(offset), offset + 8 + length <= bytes.count else { return nil }
        setCRC(of: (offset + 8)..<(offset + 8 + length), from: crc32(bytes[offset..<(offset + 4)]), at: offset + 4)
        return offset + 8 + length
    }
    // The header: the journal path's length at 23, the checksum after the path.
    guard let tabs = u32(10), let pathLength = u32(23), 27 + pathLength + 4 <= bytes.count else { return bytes }
    setCRC(of: 0..<(27 + pathLength), at: 27 + pathLength)
    var offset = 27 + pathLength + 4
    for _ in 0..<tabs {
        guard let end = fixRecord(at: offset) else { return bytes }
        offset = end
    }
    while offset + 8 <= bytes.count, bytes[offset..<(offset + 4)].elementsEqual(SessionFile.saveTag),
        let length = u32(offset + 4), length >= 4, offset + 8 + length <= bytes.count
    {
        let end = offset + 8 + length
        // tab count · journal (present, records, path length, path) · change count · changes
        if let pathLength = u32(offset + 21), let changes = u32(offset + 25 + pathLength) {
            var at = offset + 29 + pathLength
            for _ in 0..<min(changes, bytes.count) {
                guard at + 4 < end - 4, let next = fixRecord(at: at + 4), next <= end - 4 else { break }
                at = next
            }
        }
        setCRC(of: offset..<(end - 4), at: end - 4)
        offset = end
    }
    return bytes
}

func check(_ bytes: [UInt8], _ what: String) {
    let (session, damage) = SessionFile.decode(bytes)
    let (records, _) = SessionFile.decodeRecords(bytes)
    guard records.records.map(\.saved) == session.tabs, records.journal == session.journal else {
        violated("decodeRecords and decode disagree (\(what))")
    }
    if let damage, damage.description.isEmpty { violated("damage with no words: \(damage) (\(what))") }
    let encoded = SessionFile.encode(session)
    let (again, damageAgain) = SessionFile.decode(encoded)
    guard damageAgain == nil else { violated("the encoding of a decoded session is damaged: \(damageAgain!) (\(what))") }
    guard again == session else { violated("decode(encode(decode(x))) != decode(x): \(again) vs \(session) (\(what))") }
    guard SessionFile.encode(again) == encoded else { violated("a session's encoding is not unique (\(what))") }
}

runFuzzer(seeds: seeds) { input in
    let bytes = Array(input)
    check(bytes, "as given")
    check(checksumsFixed(bytes), "with its checksums fixed")
}
