import Glibc
import System
import Text
import WireProtocol

/// A tab as the session file keeps it: its history and whether it was on screen.
public struct SavedTab: Equatable, Sendable {
    /// The browser's name for the tab, kept so that a restored tab is the same tab to whoever held its id.
    public var id: UInt64
    public var history: BackForwardList
    public var visible: Bool

    public init(id: UInt64, history: BackForwardList, visible: Bool) {
        self.id = id
        self.history = history
        self.visible = visible
    }
}

/// How far the editor's input journal had been saved: the journal is replayed to exactly this many records.
public struct JournalPosition: Equatable, Sendable {
    public var path: String
    /// Records synced when the session was saved; a journal found shorter lost inputs the session counted.
    public var records: UInt64

    public init(path: String, records: UInt64) {
        self.path = path
        self.records = records
    }
}

/// Everything a restarted supervisor restores: every tab, in order, and the journal's position.
public struct Session: Equatable, Sendable {
    public var tabs: [SavedTab]
    public var journal: JournalPosition?

    public init(tabs: [SavedTab] = [], journal: JournalPosition? = nil) {
        self.tabs = tabs
        self.journal = journal
    }
}

/// One tab as the session file holds it, checked but not decoded: its id and visibility are read, its history is
/// built only when asked for.
public struct SessionRecord: Sendable {
    public let id: UInt64
    public let visible: Bool
    /// The whole record, length and checksum included: what a save writes back while the tab is unchanged.
    let bytes: ArraySlice<UInt8>

    public var history: BackForwardList { SessionFile.history(of: bytes) }
    public var saved: SavedTab { SavedTab(id: id, history: history, visible: visible) }
}

/// A session file's tabs, checked, and its journal position.
public struct SessionRecords: Sendable {
    public let records: [SessionRecord]
    public let journal: JournalPosition?
    /// Where the whole-file part (header and one record per tab) ends, and where the last intact save appended
    /// after it ends: the next save goes there.
    let baseSize: Int
    let size: Int

    init(records: [SessionRecord], journal: JournalPosition?, baseSize: Int = 0, size: Int = 0) {
        self.records = records
        self.journal = journal
        self.baseSize = baseSize
        self.size = size
    }
}

/// The session on disk: a checksummed header, one checksummed record per tab, then the saves made since, each
/// holding only the tabs that changed.
///
/// ```
/// header  magic (8) · u16 version · u32 tab count · u8 journal present · u64 journal records
///         · u32 path length · path · u32 CRC-32 of every header byte before it
/// record  u32 payload length · u32 CRC-32 of the length and the payload · payload
/// payload u64 id · u8 flags (bit 0: visible) · u32 index · u32 entry count
///         · per entry: u32 URL length · URL · u32 title length · title
/// save    see `SessionFile+Saves`: the tab count, the journal position and the changed records by position
/// ```
///
/// Integers are little-endian. Each tab has its own record and checksum so that damage costs the tabs it touched,
/// not the session: decoding keeps every record that checks out and reports the rest as `SessionDamage`. A save
/// appends only what changed (a million tabs cost a save no more than the one that moved), and is applied whole
/// or not at all: a crash mid-save leaves a torn last save, which is ignored, so the file reads as it was after
/// the save before. Once the saves outgrow the records, the file is rewritten whole beside itself and renamed over
/// (`replace`), keeping the same promise.
public enum SessionFile {
    /// The first eight bytes. As in PNG's signature, the high byte catches a 7-bit channel and the newline a
    /// line-ending translation.
    static let magic: [UInt8] = [0x89] + Array("SVSESS".utf8) + [0x0A]
    /// Version 2 added the saves appended after the records; a version 1 file has none and reads as well.
    public static let version: UInt16 = 2
    static let versionsRead: ClosedRange<UInt16> = 1...2
    /// The longest URL, title or journal path kept, in UTF-8 bytes. `encode` cuts longer ones at a character
    /// boundary (a tab whose huge `data:` URL is saved cut is better than a tab lost), so that every file it
    /// writes decodes, and `decode` refuses longer ones as damage.
    public static let maxStringBytes = 64 * 1024

    // MARK: - Files

    /// The largest session file read: far beyond a million tabs of ordinary history, and a bound on what a file
    /// can make the supervisor allocate.
    public static let maxFileSize = 2 << 30

    /// Replaces the session `file` holds with a whole new one of `records` and `journal`, in one step, keeping the
    /// lock (see `LockedFile.replaceContents`), written a megabyte at a time: a million tabs are never copied into
    /// one buffer. Returns its size.
    static func replace(_ file: LockedFile, journal: JournalPosition?, records: [ArraySlice<UInt8>]) throws(SystemError) -> Int {
        let temporary = try TemporaryFile(beside: file.resolved, permissions: file.status.permissions)
        var written = 0
        var buffer = header(tabCount: records.count, journal: journal)
        for (i, record) in records.enumerated() {
            buffer += record
            guard buffer.count >= 1 << 20 || i == records.count - 1 else { continue }
            try Sys.write(buffer[...], to: temporary.fd, at: written)
            written += buffer.count
            buffer.removeAll(keepingCapacity: true)
        }
        if !buffer.isEmpty {
            try Sys.write(buffer[...], to: temporary.fd, at: written)
            written += buffer.count
        }
        try file.replace(with: temporary)
        return written
    }

    /// Writes a whole session to `path`, which must be nothing or a session file (unless `force`) of a version
    /// this supervisor reads, and must not be in use (a run holds its session locked): a newer version's file is a
    /// newer supervisor's to read, not this one's to write over. The new file takes the name whole, or nothing does
    /// (see `OutputFile`).
    public static func write(_ bytes: [UInt8], to path: String, force: Bool = false) throws(FileError) {
        if !force, let head = try? InputFile(path).head(magic.count + 2), head.count == magic.count + 2, isSessionFile(head) {
            let version = UInt16(head[magic.count]) | UInt16(head[magic.count + 1]) << 8
            guard versionsRead.contains(version) else {
                let refusal = SessionDamage(refusal: .unsupportedVersion(version), at: magic.count)
                throw FileError(path, "write", .changed("\(refusal); move it away or name another file"))
            }
        }
        let output = try OutputFile(path, kind: outputKind, force: force)
        try output.write(bytes)
        try output.commit(durable: true)
    }

    /// What `session create` writes.
    public static let outputKind = OutputKind(role: "the session", name: "a session file") { isSessionFile($0) }

    /// Reads and decodes the session at `path`. A file that is not there is an error whose `errno` is ENOENT,
    /// which a first start tells apart from a file it cannot read.
    public static func read(_ path: String) throws(FileError) -> (session: Session, damage: SessionDamage?) {
        decode(try readChecked(path))
    }

    /// Reads the session at `path` with `decodeRecords`: every tab checked, none decoded.
    public static func readRecords(_ path: String) throws(FileError) -> (records: SessionRecords, damage: SessionDamage?) {
        decodeRecords(try readChecked(path))
    }

    /// The bytes of the session file at `path`, or only its first bytes when they show it is not one: whose file
    /// it is is known before how big it is, so a file that is not a session is never read whole.
    private static func readChecked(_ path: String) throws(FileError) -> [UInt8] {
        let file = try InputFile(path)
        let head = try file.head(magic.count)
        return isSessionFile(head) ? try file.readAll(limit: maxFileSize) : head
    }

    /// Whether `head`, a file's first bytes, begins the way every session file does.
    static func isSessionFile(_ head: some Collection<UInt8>) -> Bool {
        head.starts(with: magic)
    }
}
