import WireProtocol

/// The document the user types into (seed 001: typed input is never lost), as the host keeps it.
///
/// Every input has a seq, counted from 1 across runs that share a journal. An input is kept until the worker
/// acknowledges it as applied; acknowledged inputs, in order, are the saved document, appended to the journal.
/// When a worker dies, the next one gets the saved document and then every unacknowledged input, in order, once.
final class Editor {
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
    private(set) weak var worker: WorkerProcess?
    private(set) var sentThrough: UInt64 = 0
    /// Inputs sent again to a new worker after the one they were sent to died unacknowledged.
    private(set) var replayed = 0
    /// Acknowledgements whose digest disagreed with the document the host expected.
    private(set) var mismatches = 0
    /// Typing stops, the document is asked for, and the run may end.
    var finishing = false
    /// The document as the last worker reported it at the end.
    var final: [UInt8]?
    /// Audited and closed.
    var concluded = false

    init(load: Load, journal: InputJournal?) {
        self.load = load
        self.journal = journal
        for record in journal?.recovered ?? [] { texts.append(record.text) }
        restored = texts.count
        for text in texts { acknowledge(text) }
        saved = acked
        highestSent = acked
    }

    var typed: Int { texts.count }
    var allAcknowledged: Bool { acked == UInt64(texts.count) }

    /// The next input the user types: one word, named by its seq so that a loss or a repeat shows in the text.
    func type() {
        texts.append(Array("w\(texts.count + 1) ".utf8))
    }

    /// A new worker takes the document: the saved part as a restore, in pieces that fit in a frame (all but the
    /// last acknowledged as seq 0), then every input not acknowledged.
    func attach(_ worker: WorkerProcess) -> [(seq: UInt64, text: [UInt8])] {
        self.worker = worker
        var messages: [(UInt64, [UInt8])] = []
        var start = 0
        while start < ackedText.count {
            let end = min(start + Self.restoreChunk, ackedText.count)
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
    func synced() { saved = acked }

    /// Lost and duplicated inputs: each input's word counted in the final document (or, with no worker left to
    /// ask, in the saved one), against everything typed.
    func audit() -> (lost: Int, duplicate: Int, intact: Bool) {
        let document = final ?? ackedText
        var counts = [Int](repeating: 0, count: texts.count + 1)
        var stray = 0
        for word in document.split(separator: UInt8(ascii: " ")) {
            if word.first == UInt8(ascii: "w"), let seq = Int(String(decoding: word.dropFirst(), as: UTF8.self)),
                seq >= 1, seq <= texts.count
            {
                counts[seq] += 1
            } else {
                stray += 1
            }
        }
        let lost = counts.dropFirst().filter { $0 == 0 }.count
        let duplicate = counts.dropFirst().reduce(0) { $0 + max(0, $1 - 1) } + stray
        return (lost, duplicate, document.elementsEqual(texts.joined()))
    }

    /// A restore larger than this goes in several frames.
    static let restoreChunk = 256 * 1024
}
