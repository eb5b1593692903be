import Events
import Core
import System
import Text
import WireProtocol
import Vocabulary

/// The session file: every tab's history, index and visibility, plus the editor journal's position, restored
/// when the run begins and saved as tabs change, at most once per save interval: only the tabs that changed,
/// appended, and written off the event loop (see `SessionStore` and `SessionFile+Saves`).
extension Browser {
    /// Takes over the tabs of `saved`, none of them realized (the visible one is realized when it is shown) and none decoded
    /// until read. Error pages saved by an earlier launch carry its key; they are given this launch's, since the
    /// file is the supervisor's own and checksummed, and nothing else can put an internal URL into history.
    package func restore(_ saved: SessionRecords, damage: SessionDamage? = nil, into store: SessionStore) {
        session = store
        let internalOrigin = Array(InternalURL.origin.utf8)
        tabs = saved.records.enumerated().map { position, record in
            let tab = Tab(record)
            tab.position = position
            if Sys.firstIndex(of: internalOrigin, in: record.bytes.span) != nil {
                tab.history = BackForwardList(
                    entries: tab.history.entries.map { HistoryEntry(url: rekeyed($0.url), title: $0.title) },
                    index: tab.history.index)
                store.changed[position] = tab
            }
            return tab
        }
        var digest: String?
        if store.file != nil {
            store.digest = SessionDigest(saved.records.map(\.bytes))
            // Saves are appended to an intact file; a damaged one is written whole first.
            store.layout = damage == nil ? .appending(base: saved.baseSize, end: saved.size) : .whole
            store.dirty = !store.changed.isEmpty || damage != nil
            if store.dirty { scheduleSave(store) }
            digest = store.digest.value
        }
        log.emit(.sessionRestored(
            tabs: tabs.count, journalRecords: saved.journal.map { Int($0.records) }, digest: digest,
            damage: damage?.description))
        if let expected = saved.journal?.records, let editor, let journal = editor.journal, UInt64(journal.recovered.count) < expected {
            log.emit(.journalBehind(saved: Int(expected), found: journal.recovered.count))
            printError(
                "supervisor: warning: the session says \(expected) typed inputs were saved, but journal "
                    + "'\(journal.path)' holds \(journal.recovered.count); the rest are lost")
        }
    }

    /// Starts a new session of `count` tabs, one per page of the rotation in turn, the first one visible.
    package func startSession(tabs count: Int, into store: SessionStore) {
        session = store
        tabs = (0..<count).map { i in
            let url = content.pages[i % content.pages.count]
            let tab = Tab(id: UInt64(i + 1), history: BackForwardList(entries: [HistoryEntry(url: url, title: "")], index: 0), visible: i == 0)
            tab.position = i
            return tab
        }
        log.emit(.sessionCreated(tabs: count))
        sessionChanged()
    }

    /// Checks each entry of `tab` against this launch's navigation policy before a worker is given them, once, as
    /// the tab is realized (a restored tab is not even decoded before). The file may hold what an earlier launch
    /// allowed and this one does not (another `--allow-host`), or what a lying worker once committed. Each entry
    /// refused becomes the error page standing for it, as a navigation refused on its way would leave it: the
    /// worker loads that page instead, and reloading it asks the policy again.
    func screenHistory(of tab: Tab) {
        let history = tab.history
        var entries = history.entries
        var refused = false
        for (position, entry) in history.entries.enumerated() {
            let decision = decision(tab, .backForward, .main, entry.url)
            guard decision.verdict != .allow else { continue }
            record(decision, tab, .backForward, .main, entry.url)
            var page = InternalURL.errorPage(for: entry.url, code: Self.refusedCode, key: launchKey)
            if page.utf8.count > maxURLBytes {
                // Percent-encoded, a long URL outgrows the page's own: the page names its origin alone.
                let origin = WebURL(entry.url).map { "\($0.scheme)://\($0.host)/" } ?? ""
                page = InternalURL.errorPage(for: origin, code: Self.refusedCode, key: launchKey)
            }
            entries[position] = HistoryEntry(url: page, title: "")
            refused = true
        }
        guard refused else { return }
        tab.history = BackForwardList(entries: entries, index: history.index)
        sessionChanged(tab)
    }

    /// The error page's code for an entry the navigation policy refused: 403, as the scheme handler refuses.
    static let refusedCode = 403

    private func rekeyed(_ url: String) -> String {
        guard let parsed = WebURL(url), parsed.path == InternalURL.errorPagePath, let original = parsed.queryValue("url") else {
            return url
        }
        return InternalURL.errorPage(for: original, code: parsed.queryValue("code").flatMap { Int($0) } ?? 0, key: launchKey)
    }

    /// Something a session file holds changed (in `tabs`, or the journal's position): it is written once the
    /// save interval since the last save is up.
    func sessionChanged(_ tabs: Tab...) {
        guard let session, session.file != nil else { return }
        for tab in tabs { session.changed[tab.position] = tab }
        guard !session.dirty else { return }
        session.dirty = true
        scheduleSave(session)
    }

    private func scheduleSave(_ session: SessionStore) {
        let due = max(session.lastSavedAt + settings.sessionSaveIntervalNanoseconds, clock.now)
        clock.schedule(at: due) { [weak self] in self?.saveSession() }
    }

