import Core
import WireProtocol

/// Workers taken back after the supervisor's restart (`run --keep-workers`, issue 34): each is adopted into the
/// tab whose saved state it matches, which it then shows without loading anything again, or refused and killed.
extension Browser {
    /// Where the worker taken back belongs (`Adoption.place`). A tab whose saved list the navigation policy now
    /// refuses part of is restored as it would be without the worker: the worker's list no longer matches it.
    func reclaimed(_ worker: Worker, _ claim: WorkerClaim) {
        guard !stopping else { return supervisor.refuse(worker, because: "the run is stopping") }
        if claim.url == ContentProvider.editorURL, let editor { return reclaimed(worker, claim, editor: editor) }
        switch Adoption.place(claim, among: tabs, isTaken: \.realized) {
        case .refused(let reason): supervisor.refuse(worker, because: reason)
        case .tab(let id):
            guard let tab = tabs.first(where: { $0.id == id }) else {
                return supervisor.refuse(worker, because: "its tab \(id) is gone")
            }
            screenHistory(of: tab)
            guard Adoption.matches(claim, tab.history) else {
                return supervisor.refuse(worker, because: "the navigation policy refuses an entry of its list")
            }
            realize(tab, because: .adopted, adopting: (worker, claim))
        }
    }

    /// The editor's worker taken back is adopted only if its document is exactly the acknowledged one, inputs
    /// 1…acked as the journal restored them (its seq and digest): then nothing acknowledged is sent to it again. One
    /// that applied an input the journal never saved holds text this run cannot account for, and is refused.
    private func reclaimed(_ worker: Worker, _ claim: WorkerClaim, editor: Editor) {
        guard editor.load.view == nil, editor.worker == nil, !editor.finishing else {
            return supervisor.refuse(worker, because: "the editor has a worker already")
        }
        guard claim.finished, claim.inputSeq == editor.acked, claim.digest == editor.ackedDigest else {
            let digest = String(claim.digest, radix: 16)
            return supervisor.refuse(worker, because: "its document (input \(claim.inputSeq), digest \(digest)) is not "
                + "the journal's (\(editor.acked) inputs)")
        }
        editor.adopt(worker)
        openEditor(adopting: (worker, claim))
        deliverInputs()
    }
}
