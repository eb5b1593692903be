import Events
import Process
import System
import WireProtocol
import Vocabulary

/// The channel to each worker: what the supervisor sends, and what it does with each message a worker sends back.
extension Supervisor {
    package func send(_ message: ToWorker, to worker: Worker) {
        guard worker.channelOpen else { return }
        do {
            try worker.handle.send(message) { [unowned worker] in worker.handle.closeChannel() }
        } catch .refused(let reason) {
            // Never sent, so the channel is as sound as it was: only this message is lost, and loudly.
            log.emit(.sendRefused(message: Int(message.tag), reason: reason.description), view: worker.view?.id, pid: worker.pid)
            return
        } catch {
            // The worker is gone or going; its exit reports how.
            log.emit(.sendFailed(error: error.description), view: worker.view?.id, pid: worker.pid)
            return worker.handle.closeChannel()
        }
        switch message {
        case .load, .reload, .goTo, .restoreHistory(_, 1..., _):
            worker.owed.fetches += 1
            expectAnswer(from: worker)
        case .historyQuery:
            worker.owed.histories += 1
            expectAnswer(from: worker)
        case .fetchReply(_, _, _, let body), .fetchData(let body):
            worker.replyBytes += body.count
        case .titleQuery:
            worker.owed.titles += 1
            expectAnswer(from: worker)
        case .ping, .input, .documentQuery:
            expectAnswer(from: worker)
        default:
            break
        }
        // A worker that does not read its input must not make the supervisor hold its backlog forever.
        let pending = worker.handle.pendingOutput
        if pending - min(pending, worker.replyBytes) > settings.maxUnreadBytes {
            kill(worker, because: "does not read its input: \(pending) bytes queued", verdict: .unresponsive)
        }
    }

    func received(from worker: Worker) {
        let open = worker.handle.receive()
        do {
            while worker.channelOpen, let message = try worker.handle.next() {
                heard(from: worker)
                handle(message, from: worker)
            }
        } catch {
            violation(by: worker, error.description)
        }
        if !open { worker.handle.closeChannel() }
    }

    /// Counts a message nothing asked for. A few can cross a request in flight; a stream of them is a flood, and
    /// the worker sending it is cut off before it can cost the supervisor more than a little CPU.
    func unsolicited(_ message: FromWorker, from worker: Worker) {
        worker.unsolicited += 1
        if worker.unsolicited > Self.maxUnsolicited {
            violation(by: worker, "flood of \(worker.unsolicited) unsolicited messages (last: \(message.tag))")
        }
    }

    static let maxUnsolicited = 16

    package func violation(by worker: Worker, _ reason: String) {
        log.emit(.protocolViolation(reason: reason), view: worker.view?.id, pid: worker.pid)
        kill(worker, because: "protocol violation", verdict: .protocolViolation(reason: reason))
    }

    /// Passes a message on to the client of the load the worker serves (or last served); one it did not ask for
    /// counts toward a flood.
    private func relay(_ message: FromWorker, from worker: Worker) {
        guard let client = worker.client, client.received(message, from: worker, in: worker.view) else {
            return unsolicited(message, from: worker)
        }
    }