    /// Begins a save of what changed, written off the loop: only the changed tabs, appended, or the whole file
    /// when its layout says so. One save is written at a time; changes meanwhile wait for the next.
    package func saveSession() {
        guard let session, let file = session.file, session.dirty, !session.writing, supervisor.failure == nil else { return }
        do {
            if session.queue == nil { session.queue = try DiskQueue(loop: loop) }
        } catch {
            return supervisor.abort(because: "cannot save the session '\(session.path)': \(error)")
        }
        session.dirty = false
        let start = clock.now
        let journal = editor.flatMap { editor in editor.journal.map { JournalPosition(path: $0.path, records: editor.saved) } }
        let write: @Sendable () throws -> Written
        let whole: Bool
        switch session.layout {
        case .appending(let base, let end) where end - base < max(base, settings.sessionRewriteGrowth):
            let changes = session.changed.sorted { $0.key < $1.key }.map { position, tab in
                let record = savedRecord(of: tab)
                session.digest.set(record, at: position)
                return (position, record)
            }
            let bytes = SessionFile.save(tabCount: tabs.count, journal: journal, changes: changes)
            whole = false
            write = {
                try file.checkInPlace()
                try Sys.write(bytes[...], to: file.fd, at: end)
                try Sys.dataSync(file.fd)
                if let found = try file.checkInPlace(written: end + bytes.count) {
                    return .changed(found: found, written: end + bytes.count)
                }
                return .appended(bytes.count)
            }
        default:
            let records = tabs.map(savedRecord)
            session.digest = SessionDigest(records)
            whole = true
            write = {
                try file.checkInPlace()
                return .appended(try SessionFile.replace(file, journal: journal, records: records))
            }
        }
        session.changed = [:]
        session.writing = true
        let encoded = clock.now
        let outcome = SaveOutcome()
        session.queue?.submit({ outcome.result = Result { try write() } }) { [weak self] in
            self?.saved(outcome, whole: whole, journal: journal, began: start, encoded: encoded)
        }
    }

    /// The record `tab` is saved as, encoded now if it changed since it was last.
    private func savedRecord(of tab: Tab) -> ArraySlice<UInt8> {
        if let record = tab.record { return record }
        let record = SessionFile.record(for: tab.saved)[...]
        tab.record = record
        return record
    }

    /// A save came back from the disk.
    private func saved(_ outcome: SaveOutcome, whole: Bool, journal: JournalPosition?, began start: Int, encoded: Int) {
        guard let session else { return }
        session.writing = false
        let bytes: Int
        switch outcome.result {
        case .success(.appended(let written))?: bytes = written
        case .success(.changed(let found, let written))?:
            fileRewritten(.session, session.path, found: found, written: written, from: counted(tabs.count, "tab"))
            session.layout = .whole
            session.dirty = true
            return saveSession()
        case .failure(let error as FileError)?: return supervisor.abort(because: error.description)
        case .failure(let error)?: return supervisor.abort(because: "cannot write the session file '\(session.path)': \(error)")
        case nil: return supervisor.abort(because: "the session save to '\(session.path)' never ran")
        }
        switch session.layout {
        case .appending(let base, let end) where !whole: session.layout = .appending(base: base, end: end + bytes)
        default: session.layout = .appending(base: bytes, end: bytes)
        }
        let now = clock.now
        session.lastSavedAt = now
        log.emit(.sessionSaved(.init(
            tabs: tabs.count, whole: whole, bytes: bytes, digest: session.digest.value,
            journalRecords: journal.map { Int($0.records) }, loopMs: milliseconds(encoded - start),
            writeMs: milliseconds(now - encoded))))
        if session.dirty { scheduleSave(session) }
    }

    /// Saves what is left and waits for every save to reach the disk: the run's last step before it ends. A
    /// file cut short after the last save is written again, while the run still holds its tabs.
    package func finishSession() {
        guard let session, let file = session.file else { return }
        session.queue?.drain()
        if !session.dirty, supervisor.failure == nil, case .appending(_, let end) = session.layout {
            do throws(FileError) {
                if let found = try file.checkInPlace(written: end) {
                    fileRewritten(.session, session.path, found: found, written: end, from: counted(tabs.count, "tab"))
                    session.layout = .whole
                    session.dirty = true
                }
            } catch {
                return supervisor.abort(because: error.description)
            }
        }
        saveSession()
        session.queue?.drain()
    }

    /// Says that another process cut `file` (the session or the journal) short or wrote to it during the run, and
    /// that the run wrote it again whole `from` what it holds.
    func fileRewritten(_ file: BrowsingFile, _ path: String, found: Int, written: Int, from holding: String) {
        log.emit(.fileRewritten(file: file, foundBytes: found, writtenBytes: written))
        let cause = found < written ? "another process cut it short" : "another process wrote to it"
        printError(
            "supervisor: warning: \(file.rawValue) '\(visible(path))' held \(grouped(found)) \(found == 1 ? "byte" : "bytes"), not the \(grouped(written)) the "
                + "run had written: \(cause) during the run; it was written again whole from the \(holding) the run holds")
    }
}

/// What a save's job, run on the disk queue's thread, hands back to the loop.
private final class SaveOutcome: @unchecked Sendable {
    var result: Result<Written, Error>?
}

/// What a save's write found.
private enum Written {
    /// The save's bytes reached the file, which holds what the run wrote.
    case appended(Int)
    /// The file held `found` bytes after the save, not the `written` the run wrote: another process cut it short
    /// or wrote to it.
    case changed(found: Int, written: Int)
}
