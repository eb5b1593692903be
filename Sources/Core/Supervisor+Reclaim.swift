import Events
import Process
import System
import Vocabulary

/// Workers taken back (issue 34): a holder kept them alive across the death of the supervisor before. Each is asked
/// to resynchronise and says what it shows; the browser then has a view adopt it, showing that page with nothing
/// loaded again, or refuses it, and it is killed.
extension Supervisor {
    /// Takes back `handle`, a worker the supervisor before started. It is watched as any worker, and owes its answer
    /// to resynchronisation `generation` within a ping interval (`Conversation.Stage.resyncing`), then its list;
    /// `reclaimed` hears what it claims.
    package func reclaim(_ handle: any WorkerHandle, generation: UInt64) {
        let worker = Worker(handle, limits: settings.conversationLimits, resyncing: generation)
        reclaiming.insert(worker.pid)
        watch(worker)
        log.emit(.reclaim(generation: Int(generation)), pid: worker.pid)
        do {
            try handle.askResync(generation: generation)
        } catch {
            kill(worker, because: "cannot ask it to resynchronise: \(error)", verdict: .unresponsive)
        }
    }

    /// A worker taken back sent its list: the claim is whole, and the browser decides.
    func reclaimedList(_ worker: Worker, index: UInt32, urls: [String]) {
        guard var claim = worker.claim.take() else { return }
        guard Int(index) == claim.historyIndex else {
            let reason = "its list's index is \(index), not the \(claim.historyIndex) it resynchronised at"
            return refuse(worker, because: reason)
        }
        claim.history = urls
        if claim.showsNothing, spares.count < policy.spareWorkers, !stopping {
            return adoptSpare(worker)
        }
        guard let reclaimed else { return refuse(worker, because: "nothing here adopts workers") }
        reclaimed(worker, claim)
    }

    /// A spare taken back (it shows no page and holds no input) goes back to the pool, while the policy keeps one.
    private func adoptSpare(_ worker: Worker) {
        spares.append(worker)
        log.emit(.adopt(url: ""), pid: worker.pid)
        setBand(band(for: worker), of: worker)
        settleReclaim(of: worker)
    }

    /// Kills a worker taken back that no view may adopt.
    package func refuse(_ worker: Worker, because reason: String) {
        log.emit(.adoptionRefused(reason: reason), pid: worker.pid)
        settleReclaim(of: worker)
        kill(worker, because: "adoption refused", verdict: .protocolViolation(reason: reason))
    }

    /// The worker taken back was adopted, refused or died: once the last of them is, `reclaimsSettled` is told.
    func settleReclaim(of worker: Worker) {
        guard reclaiming.remove(worker.pid) != nil, reclaiming.isEmpty else { return }
        let reranks = deferredReranks
        deferredReranks = [:]
        for (band, start) in reranks { rerank(band, from: start) }
        // After the step that settled it: a view adopting the last one is whole first.
        clock.soon { [weak self] in self?.reclaimsSettled() }
    }

    /// `view` takes a worker taken back that shows `page` already: committed, finished and titled as it says,
    /// which the browser checked against its session.
    func adoptShowing(_ page: WorkerClaim, _ worker: Worker, into view: View) {
        worker.rendered = true
        worker.site = Site(url: page.url)
        view.committed(page.url)
        view.title = page.title
        log.emit(.adopt(url: page.url), view: view.id, pid: worker.pid)
        watchLiveness(of: worker)
        // Hidden, it is suspended again after the policy's grace, as a page that rendered off screen is.
        if !view.visible { suspendLater(view) }
    }
}
