import System

/// Saves appended after a session file's records, each holding only what changed since the save before it.
///
/// ```
/// save    tag "SVUP" · u32 length of what follows · u32 tab count · u8 journal present · u64 journal records
///         · u32 path length · path · u32 change count · per change: u32 position · record
///         · u32 CRC-32 of every byte of the save before it
/// ```
///
/// A save is applied whole or not at all. One the file holds only part of (its length runs past the end, or its
/// checksum fails where it reaches the end) is the trace of a crash during that save: it is ignored, and the
/// session is what the save before it made. Anything else that breaks the chain is damage: the saves before it
/// stand, and the bytes from it on are reported.
extension SessionFile {
    static let saveTag: [UInt8] = Array("SVUP".utf8)

    /// One save: the tab count now, the journal's position, and the records of the tabs that changed, by their
    /// position among the tabs (a position at or past the old count adds a tab).
    static func save(tabCount: Int, journal: JournalPosition?, changes: [(position: Int, record: ArraySlice<UInt8>)]) -> [UInt8] {
        var bytes = saveTag
        append(UInt32(0), to: &bytes)
        append(UInt32(tabCount), to: &bytes)
        append(journal, to: &bytes)
        append(UInt32(changes.count), to: &bytes)
        for change in changes {
            append(UInt32(change.position), to: &bytes)
            bytes += change.record
        }
        store(UInt32(bytes.count - 8 + 4), in: &bytes, at: 4)
        append(crc32(bytes), to: &bytes)
        return bytes
    }

    /// What reading the saves found: where the last intact one ends, and the bytes of a torn last one.
    struct Saves {
        var end: Int
        var tornBytes = 0
    }

    /// Applies every intact save from `offset` on to `slots` (the records by position) and `journal`.
    static func applySaves(
        _ bytes: [UInt8], from offset: Int, to slots: inout [SessionRecord?], journal: inout JournalPosition?
    ) -> Saves {
        var saves = Saves(end: offset)
        while bytes.count - saves.end >= 8, bytes[saves.end..<(saves.end + 4)].elementsEqual(saveTag) {
            var reader = ByteReader(bytes[...], from: saves.end + 4)
            let length = Int(reader.integer(UInt32.self)!)
            let start = saves.end
            let end = reader.offset + length
            guard length >= 4, end <= bytes.count else {
                saves.tornBytes = bytes.count - start
                break
            }
            let checksum = Int(bytes[end - 4]) | Int(bytes[end - 3]) << 8 | Int(bytes[end - 2]) << 16 | Int(bytes[end - 1]) << 24
            guard crc32(bytes[start..<(end - 4)]) == UInt32(checksum) else {
                // A crash can leave garbage in the extent of the last write; before the end, it is damage.
                if end == bytes.count { saves.tornBytes = bytes.count - start }
                break
            }
            guard let (count, position, changes) = read(bytes, reader, before: end - 4, tabs: slots.count) else { break }
            if count < slots.count { slots.removeSubrange(count...) }
            slots += [SessionRecord?](repeating: nil, count: max(0, count - slots.count))
            for (index, record) in changes { slots[index] = record }
            journal = position
            saves.end = end
        }
        // A crash in the first bytes of a save leaves part of its tag, or an extent the data never reached.
        let rest = bytes[(saves.end + saves.tornBytes)...]
        if saves.tornBytes == 0, !rest.isEmpty,
            rest.count < 8 && saveTag.starts(with: rest.prefix(4)) || rest.allSatisfy({ $0 == 0 })
        {
            saves.tornBytes = rest.count
        }
        return saves
    }

    /// The fields of a save whose checksum passed, applied to `tabs` tabs; nil when one breaks a bound.
    ///
    /// Every tab a save adds is among its changes, as the writer makes it. A save counting tabs it holds no
    /// record of is damage: its count would otherwise size the tabs (a 64-byte save claiming four billion of them
    /// made the decoder allocate 206 GB) and leave tabs lost with no damage that names them.
    private static func read(_ bytes: [UInt8], _ start: ByteReader, before limit: Int, tabs: Int)
        -> (count: Int, journal: JournalPosition?, changes: [(Int, SessionRecord)])?
    {
        var reader = ByteReader(bytes[..<limit], from: start.offset)
        guard let count = reader.integer(UInt32.self), case .read(let journal) = reader.journal(),
            let changeCount = reader.integer(UInt32.self), Int(changeCount) <= reader.remaining / (4 + minimumRecordSize),
            Int(count) - tabs <= Int(changeCount)
        else { return nil }
        var changes: [(Int, SessionRecord)] = []
        var added = Set<Int>()
        var offset = reader.offset
        for _ in 0..<changeCount {
            var position = ByteReader(bytes[..<limit], from: offset)
            guard let index = position.integer(UInt32.self), index < count,
                let (record, end) = readRecord(bytes, at: position.offset, before: limit), let record
            else { return nil }
            changes.append((Int(index), record))
            if Int(index) >= tabs { added.insert(Int(index)) }
            offset = end
        }
        guard offset == limit, added.count == max(0, Int(count) - tabs) else { return nil }
        return (Int(count), journal, changes)
    }
}
