import Events
import LogAnalysis
import System
import WireProtocol

/// The editor document: a view open for the whole run that the user types into, whose inputs survive any
/// worker's death (seed 001). See `Editor` for the bookkeeping and `InputJournal` for the disk.
extension Host {
    func openEditor() {
        guard let editor else { return }
        let load = editor.load
        load.sight = .shown(at: clock.now)
        log.emit(.editorOpen(restored: editor.restored))
        openView(for: load)
        typeNext()
    }

    /// Types one input per interval until the editor is finishing; a tick on which the worker is a window of
    /// inputs behind types nothing (see `Editor.window`).
    func typeNext() {
        guard let editor, !editor.finishing else { return }
        typingTimer = clock.schedule(afterNanoseconds: configuration.typingIntervalNanoseconds) { [weak self] in
            guard let self, let editor = self.editor, !editor.finishing else { return }
            if editor.type() { deliverInputs() }
            typeNext()
        }
    }

    /// The editor's worker rendered the editor page: it gets the saved document and the inputs still owed.
    func editorShown(_ view: View) {
        guard let editor, let worker = view.worker, editor.worker !== worker else { return }
        for (seq, text) in editor.attach(worker) {
            send(.input(seq: seq, text: String(decoding: text, as: UTF8.self)), to: worker)
        }
        finishEditorIfDone()
    }

    func deliverInputs() {
        guard let editor, let worker = editor.worker, worker.channelOpen else { return }
        for (seq, text) in editor.unsent() {
            send(.input(seq: seq, text: String(decoding: text, as: UTF8.self)), to: worker)
        }
    }

    func inputApplied(seq: UInt64, digest: UInt64, by worker: WorkerProcess) {
        guard let editor, editor.worker === worker, editor.applied(seq: seq, digest: digest) else {
            return unsolicited(.inputApplied(seq: seq, digest: digest), from: worker)
        }
        finishEditorIfDone()
    }

    /// The editor's worker died: whatever it was sent and did not acknowledge goes to the next one.
    func editorWorkerDied(_ worker: WorkerProcess) {
        guard let editor, editor.worker === worker else { return }
        editor.detach()
        if editor.finishing && stopping { concludeEditor() }
    }

    /// Called once per event-loop wake-up: the acknowledged inputs of this wake-up reach the disk together.
    func syncJournal() {
        guard let editor, let journal = editor.journal, journal.hasPending else { return }
        do {
            try journal.sync()
            editor.synced()
        } catch {
            abort(because: error.description)
        }
    }

    /// Stops typing; once every input is acknowledged, the worker is asked for its document, and the run can end.
    /// However the editor fares, it is audited within the hang timeout and the shutdown grace: the run's end is
    /// bounded.
    func finishEditor() {
        guard let editor, !editor.finishing else { return }
        editor.finishing = true
        clock.cancel(typingTimer)
        if editor.worker == nil && stopping { return concludeEditor() }
        let bound = configuration.hangTimeoutNanoseconds + configuration.shutdownGraceNanoseconds
        clock.schedule(afterNanoseconds: bound) { [weak self] in self?.concludeEditor() }
        finishEditorIfDone()
    }

    func finishEditorIfDone() {
        guard let editor, editor.finishing, editor.final == nil, editor.allAcknowledged, let worker = editor.worker,
            worker.channelOpen
        else { return }
        send(.documentQuery, to: worker)
    }

    /// The first piece of the document a worker reports. However long the document, it arrives whole; a length
    /// no editor could have is refused before any more of it is buffered.
    func documentBegun(length: Int, _ text: [UInt8], from worker: WorkerProcess) {
        let limit = editor?.longestPlausibleDocument ?? pieceBytes
        guard length <= limit else {
            return violation(by: worker, "a document of \(length) bytes, where at most \(limit) could be expected")
        }
        guard text.count == length else { return worker.incoming = .document(length: length, text: text) }
        documentReceived(text, from: worker)
    }

    func documentReceived(_ text: [UInt8], from worker: WorkerProcess) {
        guard let editor, editor.worker === worker, editor.finishing, editor.final == nil else {
            return unsolicited(.document(length: UInt32(truncatingIfNeeded: text.count), text: []), from: worker)
        }
        editor.final = text
        concludeEditor()
    }

    /// Audits the document against everything typed, then lets the editor's view and worker go.
    func concludeEditor() {
        guard let editor, !editor.concluded else { return }
        editor.concluded = true
        syncJournal()
        let audit = editor.audit()
        log.emit(.editor(EditorAudit(
            typed: editor.typed, restored: editor.restored, acknowledged: Int(editor.acked),
            saved: editor.journal == nil ? nil : Int(editor.saved), replayed: editor.replayed, lostInputs: audit.lost,
            duplicateInputs: audit.duplicate, mismatches: editor.mismatches, intact: audit.intact,
            documentFrom: editor.final == nil ? "journal" : "worker", tornBytesDropped: editor.journal?.tornBytes ?? 0,
            deferred: editor.deferred)))
        if let view = editor.load.view, !view.closed { closeView(view) }
    }
}
