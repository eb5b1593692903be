import Events
import Glibc
import Process
import System
import WireProtocol
import Vocabulary

/// The channel to each worker: every input to its conversation goes through `step`, and what the conversation
/// answers is carried out here.
extension Supervisor {
    /// Feeds `input` to the worker's conversation and carries out the actions it returns, in order.
    func step(_ worker: Worker, _ input: Conversation.Input) {
        for action in worker.conversation.take(input) { perform(action, for: worker) }
    }

    private func perform(_ action: Conversation.Action, for worker: Worker) {
        switch action {
        case .send(let message): send(message, to: worker)
        case .expectAnswer: expectAnswer(from: worker)
        case .heard:
            clock.cancel(worker.hangTimer)
            worker.hangTimer = nil
        case .unresponsive: unresponsive(worker)
        case .responsive: responsive(worker)
        case .pong(let seq): answeredPing(worker, seq)
        case .readyToSuspend: readyToSuspend(worker)
        case .watchLiveness: watchLiveness(of: worker)
        case .violation(let reason): log.emit(.protocolViolation(reason: reason), view: worker.view?.id, pid: worker.pid)
        case .kill(let reason, let verdict):
            let why = TerminationReason.of(
                verdict, cause: .supervisor, band: worker.band, toldToExit: worker.conversation.toldToExit,
                meant: worker.endedFor)
            log.emit(.kill(reason: reason, verdict: verdict.kind, terminationReason: why), view: worker.view?.id, pid: worker.pid)
            worker.handle.signal(SIGKILL, by: .supervisor)
        case .closeChannel: worker.handle.closeChannel()
        case .drain:
            _ = worker.handle.receive()
            readFrames(of: worker)
            step(worker, .endOfFile)
        case .reportDeath(let exit): died(worker, exit)
        case .hello(let sandbox): saidHello(worker, sandbox: sandbox)
        case .resynced(let claim): worker.claim = claim
        case .serve(let url, let kind): fetch(url, kind, for: worker)
        case .commit(let url): committed(url, by: worker)
        case .finished(let title): rendered(worker, title: title)
        case .failed(let provisional, let error): failed(worker, provisional: provisional, error: error)
        case .history(let index, let urls): historyReceived(index: index, urls: urls, from: worker)
        case .title(let id, let title):
            if let view = views[Int(id)], view.worker === worker, title.isEmpty, view.load.visibleAt == nil {
                blankDetected(view)
            }
        case .relay(let message):
            guard let client = worker.client, client.received(message, from: worker, in: worker.view) else {
                return step(worker, .unwanted(message))
            }
        }
    }

    package func send(_ message: ToWorker, to worker: Worker) {
        guard worker.channelOpen else { return }
        do {
            try worker.handle.send(message) { [unowned self, unowned worker] in step(worker, .sendFailed) }
        } catch .refused(let reason) {
            // Never sent, so the channel is as sound as it was: only this message is lost, and loudly.
            log.emit(.sendRefused(message: Int(message.tag), reason: reason.description), view: worker.view?.id, pid: worker.pid)
            return
        } catch {
            // The worker is gone or going; its exit reports how.
            log.emit(.sendFailed(error: error.description), view: worker.view?.id, pid: worker.pid)
            return step(worker, .sendFailed)
        }
        step(worker, .sent(message, queued: worker.handle.pendingOutput))
    }

    func received(from worker: Worker) {
        let open = worker.handle.receive()
        readFrames(of: worker)
        if !open { step(worker, .endOfFile) }
    }

    /// Every whole frame received, while the conversation still reads them.
    private func readFrames(of worker: Worker) {
        // A worker taken back is read from its answer to the resynchronisation on: what came before may be cut.
        if case .resyncing(let generation) = worker.conversation.stage, !worker.handle.skip(toResynced: generation) {
            return
        }
        do {
            while worker.conversation.readable, let message = try worker.handle.next() {
                step(worker, .frame(message, allowance(for: worker)))
            }
        } catch {
            step(worker, .brokeProtocol(error.description))
        }
    }

