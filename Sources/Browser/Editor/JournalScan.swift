import System

/// Damage in a journal that a `synced` mark vouches for: bytes that were on the disk and then changed.
struct JournalDamage: Equatable, CustomStringConvertible {
    /// The first damaged byte.
    let offset: Int
    /// The last input read intact before it.
    let lastIntactSeq: UInt64
    /// Intact inputs found after the damage.
    let intactAfter: Int
    /// Inputs missing between the intact ones.
    let lost: Int

    var description: String {
        "it is damaged at byte \(offset) (after input \(lastIntactSeq)), in inputs it had saved; "
            + "\(intactAfter == 1 ? "1 intact input follows" : "\(intactAfter) intact inputs follow")"
            + (lost > 0 ? " and \(lost == 1 ? "1 input" : "\(lost) inputs") cannot be read" : "")
    }
}

/// One pass over a journal's bytes: the inputs read intact from the start, where they end, and whether what
/// follows is a torn tail (nothing vouches for it) or damage (a later `synced` mark does).
struct JournalScan {
    private let bytes: [UInt8]
    private(set) var recovered: [(seq: UInt64, text: [UInt8])] = []
    /// Where the intact records end: the file is cut here when the rest is a torn tail.
    private(set) var end: Int
    private(set) var damage: JournalDamage?

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        end = InputJournal.headerSize
        var lastSeq: UInt64 = 0
        read: while let item = item(at: end) {
            switch item {
            case .record(let seq, let text, let next) where seq == lastSeq + 1:
                recovered.append((seq, Array(bytes[text])))
                lastSeq = seq
                end = next
            case .synced(let seq, let next) where seq == lastSeq:
                end = next
            default:
                break read
            }
        }
        guard end < bytes.count, vouched(beyond: lastSeq, after: end) else { return }
        let after = salvage(from: end, lastSeq: lastSeq)
        damage = JournalDamage(offset: end, lastIntactSeq: lastSeq, intactAfter: after.records.count, lost: after.lost)
    }

    /// Every intact input: those before the damage, then those found after it, skipping each damaged stretch.
    func records(afterDamage damage: JournalDamage) -> [[UInt8]] {
        recovered.map(\.text) + salvage(from: damage.offset, lastSeq: damage.lastIntactSeq).records
    }

    private enum Item {
        case record(seq: UInt64, text: Range<Int>, next: Int)
        case synced(seq: UInt64, next: Int)
    }

    /// The record or mark at `offset`, if it is intact.
    private func item(at offset: Int) -> Item? {
        item(at: offset) { text, from in crc32(bytes[text], from: from) }
    }

    /// The record or mark at `offset`, if it is intact, with `checksum(text, from)` for a record's
    /// `crc32(bytes[text], from: from)`.
    private func item(at offset: Int, checksum: (Range<Int>, UInt32) -> UInt32) -> Item? {
        let headerEnd = offset + InputJournal.recordHeaderSize
        guard offset >= 0, headerEnd <= bytes.count else { return nil }
        let length = integer(at: offset, as: UInt32.self)
        let isMark = length == InputJournal.syncedMarkLength
        guard isMark || (length <= InputJournal.maxRecord && Int(length) <= bytes.count - headerEnd) else { return nil }
        let seq = integer(at: offset + 4, as: UInt64.self)
        let head = crc32(bytes[offset..<(offset + 12)])
        let stored = integer(at: offset + 12, as: UInt32.self)
        if isMark { return head == stored ? .synced(seq: seq, next: headerEnd) : nil }
        let text = headerEnd..<(headerEnd + Int(length))
        guard checksum(text, head) == stored else { return nil }
        return .record(seq: seq, text: text, next: text.upperBound)
    }

    /// Whether an intact `synced` mark after `offset` vouches for an input past `seq`.
    private func vouched(beyond seq: UInt64, after offset: Int) -> Bool {
        var start = offset + 1
        let pattern: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF]
        while start < bytes.count, let found = Sys.firstIndex(of: pattern, in: bytes.span.extracting(start...)) {
            let at = start + found
            if case .synced(let marked, _)? = item(at: at), marked > seq { return true }
            start = at + 1
        }
        return false
    }

    /// The intact records after a damaged stretch starting at `offset`, found by their checksums, in order, and how
    /// many seqs are missing between them.
    ///
    /// Every offset is a candidate, and each claims up to `maxRecord` bytes: the checksum of what it claims is
    /// found in a constant number of steps (`CRC32Pieces`), not by reading it, so the work is linear in the
    /// file's size.
    private func salvage(from offset: Int, lastSeq: UInt64) -> (records: [[UInt8]], lost: Int) {
        var records: [[UInt8]] = []
        var lost = 0
        var last = lastSeq
        var at = offset + 1
        var pieces = CRC32Pieces(bytes, from: at, maxLength: InputJournal.maxRecord)
        while at + InputJournal.recordHeaderSize <= bytes.count {
            switch item(at: at, checksum: { range, from in pieces.crc32(of: range, from: from) }) {
            case .record(let seq, let text, let next)? where seq > last:
                // A seq in a damaged file can be anything up to UInt64.max: the count saturates rather than traps.
                lost = Int(clamping: UInt64(lost) + min(seq - last - 1, UInt64(Int.max)))
                records.append(Array(bytes[text]))
                last = seq
                at = next
            case .synced(_, let next)?:
                at = next
            default:
                at += 1
            }
        }
        return (records, lost)
    }

    private func integer<T: FixedWidthInteger>(at offset: Int, as: T.Type) -> T {
        var value = T.zero
        for i in 0..<MemoryLayout<T>.size { value |= T(bytes[offset + i]) << (8 * i) }
        return value
    }
}
