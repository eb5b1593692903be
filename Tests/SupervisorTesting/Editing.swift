@testable import Browser
@testable import Core

/// A journal as `sync` writes it: the header, then each group of records followed by its `synced` mark.
func journalBytes(_ groups: [[String]]) -> [UInt8] {
    var bytes = InputJournal.header
    var seq: UInt64 = 0
    for group in groups {
        for text in group {
            seq += 1
            InputJournal.appendRecord(seq: seq, text: Array(text.utf8), to: &bytes)
        }
        InputJournal.appendSyncedMark(seq: seq, to: &bytes)
    }
    return bytes
}

/// An editor with no journal, or with `journal`, outside any browser.
func makeEditor(journal: InputJournal? = nil) -> Editor {
    Editor(load: Load(index: -1, client: EditorClient(), startedAt: 0), journal: journal)
}

/// A journal holding `texts`, seqs 1, 2, 3…, synced as one group.
func journalRecords(_ texts: [[UInt8]]) -> [UInt8] {
    journalBytes([texts.map { String(decoding: $0, as: UTF8.self) }])
}