    /// What the client of the load a worker serves lets it send; a page whose view is gone may ask no navigation.
    private func allowance(for worker: Worker) -> Conversation.Allowance {
        guard let client = worker.client else { return Conversation.Allowance() }
        let open = worker.view.map { !$0.closed } ?? false
        return Conversation.Allowance(
            longestDocument: client.longestDocument, navigationsPerPage: open ? client.navigationsPerPage : 0)
    }

    package func violation(by worker: Worker, _ reason: String) { step(worker, .brokeProtocol(reason)) }

    /// Once, and only to a page a navigation it was sent was to: the client says which those are.
    private func committed(_ url: String, by worker: Worker) {
        let view = worker.view
        if let view, !view.load.client.committed(url, by: worker, in: view) {
            return violation(by: worker, "a commit of \(url), which no navigation it was sent was to")
        }
        log.emit(.commit(url: url), view: view?.id, pid: worker.pid)
        worker.site = Site(url: url)
        if let view, !view.closed { view.committed(url) }
    }

    private func failed(_ worker: Worker, provisional: Bool, error: String) {
        clock.cancel(worker.timer)
        // The worker knows the status; the scheme handler knows why.
        let error = worker.lastDocument?.refusal.map { "\(error): \($0)" } ?? error
        let view = worker.view
        log.emit(.fail(kind: provisional ? .provisional : .committed, error: error), view: view?.id, pid: worker.pid)
        guard let view, !view.closed else { return }
        view.load.client.failed(view, by: worker, provisional: provisional, error: error)
    }

    func historyReceived(index: UInt32, urls: [String], from worker: Worker) {
        log.emit(.workerHistory(index: Int(index), urls: urls), view: worker.view?.id, pid: worker.pid)
        if worker.claim != nil { return reclaimedList(worker, index: index, urls: urls) }
        _ = worker.view?.load.client.received(
            .history(index: index, count: UInt32(urls.count), urls: urls), from: worker, in: worker.view)
    }

    func saidHello(_ worker: Worker, sandbox: Sandbox) {
        let now = clock.now
        worker.sandbox = sandbox
        launchFailuresInARow = 0
        everSaidHello = true
        log.emit(
            .hello(spawnToHelloMs: milliseconds(now - worker.handle.spawnedAt), sandbox: sandbox),
            view: worker.view?.id, pid: worker.pid)
        if let view = worker.view { sendLoad(to: worker, of: view) }
    }

    func rendered(_ worker: Worker, title: String) {
        worker.rendered = true
        clock.cancel(worker.timer)
        guard let view = worker.view, !view.closed else { return }
        view.title = title
        if policy.recoveryCooldownNanoseconds > 0 {
            view.recentCrashes.finished(at: clock.now, cooldown: policy.recoveryCooldownNanoseconds)
        }
        // A read that fails (the worker exiting) keeps the last measure rather than making one up.
        if let bytes = worker.handle.residentBytes() { worker.residentBytes = bytes }
        log.emit(.render(title: title, workersRSSBytes: workersRSS()), view: view.id, pid: worker.pid)
        view.load.client.rendered(view, by: worker, title: title)
        setBand(band(for: worker), of: worker)
        // After the view is on screen: a launch must not delay the load it was meant to speed up.
        clock.soon { [weak self] in self?.replenishSpare() }
        if view.visible {
            if view.attached { becameVisible(view) }
        } else {
            renderedOffScreen(view)
            suspendLater(view)
        }
    }

    /// Resident memory of every live worker, each as read from /proc/PID/statm when it last rendered: reading a
    /// process that is exiting can wait on its teardown, and the event loop must not.
    func workersRSS() -> Int {
        workers.values.reduce(0) { $0 + $1.residentBytes }
    }
}
