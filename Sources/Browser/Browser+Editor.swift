import Core
import Events
import System
import Text
import WireProtocol
import Vocabulary

/// The editor document: a view open for the whole run that the user types into, whose inputs survive any
/// worker's death (seed 001). See `Editor` for the bookkeeping and `InputJournal` for the disk.
extension Browser {
    /// Opens the editor's view with a new worker, or with the worker taken back that holds its document already
    /// (`adopting`, checked by `reclaimed`).
    package func openEditor(adopting reclaimed: (worker: Worker, page: WorkerClaim)? = nil) {
        guard let editor, editor.load.view == nil else { return }
        supervisor.shown(editor.load)
        log.emit(.editorOpen(restored: editor.restored))
        supervisor.open(editor.load, adopting: reclaimed)
    }

    /// The user types one input, unless the worker is a window of inputs behind (see `Editor.window`).
    package func type() {
        guard let editor, !editor.finishing, editor.type() else { return }
        deliverInputs()
    }

    /// The editor's worker rendered the editor page: it gets the saved document and the inputs still owed.
    func editorShown(_ view: View) {
        guard let editor, let worker = view.worker, editor.worker !== worker else { return }
        for (seq, text) in editor.attach(worker) {
            supervisor.send(.input(seq: seq, text: String(decoding: text, as: UTF8.self)), to: worker)
        }
        finishEditorIfDone()
    }

    func deliverInputs() {
        guard let editor, let worker = editor.worker, worker.channelOpen else { return }
        for (seq, text) in editor.unsent() {
            supervisor.send(.input(seq: seq, text: String(decoding: text, as: UTF8.self)), to: worker)
        }
    }

    /// False for an acknowledgement the editor did not expect.
    func inputApplied(seq: UInt64, digest: UInt64, by worker: Worker) -> Bool {
        guard let editor, editor.worker === worker, editor.applied(seq: seq, digest: digest) else { return false }
        finishEditorIfDone()
        return true
    }

    /// A worker died: if it was the editor's, whatever it was sent and did not acknowledge goes to the next one.
    package func workerDied(_ worker: Worker) {
        guard let editor, editor.worker === worker else { return }
        editor.detach()
        if editor.finishing && stopping { concludeEditor() }
    }

    /// Called once per event-loop wake-up: the inputs acknowledged since the last sync go to the journal's disk
    /// thread together (a group commit), unless a sync is there already; then those wait for it to come back. Once
    /// the disk has them, the log says so (`journal-synced`, flushed in the wake-up that learnt it).
    package func syncJournal() {
        guard let editor, let journal = editor.journal, journal.hasPending, !journal.syncing, supervisor.failure == nil
        else { return }
        let (acked, typed, digest) = (editor.acked, editor.typed, editor.ackedDigest)
        do throws(SystemError) {
            try journal.beginSync(on: loop) { [weak self] result in
                self?.journalSynced(result, through: acked, typed: typed, digest: digest)
            }
        } catch {
            supervisor.abort(because: "cannot save the input journal '\(journal.path)': \(error)")
        }
    }

    private func journalSynced(
        _ result: Result<(found: Int, written: Int)?, FileError>, through acked: UInt64, typed: Int, digest: UInt64
    ) {
        guard let editor, let journal = editor.journal else { return }
        do throws(FileError) {
            if let (found, written) = try result.get() {
                try journal.rewrite(editor.texts.prefix(Int(acked)))
                journalRewritten(found: found, written: written, holding: acked)
            }
        } catch {
            return supervisor.abort(because: error.description)
        }
        journalSaved(through: acked, typed: typed, digest: digest)
        syncJournal()
    }

    /// Waits for the journal's sync on the disk thread, then syncs what is left on this one, as the run ends or the
    /// editor is audited. `final`, at the end of a run that did not fail, checks the journal even with nothing to
    /// write: one cut short after the last write is written again while the run still holds its inputs.
    package func syncJournalNow(final: Bool = false) {
        guard let editor, let journal = editor.journal else { return }
        journal.waitForSync()
        let pending = journal.hasPending
        guard supervisor.failure == nil, pending || final else { return }
        do {
            let acked = editor.acked
            if let (found, written) = try journal.sync(inputs: editor.texts.prefix(Int(acked))) {
                journalRewritten(found: found, written: written, holding: acked)
            }
            guard pending else { return }
            journalSaved(through: acked, typed: editor.typed, digest: editor.ackedDigest)
        } catch {
            supervisor.abort(because: error.description)
        }
    }

    /// The journal holds inputs 1…`acked` on the disk: the log says so.
    private func journalSaved(through acked: UInt64, typed: Int, digest: UInt64) {
        editor?.synced(through: acked)
        log.emit(.journalSynced(records: Int(acked), typed: typed, digest: String(digest, radix: 16)))
    }

    /// Another process had cut the journal short or written to it; it was written again whole.
    private func journalRewritten(found: Int, written: Int, holding acked: UInt64) {
        guard let path = editor?.journal?.path else { return }
        fileRewritten(.journal, path, found: found, written: written, from: counted(Int(acked), "input"))
    }

    /// Stops typing; once every input is acknowledged, the worker is asked for its document, and the run can end.
    /// However the editor fares, it is audited within the hang timeout and the shutdown grace: the run's end is
    /// bounded.
    package func finishEditor() {
        guard let editor, !editor.finishing else { return }
        editor.finishing = true
        editorFinishing()
        if editor.worker == nil && stopping { return concludeEditor() }
        let bound = supervisor.settings.hangTimeoutNanoseconds + supervisor.settings.shutdownGraceNanoseconds
        clock.schedule(afterNanoseconds: bound) { [weak self] in self?.concludeEditor() }
        finishEditorIfDone()
    }

    /// The editor's view is done with (its page failed, or the supervisor gave up on it).
    func endEditor() {
        guard let view = editor?.load.view, !view.closed else { return }
        finishEditor()
        concludeEditor()
    }

    func finishEditorIfDone() {
        guard let editor, editor.finishing, editor.final == nil, editor.allAcknowledged, let worker = editor.worker,
            worker.channelOpen
        else { return }
        supervisor.send(.documentQuery, to: worker)
    }

    /// The document the editor's worker reported, whole; false if nothing asked for it.
    func documentReceived(_ text: [UInt8], from worker: Worker) -> Bool {
        guard let editor, editor.worker === worker, editor.finishing, editor.final == nil else { return false }
        editor.final = text
        concludeEditor()
        return true
    }

    /// Whether the editor, if there is one, is done: audited and closed.
    package var editorConcluded: Bool { editor?.concluded != false }

    /// The worker the editor's audit waits on as the run stops: it goes once it has reported its document.
    package var reportingWorker: Worker? { editor?.concluded == false ? editor?.worker : nil }

    /// Audits the document against everything typed, then lets the editor's view and worker go.
    package func concludeEditor() {
        guard let editor, !editor.concluded else { return }
        editor.concluded = true
        syncJournalNow()
        let audit = editor.audit()
        log.emit(.editor(EditorAudit(
            typed: editor.typed, restored: editor.restored, acknowledged: Int(editor.acked),
            saved: editor.journal == nil ? nil : Int(editor.saved), replayed: editor.replayed, lostInputs: audit.lost,
            duplicateInputs: audit.duplicate, mismatches: editor.mismatches, intact: audit.intact,
            documentFrom: editor.final == nil ? .journal : .worker, tornBytesDropped: editor.journal?.tornBytes ?? 0,
            deferred: editor.deferred)))
        if let view = editor.load.view, !view.closed { supervisor.close(view) }
    }
}
