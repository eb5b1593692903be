// libFuzzer harness for the editor's input journal reader (`JournalScan`, Sources/Browser/Editor), built and run by
// `scripts/fuzz`. For any bytes x (the reader is given them after the header check `InputJournal.init` makes):
//   1. The scan never traps; the inputs it recovers are numbered 1, 2, 3... and end where it says.
//   2. The recovered inputs, written again as the journal writes them (header, records, a synced mark), scan back
//      to the same inputs, whole and undamaged. So do the inputs a salvage keeps, the way `rewrite` writes them.
//   3. The file cut where the intact records end (what opening a journal with a torn tail does) scans to the same
//      inputs, with no damage.
@testable import Browser
import FuzzDriver

/// The journal `InputJournal.rewrite` writes for `texts`.
func journal(_ texts: [[UInt8]]) -> [UInt8] {
    var bytes = InputJournal.header
    for (i, text) in texts.enumerated() { InputJournal.appendRecord(seq: UInt64(i + 1), text: text, to: &bytes) }
    InputJournal.appendSyncedMark(seq: UInt64(texts.count), to: &bytes)
    return bytes
}

/// Traps unless `bytes` scan to exactly `texts`, to their end, with no damage.
func expectClean(_ bytes: [UInt8], _ texts: [[UInt8]], _ what: String) {
    let scan = JournalScan(bytes)
    guard scan.damage == nil, scan.end == bytes.count, scan.recovered.map(\.text) == texts else {
        violated("\(what) scans to \(scan.recovered.count) inputs (of \(texts.count)), end \(scan.end) of "
            + "\(bytes.count), damage \(String(describing: scan.damage))")
    }
}

func seeds() -> [(name: String, bytes: [UInt8])] {
    let texts = ["a", "hello", "", "\u{E9}t\u{E9}"].map { Array($0.utf8) }
    var unsynced = journal(Array(texts.prefix(2)))
    InputJournal.appendRecord(seq: 3, text: Array("torn".utf8), to: &unsynced)
    var damaged = journal(texts)
    damaged[InputJournal.headerSize + InputJournal.recordHeaderSize] ^= 0xFF
    return [
        ("header", InputJournal.header), ("one", journal([texts[0]])), ("four", journal(texts)),
        ("unsynced", unsynced), ("torn", Array(unsynced.dropLast(2))), ("damaged", damaged),
    ]
}

runFuzzer(seeds: seeds) { input in
    let bytes = Array(input)
    let scan = JournalScan(bytes)
    guard scan.recovered.map(\.seq) == (0..<scan.recovered.count).map({ UInt64($0 + 1) }) else {
        violated("recovered inputs are not numbered 1, 2, 3...: \(scan.recovered.map(\.seq))")
    }
    guard scan.end >= InputJournal.headerSize, scan.end <= max(bytes.count, InputJournal.headerSize) else {
        violated("the intact records end at \(scan.end), outside the file (\(bytes.count) bytes)")
    }
    let texts = scan.recovered.map(\.text)
    expectClean(journal(texts), texts, "the recovered inputs written again")
    if let damage = scan.damage {
        let kept = scan.records(afterDamage: damage)
        guard kept.starts(with: texts), kept.count == texts.count + damage.intactAfter else {
            violated("a salvage keeps \(kept.count) inputs, not the \(texts.count) before the damage and \(damage.intactAfter) after")
        }
        expectClean(journal(kept), kept, "the inputs a salvage keeps, written again")
    } else if bytes.count >= InputJournal.headerSize {
        let cut = Array(bytes[..<scan.end])
        let again = JournalScan(cut)
        guard again.damage == nil, again.end == cut.count, again.recovered.map(\.text) == texts else {
            violated("the journal cut after its intact records does not scan to the same inputs")
        }
    }
}
