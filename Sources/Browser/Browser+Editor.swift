import Core
import Events
import System
import Text
import WireProtocol
import Vocabulary

/// The editor document: a view open for the whole run that the user types into, whose inputs survive any
/// worker's death (seed 001). See `Editor` for the bookkeeping and `InputJournal` for the disk.
extension Browser {
    package func openEditor() {
        guard let editor else { return }
        supervisor.shown(editor.load)
        log.emit(.editorOpen(restored: editor.restored))
        supervisor.open(editor.load)
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

    /// Called once per event-loop wake-up: the acknowledged inputs of this wake-up reach the disk together, and
    /// then the log says so (`journal-synced`, flushed in the same wake-up, after the sync returned). `final`, at
    /// the end of a run that did not fail, checks the journal even with nothing to write: one cut short after the
    /// last write is written again while the run still holds its inputs.
    package func syncJournal(final: Bool = false) {
        guard let editor, let journal = editor.journal else { return }
        let pending = journal.hasPending
        guard pending || (final && supervisor.failure == nil) else { return }
        do {
            let acked = Int(editor.acked)
            if let (found, written) = try journal.sync(inputs: editor.texts.prefix(acked)) {
                fileRewritten(.journal, journal.path, found: found, written: written, from: counted(acked, "input"))
            }
            guard pending else { return }
            editor.synced()
            log.emit(.journalSynced(
                records: Int(editor.saved), typed: editor.typed, digest: String(editor.ackedDigest, radix: 16)))
        } catch {
            supervisor.abort(because: error.description)
        }
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
        syncJournal()
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
