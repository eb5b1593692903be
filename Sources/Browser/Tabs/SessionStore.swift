import System

/// The session file a run browses: held locked for the whole run (a second supervisor naming it stops with "in
/// use by pid N"), read once when the run begins, and written back as tabs change.
public final class SessionStore {
    public let path: String
    /// nil when the session is only being looked at (`session restore`): it is then never written back.
    let file: LockedFile?
    /// How the next save is written.
    var layout = Layout.whole
    /// The tabs changed since the last save, by position.
    var changed: [Int: Tab] = [:]
    /// A save is due: something changed since the last one was begun.
    var dirty = false
    /// A save is on the disk queue and has not come back.
    var writing = false
    var lastSavedAt = 0
    /// The digest of the tabs as the file holds them after the last save begun.
    var digest = SessionDigest()
    /// Where saves are written, off the event loop; made with the first save.
    var queue: DiskQueue?

    enum Layout {
        /// The whole file, beside it, renamed over it: for a new session, a file restored with damage (its
        /// positions or its last bytes cannot be built on), and when the appended saves outgrow the records.
        case whole
        /// Only the tabs that changed, appended at `end`; the records end at `base`.
        case appending(base: Int, end: Int)
    }

    /// Takes the session at `path` for this run: created empty if nothing is there, refused if it is anything but
    /// a regular file or is in use.
    public init(path: String) throws(FileError) {
        self.path = path
        file = try LockedFile(path, leftovers: SessionFile.isSessionFile)
    }

    /// A session that is read but never written.
    public init(readOnly path: String) {
        self.path = path
        file = nil
    }

    /// What the file holds; nil when it holds nothing yet (a new session). A file that is not a session, or is
    /// of a version this supervisor does not read, is an error: saving over it would destroy it.
    public func read() throws(FileError) -> (records: SessionRecords, damage: SessionDamage?)? {
        guard let file else { return nil }
        let head = try file.head(SessionFile.magic.count)
        if head.isEmpty { return nil }
        // Whose file it is, before how big it is: a file that is not a session is never read whole.
        let bytes = SessionFile.isSessionFile(head) ? try file.readAll(limit: SessionFile.maxFileSize) : head
        let (records, damage) = SessionFile.decodeRecords(bytes)
        guard let damage, let refusal = damage.refusal else { return (records, damage) }
        throw FileError(path, "use", refusal == .notASessionFile
            ? .notOurs("a session file") : .changed("\(damage); move it away to start a new session"))
    }
}
