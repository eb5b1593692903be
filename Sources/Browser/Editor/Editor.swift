import Core
import Text
import WireProtocol

/// The document the user types into (seed 001: typed input is never lost), as the browser keeps it.
///
/// Every input has a seq, counted from 1 across runs that share a journal. An input is kept until the worker
/// acknowledges it as applied; acknowledged inputs, in order, are the saved document, appended to the journal.
/// When a worker dies, the next one gets the saved document and then every unacknowledged input, in order, once.
///
/// At most `window` inputs are typed and not yet acknowledged: while the worker lags that far behind, the typist
/// waits (each tick it waits is counted in `deferred`), so typing faster than the worker can take is slowed, never
/// lost, and the backlog a run's end must wait for is bounded.
package final class Editor {
    /// The editor's own load: one view, open for the whole run, outside the rotation of loads.
    let load: Load
    let journal: InputJournal?
    /// The text of every input this run knows, restored ones first: `texts[seq - 1]`.
    private(set) var texts: [[UInt8]] = []
    /// Inputs read back from the journal when the run began.
    let restored: Int
    /// The highest seq the worker acknowledged; the saved document is inputs 1…acked.
    private(set) var acked: UInt64 = 0
    private(set) var ackedText: [UInt8] = []
    private(set) var ackedDigest: UInt64 = documentDigestBasis
    /// The highest seq synced to the journal's disk.
    private(set) var saved: UInt64 = 0
    /// The worker the inputs go to now, and the last seq sent to it.
    private(set) weak var worker: Worker?
    private(set) var sentThrough: UInt64 = 0
    /// Inputs sent again to a new worker after the one they were sent to died unacknowledged.
    private(set) var replayed = 0
    /// Acknowledgements whose digest disagreed with the document the browser expected.
    private(set) var mismatches = 0
    /// Typing stops, the document is asked for, and the run may end.
    package internal(set) var finishing = false
    /// The document as the last worker reported it at the end.
    var final: [UInt8]?
    /// Audited and closed.
    var concluded = false
    /// Ticks on which the typist did not type because `window` inputs were unacknowledged.
    private(set) var deferred = 0
    /// The number in the next input's word: one past the highest any input carries, restored ones included, so
    /// that every input's text is unique even when the journal's labels skip some.
    private var nextLabel = 1

    init(load: Load, journal: InputJournal?) {
        self.load = load
        self.journal = journal
        for record in journal?.recovered ?? [] { texts.append(record.text) }
        restored = texts.count
        for text in texts {
            acknowledge(text)
            if let label = Self.label(text) { nextLabel = max(nextLabel, label + 1) }
        }
        saved = acked
        highestSent = acked
    }

    var typed: Int { texts.count }
    var allAcknowledged: Bool { acked == UInt64(texts.count) }

    /// Inputs typed and not acknowledged, at most.
    static let window = 256

    /// The next input the user types, unless `window` inputs wait for their acknowledgement (then the tick is
    /// counted in `deferred`): one word and a space, with a label no other input has, so that a loss or a repeat
    /// shows in the text. Returns whether it typed.
    func type() -> Bool {
        guard UInt64(texts.count) - acked < UInt64(Self.window) else {
            deferred += 1
            return false
        }
        texts.append(Array("w\(nextLabel) ".utf8))
        nextLabel += 1
        return true
    }

    /// The number in a word `w<n> `; nil for any other text.
    private static func label(_ text: [UInt8]) -> Int? {
        guard text.count > 2, text.count < 21, text.first == UInt8(ascii: "w"), text.last == UInt8(ascii: " ") else {
            return nil
        }
        return Int(String(decoding: text.dropFirst().dropLast(), as: UTF8.self))
    }

    /// A new worker takes the document: the saved part as a restore, in pieces that each fit a frame and end
    /// between characters (all but the last acknowledged as seq 0), then every input not acknowledged.
    func attach(_ worker: Worker) -> [(seq: UInt64, text: [UInt8])] {
        self.worker = worker
        var messages: [(UInt64, [UInt8])] = []
        var start = 0
        while start < ackedText.count {
            let end = utf8Boundary(in: ackedText, from: start, limit: pieceBytes)
            messages.append((end == ackedText.count ? acked : 0, Array(ackedText[start..<end])))
            start = end
        }
        replayed += Int(highestSent - acked)
        sentThrough = acked
        return messages + unsent()
    }

    /// The highest seq sent to any worker.
    private var highestSent: UInt64 = 0

    /// Inputs typed but not yet sent to the current worker, which are marked sent.
    func unsent() -> [(seq: UInt64, text: [UInt8])] {
        guard worker != nil, sentThrough < UInt64(texts.count) else { return [] }
        let batch = ((sentThrough + 1)...UInt64(texts.count)).map { ($0, texts[Int($0) - 1]) }
        sentThrough = UInt64(texts.count)
        highestSent = sentThrough
        return batch
    }

    func detach() { worker = nil }

    /// A worker taken back whose document is the acknowledged one (`Browser.reclaimedEditor`): nothing acknowledged
    /// is sent to it again, and what was typed since goes to it next.
    func adopt(_ worker: Worker) {
        self.worker = worker
        sentThrough = acked
    }

    /// The worker applied input `seq`, and its document now hashes to `digest`. Returns false if nothing asked
    /// for this acknowledgement.
    func applied(seq: UInt64, digest: UInt64) -> Bool {
        if seq == 0 { return true }
        if seq == acked {
            if digest != ackedDigest { mismatches += 1 }
            return true
        }
        guard seq == acked + 1, seq <= sentThrough else { return false }
        acknowledge(texts[Int(seq) - 1])
        journal?.append(seq: seq, text: texts[Int(seq) - 1])
        if digest != ackedDigest { mismatches += 1 }
        return true
    }

    private func acknowledge(_ text: [UInt8]) {
        acked += 1
        ackedText += text
        ackedDigest = documentDigest(text, from: ackedDigest)
    }

    /// Called after the journal's sync returned.
    func synced(through seq: UInt64) { saved = seq }

    /// The longest document a worker could honestly report: every input applied twice over, and a piece more.
    /// An announced length beyond it is not a document but an attempt to make the supervisor buffer one.
    var longestPlausibleDocument: Int { 2 * texts.reduce(0) { $0 + $1.count } + pieceBytes }

    /// Lost and duplicated inputs: each input's own text (a word and its space) counted among the final
    /// document's words (or, with no worker left to ask, the saved document's), against how many inputs have that
    /// text. A word no input has is a duplicate too: something was applied that nobody typed. A text that is not one
    /// word and a space can never be counted, so it shows as lost rather than hide a loss.
    func audit() -> (lost: Int, duplicate: Int, intact: Bool) {
        let document = final ?? ackedText
        var expected: [ArraySlice<UInt8>: Int] = [:]
        for text in texts { expected[text[...], default: 0] += 1 }
        var found: [ArraySlice<UInt8>: Int] = [:]
        var stray = 0
        var start = 0
        while start < document.count {
            let end = document[start...].firstIndex(of: UInt8(ascii: " ")).map { $0 + 1 } ?? document.count
            let word = document[start..<end]
            if expected[word] != nil { found[word, default: 0] += 1 } else { stray += 1 }
            start = end
        }
        var lost = 0
        var duplicate = stray
        for (text, count) in expected {
            let seen = found[text] ?? 0
            lost += max(0, count - seen)
            duplicate += max(0, seen - count)
        }
        return (lost, duplicate, document.elementsEqual(texts.joined()))
    }
}