    func handle(_ message: FromWorker, from worker: Worker) {
        if worker.helloAt == nil {
            guard case .hello(let pid, let version, let sandbox) = message else {
                return violation(by: worker, "message \(message.tag) before hello")
            }
            guard version == protocolVersion else {
                return violation(by: worker, "protocol version \(version), expected \(protocolVersion)")
            }
            guard pid == worker.pid else { return violation(by: worker, "hello names pid \(pid)") }
            return saidHello(worker, sandbox: sandbox)
        }
        let view = worker.view
        if let incoming = worker.incoming {
            return continuePieces(of: incoming, with: message, from: worker)
        }
        switch message {
        case .fetch(let url, let kind):
            fetch(url, kind, for: worker)
        case .didCommit(let url):
            guard worker.owed.results > 0 else { return unsolicited(message, from: worker) }
            // Once, and only the document it was given: never a page it fetched nothing for, or a second commit.
            guard let document = worker.uncommitted, document == url else {
                return violation(by: worker, "a commit of \(url), where the document it was given to commit is "
                    + (worker.uncommitted ?? "none"))
            }
            worker.uncommitted = nil
            if let view, !view.load.client.committed(url, by: worker, in: view) {
                return violation(by: worker, "a commit of \(url), which no navigation it was sent was to")
            }
            worker.replyBytes = 0
            log.emit(.commit(url: url), view: view?.id, pid: worker.pid)
        case .didFinish(let title):
            guard worker.owed.results > 0 else { return unsolicited(message, from: worker) }
            worker.owed.results -= 1
            worker.owed.resources = 0
            rendered(worker, title: title)
        case .didFailProvisional(let error), .didFail(let error):
            guard worker.owed.results > 0 || worker.owed.fetches > 0 else { return unsolicited(message, from: worker) }
            if worker.owed.results > 0 { worker.owed.results -= 1 } else { worker.owed.fetches -= 1 }
            worker.owed.resources = 0
            worker.replyBytes = 0
            worker.uncommitted = nil
            clock.cancel(worker.timer)
            let provisional = if case .didFail = message { false } else { true }
            // The worker knows the status; the scheme handler knows why.
            let error = worker.lastDocument?.refusal.map { "\(error): \($0)" } ?? error
            log.emit(.fail(kind: provisional ? .provisional : .committed, error: error), view: view?.id, pid: worker.pid)
            guard let view, !view.closed else { return }
            view.load.client.failed(view, by: worker, provisional: provisional, error: error)
        case .navigationAction:
            guard worker.owed.navigations > 0 else { return unsolicited(message, from: worker) }
            worker.owed.navigations -= 1
            relay(message, from: worker)
        case .history(let index, let count, let urls):
            guard worker.owed.histories > 0 else { return unsolicited(message, from: worker) }
            worker.owed.histories -= 1
            guard urls.count == count else {
                return worker.incoming = .history(index: index, count: Int(count), urls: urls)
            }
            historyReceived(index: index, urls: urls, from: worker)
        case .pong(let seq):
            guard seq > worker.lastPong, seq <= worker.lastPing else { return unsolicited(message, from: worker) }
            worker.lastPong = seq
        case .title(let id, let title):
            guard worker.owed.titles > 0 else { return unsolicited(message, from: worker) }
            worker.owed.titles -= 1
            if let view = views[Int(id)], view.worker === worker, title.isEmpty, view.load.visibleAt == nil {
                blankDetected(view)
            }
        case .inputApplied:
            relay(message, from: worker)
        case .document(let length, let text):
            documentBegun(length: Int(length), text, from: worker)
        case .historyData, .documentData:
            violation(by: worker, "piece \(message.tag) of a value nothing began")
        case .hello:
            violation(by: worker, "a second hello")
        case .sandboxViolation(let call):
            worker.forbiddenCall = call
        }
    }

    /// The next piece of a history or document the worker is sending; it sends them back to back, so anything
    /// else between them, or more than it announced, breaks the protocol.
    func continuePieces(of incoming: Worker.Incoming, with message: FromWorker, from worker: Worker) {
        switch (incoming, message) {
        case (.history(let index, let count, var urls), .historyData(let more)) where urls.count + more.count <= count:
            urls += more
            guard urls.count == count else { return worker.incoming = .history(index: index, count: count, urls: urls) }
            worker.incoming = nil
            historyReceived(index: index, urls: urls, from: worker)
        case (.document(let length, var text), .documentData(let more)) where text.count + more.count <= length:
            text += more
            guard text.count == length else { return worker.incoming = .document(length: length, text: text) }
            worker.incoming = nil
            relay(.document(length: UInt32(length), text: text), from: worker)
        default:
            violation(by: worker, "message \(message.tag) where the next piece of a history or document belongs")
        }
    }

    func historyReceived(index: UInt32, urls: [String], from worker: Worker) {
        log.emit(.workerHistory(index: Int(index), urls: urls), view: worker.view?.id, pid: worker.pid)
        _ = worker.view?.load.client.received(
            .history(index: index, count: UInt32(urls.count), urls: urls), from: worker, in: worker.view)
    }

    /// The first piece of a document a worker reports. However long the document, it arrives whole; a length no
    /// client could expect is refused before any more of it is buffered.
    func documentBegun(length: Int, _ text: [UInt8], from worker: Worker) {
        let limit = worker.client?.longestDocument ?? pieceBytes
        guard length <= limit else {
            return violation(by: worker, "a document of \(length) bytes, where at most \(limit) could be expected")
        }
        guard text.count == length else { return worker.incoming = .document(length: length, text: text) }
        relay(.document(length: UInt32(length), text: text), from: worker)
    }

    func saidHello(_ worker: Worker, sandbox: Sandbox) {
        let now = clock.now
        worker.saidHello(at: now)
        worker.sandbox = sandbox
        if sandbox == .unavailable && !warnedNoSandbox {
            warnedNoSandbox = true
            printError("supervisor: warning: this kernel has no seccomp filters; workers run without their sandbox")
        }
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
        }
    }

    /// Resident memory of every live worker, each as read from /proc/PID/statm when it last rendered: reading a
    /// process that is exiting can wait on its teardown, and the event loop must not.
    func workersRSS() -> Int {
        workers.values.reduce(0) { $0 + $1.residentBytes }
    }
}
