import WireProtocol

/// The session file a run browses: held locked for the whole run (a second supervisor naming it stops with "in
/// use by pid N"), read once when the run begins, and written back as tabs change.
public final class SessionStore {
    public let path: String
    /// nil when the session is only being looked at (`session restore`): it is then never written back.
    let file: LockedFile?
    var dirty = false
    var lastSavedAt = 0
    var saves = 0

    /// Takes the session at `path` for this run: created empty if nothing is there, refused if it is anything but
    /// a regular file or is in use.
    public init(path: String) throws(FileError) {
        self.path = path
        file = try LockedFile(path)
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
        switch damage?.refusal {
        case nil: return (records, damage)
        case .notASessionFile?: throw FileError(path, "use", .notOurs("a session file"))
        case .some: throw FileError(path, "use", .changed("\(damage!); move it away to start a new session"))
        }
    }
}

/// The session file: every tab's history, index and visibility, plus the editor journal's position, restored
/// when the run begins and written back (whole, atomically, at most once per save interval) as tabs change.
extension Host {
    /// Takes over the tabs of `saved`, none of them realized (`run()` realizes the visible one) and none decoded
    /// until read. Error pages saved by an earlier launch carry its key; they are given this launch's, since the
    /// file is the supervisor's own and checksummed, and nothing else can put an internal URL into history.
    public func restore(_ saved: SessionRecords, damage: SessionDamage? = nil, into store: SessionStore) {
        session = store
        let internalOrigin = Array(InternalURL.origin.utf8)
        tabs = saved.records.map { record in
            let tab = Tab(record)
            if Sys.firstIndex(of: internalOrigin, in: record.bytes.span) != nil {
                tab.history = BackForwardList(
                    entries: tab.history.entries.map { HistoryEntry(url: rekeyed($0.url), title: $0.title) },
                    index: tab.history.index)
            }
            return tab
        }
        var fields: [(String, JSON)] = [("tabs", .int(tabs.count)), ("journalRecords", saved.journal.map { .int(Int($0.records)) } ?? .null)]
        if store.file != nil { fields.append(("digest", .string(Self.digest(saved.records.map(\.bytes))))) }
        if let damage { fields.append(("damage", .string(damage.description))) }
        log.emit("session-restored", fields)
        if let expected = saved.journal?.records, let editor, let journal = editor.journal, UInt64(journal.recovered.count) < expected {
            log.emit("journal-behind", [("saved", .int(Int(expected))), ("found", .int(journal.recovered.count))])
            printError(
                "supervisor: warning: the session says \(expected) typed inputs were saved, but journal "
                    + "'\(journal.path)' holds \(journal.recovered.count); the rest are lost")
        }
    }

    /// Starts a new session of `count` tabs, one per page of the rotation in turn, the first one visible.
    public func startSession(tabs count: Int, into store: SessionStore) {
        session = store
        tabs = (0..<count).map { i in
            let url = content.pages[i % content.pages.count]
            return Tab(id: UInt64(i + 1), history: BackForwardList(entries: [HistoryEntry(url: url, title: "")], index: 0), visible: i == 0)
        }
        log.emit("session-created", [("tabs", .int(count))])
        sessionChanged()
    }

    private func rekeyed(_ url: String) -> String {
        guard let parsed = WebURL(url), parsed.path == InternalURL.errorPagePath, let original = parsed.queryValue("url") else {
            return url
        }
        return InternalURL.errorPage(for: original, code: parsed.queryValue("code").flatMap { Int($0) } ?? 0, key: launchKey)
    }

    /// Something a session file holds changed: it is written once the save interval since the last write is up.
    func sessionChanged() {
        guard let session, session.file != nil, !session.dirty else { return }
        session.dirty = true
        let due = max(session.lastSavedAt + configuration.sessionSaveIntervalNanoseconds, Sys.monotonicNanoseconds())
        loop.schedule(at: due) { [weak self] in self?.saveSession() }
    }

    /// Writes every tab (re-encoding only those that changed) and the journal's position, atomically.
    func saveSession() {
        guard let session, let file = session.file, session.dirty else { return }
        session.dirty = false
        let start = Sys.monotonicNanoseconds()
        let records = tabs.map { tab in
            if let record = tab.record { return record }
            let record = SessionFile.record(for: tab.saved)[...]
            tab.record = record
            return record
        }
        let journal = editor.flatMap { editor in
            editor.journal.map { JournalPosition(path: $0.path, records: editor.saved) }
        }
        let bytes = SessionFile.assemble(journal: journal, records: records)
        do {
            try file.checkInPlace()
            try SessionFile.replace(file, with: bytes)
        } catch let error as FileError {
            return abort(because: error.description)
        } catch {
            return abort(because: "cannot write the session file '\(session.path)': \(error)")
        }
        let now = Sys.monotonicNanoseconds()
        session.lastSavedAt = now
        session.saves += 1
        log.emit("session-saved", [
            ("tabs", .int(tabs.count)), ("bytes", .int(bytes.count)), ("digest", .string(Self.digest(records))),
            ("journalRecords", journal.map { .int(Int($0.records)) } ?? .null), ("writeMs", JSON.milliseconds(now - start)),
        ])
    }

    /// One digest of the tabs' records: equal digests, equal tabs (histories, indexes, visibility).
    static func digest(_ records: [ArraySlice<UInt8>]) -> String {
        let value = records.reduce(documentDigestBasis) { documentDigest($1, from: $0) }
        return String(value, radix: 16)
    }
}
