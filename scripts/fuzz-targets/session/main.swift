// libFuzzer harness for the session file's decoder (Sources/Browser/Tabs/SessionFile*), built and run by
// `scripts/fuzz`.
//
// The format has many encodings of one session (saves appended after the records, damaged records skipped, flag
// bits beside `visible`, an index past the list clamped, bytes that are not UTF-8 read as U+FFFD), so decoding
// then encoding cannot give back the input's bytes. What must hold, for any bytes x:
//   1. `decode(x)` and `decodeRecords(x)` never trap, and agree on the tabs and the journal.
//   2. `encode(decode(x))` decodes, undamaged, to the same session, and encodes again to the same bytes: the
//      encoding of a session is one, and a decoded session survives a save and a restore unchanged.
@testable import Browser
import FuzzDriver
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

runFuzzer(seeds: seeds) { input in
    let bytes = Array(input)
    let (session, _) = SessionFile.decode(bytes)
    let (records, _) = SessionFile.decodeRecords(bytes)
    guard records.records.map(\.saved) == session.tabs, records.journal == session.journal else {
        violated("decodeRecords and decode disagree")
    }
    let encoded = SessionFile.encode(session)
    let (again, damage) = SessionFile.decode(encoded)
    guard damage == nil else { violated("the encoding of a decoded session is damaged: \(damage!)") }
    guard again == session else { violated("decode(encode(decode(x))) != decode(x): \(again) vs \(session)") }
    guard SessionFile.encode(again) == encoded else { violated("a session's encoding is not unique") }
}
