import System
import WireProtocol

extension SessionFile {
    /// The smallest record: length, checksum, id, flags, index and entry count. A tab count is never trusted
    /// beyond what the file's bytes could hold at this size.
    static let minimumRecordSize = 25

    // MARK: - Encoding

    /// The whole file for `session`.
    public static func encode(_ session: Session) -> [UInt8] {
        assemble(journal: session.journal, records: session.tabs.map { record(for: $0)[...] })
    }

    /// One tab's record, checksum included. A caller saving often keeps these and rebuilds only the changed
    /// tabs' before `assemble`.
    public static func record(for tab: SavedTab) -> [UInt8] {
        let entries = tab.history.entries
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            minimumRecordSize + entries.reduce(0) { $0 + 8 + $1.url.utf8.count + $1.title.utf8.count })
        append(UInt32(0), to: &bytes)
        append(UInt32(0), to: &bytes)
        append(tab.id, to: &bytes)
        bytes.append(tab.visible ? 1 : 0)
        append(UInt32(max(tab.history.index, 0)), to: &bytes)
        append(UInt32(entries.count), to: &bytes)
        for entry in entries {
            append(entry.url, to: &bytes)
            append(entry.title, to: &bytes)
        }
        store(UInt32(bytes.count - 8), in: &bytes, at: 0)
        store(crc32(bytes[8...], from: crc32(bytes[0..<4])), in: &bytes, at: 4)
        return bytes
    }

    /// The file: a header counting `records`, then the records as they are.
    public static func assemble(journal: JournalPosition?, records: [ArraySlice<UInt8>]) -> [UInt8] {
        var bytes = header(tabCount: records.count, journal: journal)
        bytes.reserveCapacity(bytes.count + records.reduce(0) { $0 + $1.count })
        for record in records { bytes += record }
        return bytes
    }

    /// The header of a file of `tabCount` records.
    static func header(tabCount: Int, journal: JournalPosition?) -> [UInt8] {
        var bytes = magic
        append(version, to: &bytes)
        append(UInt32(tabCount), to: &bytes)
        append(journal, to: &bytes)
        append(crc32(bytes), to: &bytes)
        return bytes
    }

    /// Where the editor's journal was when the session was saved: u8 present · u64 records · u32 path length · path.
    static func append(_ journal: JournalPosition?, to bytes: inout [UInt8]) {
        bytes.append(journal == nil ? 0 : 1)
        append(journal?.records ?? 0, to: &bytes)
        append(journal?.path ?? "", to: &bytes)
    }

    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        for i in 0..<MemoryLayout<T>.size { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * i))) }
    }

    static func store(_ value: UInt32, in bytes: inout [UInt8], at offset: Int) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
    }

    /// Appends the length and the UTF-8 of `string`, cut to `maxStringBytes` before the character that crosses it.
    private static func append(_ string: String, to bytes: inout [UInt8]) {
        let utf8 = string.utf8
        guard utf8.count > maxStringBytes else {
            append(UInt32(utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
            return
        }
        var end = utf8.index(utf8.startIndex, offsetBy: maxStringBytes)
        while UTF8.isContinuation(utf8[end]) { end = utf8.index(before: end) }
        append(UInt32(utf8.distance(from: utf8.startIndex, to: end)), to: &bytes)
        bytes.append(contentsOf: utf8[..<end])
    }

    // MARK: - Decoding

    /// Every tab the file still holds, and what was lost, if anything. Never traps and never allocates much more
    /// than the file's size, whatever the bytes.
    ///
    /// A header that fails (magic, version, bounds, checksum) restores nothing: its tab count and journal cannot
    /// be trusted. A record that fails its checksum or a bound is skipped, and the next one is found by its
    /// length. A file that ends early, or a record whose length runs past the file's end, ends the tabs there.
    public static func decode(_ bytes: [UInt8]) -> (session: Session, damage: SessionDamage?) {
        let (records, damage) = decodeRecords(bytes)
        return (Session(tabs: records.records.map(\.saved), journal: records.journal), damage)
    }

    /// Like `decode`, but each tab is only checked (its checksum, and every length and bound walked), not
    /// decoded: a restored tab's strings are built when something first reads its history, so restoring 10,000
    /// tabs builds none of the 40,000 strings nobody looks at.
    public static func decodeRecords(_ bytes: [UInt8]) -> (records: SessionRecords, damage: SessionDamage?) {
        let header: Header
        switch decodeHeader(bytes) {
        case .read(let decoded): header = decoded
        case .refused(let damage): return (SessionRecords(records: [], journal: nil), damage)
        }
        // By position: a damaged record leaves its place empty, so that later saves still find theirs.
        var slots: [SessionRecord?] = []
        slots.reserveCapacity(min(header.tabCount, (bytes.count - header.end) / minimumRecordSize))
        var skipped = 0
        var firstSkipped: Int?
        var truncatedAt: Int?
        var offset = header.end
        for _ in 0..<header.tabCount {
            guard let (record, end) = readRecord(bytes, at: offset, before: bytes.count) else {
                truncatedAt = offset
                break
            }
            if record == nil {
                skipped += 1
                if firstSkipped == nil { firstSkipped = offset }
            }
            slots.append(record)
            offset = end
        }
        var journal = header.journal
        let base = offset
        var saves = Saves(end: offset)
        if truncatedAt == nil { saves = applySaves(bytes, from: offset, to: &slots, journal: &journal) }
        let records = slots.compactMap { $0 }
        let damage = SessionDamage(
            restoredTabs: records.count, lostTabs: (truncatedAt == nil ? slots.count : header.tabCount) - records.count,
            skippedTabs: skipped, firstSkippedAt: firstSkipped, truncatedAt: truncatedAt,
            trailingBytes: truncatedAt == nil ? bytes.count - saves.end - saves.tornBytes : 0, trailingAt: saves.end,
            tornSaveBytes: saves.tornBytes)
        return (SessionRecords(records: records, journal: journal, baseSize: base, size: saves.end), damage)
    }

    /// The record at `offset`, checked: nil inside when it fails its checksum or a bound (it is skipped, and the
    /// next one found by its length), and nil altogether when its length runs past `limit`.
    static func readRecord(_ bytes: [UInt8], at offset: Int, before limit: Int) -> (SessionRecord?, end: Int)? {
        var reader = ByteReader(bytes[..<limit], from: offset)
        guard let length = reader.integer(UInt32.self), let checksum = reader.integer(UInt32.self),
            Int(length) <= reader.remaining
        else { return nil }
        let end = reader.offset + Int(length)
        guard crc32(bytes[reader.offset..<end], from: crc32(bytes[offset..<(offset + 4)])) == checksum else { return (nil, end) }
        return (checkTab(bytes[offset..<end]), end)
    }

    /// What a header that checked out says: how many records follow it, and where they start.
    private struct Header {
        var tabCount: Int
        var journal: JournalPosition?
        var end: Int
    }

    private enum HeaderOutcome {
        case read(Header)
        case refused(SessionDamage)
    }

    private static func decodeHeader(_ bytes: [UInt8]) -> HeaderOutcome {
        func refuse(_ refusal: SessionDamage.Refusal, at offset: Int) -> HeaderOutcome {
            .refused(SessionDamage(refusal: refusal, at: offset))
        }
        guard bytes.prefix(magic.count).elementsEqual(magic.prefix(bytes.count)) else {
            return refuse(.notASessionFile, at: 0)
        }
        guard bytes.count >= magic.count else { return refuse(.truncatedHeader, at: bytes.count) }
        var reader = ByteReader(bytes[...], from: magic.count)
        guard let version = reader.integer(UInt16.self) else { return refuse(.truncatedHeader, at: bytes.count) }
        guard Self.versionsRead.contains(version) else { return refuse(.unsupportedVersion(version), at: magic.count) }
        guard let tabCount = reader.integer(UInt32.self) else { return refuse(.truncatedHeader, at: bytes.count) }
        let journal: JournalPosition?
        switch reader.journal() {
        case .read(let position): journal = position
        case .truncated: return refuse(.truncatedHeader, at: bytes.count)
        case .outOfBounds(let offset): return refuse(.corruptHeader, at: offset)
        }
        let checked = reader.offset
        guard let checksum = reader.integer(UInt32.self) else { return refuse(.truncatedHeader, at: bytes.count) }
        guard crc32(bytes[0..<checked]) == checksum else { return refuse(.corruptHeader, at: 0) }
        return .read(Header(tabCount: Int(tabCount), journal: journal, end: reader.offset))
    }

    /// A record whose checksum passed, walked without building a string; nil when it breaks a bound or does not
    /// end where its length says.
    private static func checkTab(_ record: ArraySlice<UInt8>) -> SessionRecord? {
        var reader = ByteReader(record, from: record.startIndex + 8)
        // The run names a tab by an Int (the log, `session show --json`): an id past Int.max is out of bounds.
        guard let id = reader.integer(UInt64.self), id <= UInt64(Int.max), let flags = reader.integer(UInt8.self),
            reader.integer(UInt32.self) != nil, let count = reader.integer(UInt32.self), count <= BackForwardList.capacity
        else { return nil }
        for _ in 0..<(2 * count) {
            guard reader.skipBoundedString() else { return nil }
        }
        guard reader.remaining == 0 else { return nil }
        return SessionRecord(id: id, visible: flags & 1 == 1, bytes: record)
    }

    /// The history a checked record holds.
    static func history(of record: ArraySlice<UInt8>) -> BackForwardList {
        var reader = ByteReader(record, from: record.startIndex + 8 + 9)
        let index = reader.integer(UInt32.self) ?? 0
        let count = reader.integer(UInt32.self) ?? 0
        var entries: [HistoryEntry] = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let url = reader.boundedString(), let title = reader.boundedString() else { break }
            entries.append(HistoryEntry(url: url, title: title))
        }
        return BackForwardList(entries: entries, index: Int(index))
    }
}
