import Process
import Vocabulary
import WireProtocol

/// What the worker says, checked against what it was asked: an answer it owes is taken, a value in pieces is
/// gathered whole, and anything else is counted as unasked or cut off as a protocol violation.
extension Conversation {
    mutating func frame(_ message: FromWorker, _ allowance: Allowance) -> [Action] {
        guard readable, verdict == nil else { return [] }
        // Any message stops the responsiveness timer.
        return heard() + check(message, allowance)
    }

    private mutating func check(_ message: FromWorker, _ allowance: Allowance) -> [Action] {
        if case .resyncing(let generation) = stage { return resynced(message, generation) }
        guard saidHello else { return greeting(message) }
        if let incoming { return continuePieces(of: incoming, with: message) }
        switch message {
        case .fetch(let url, let kind):
            if kind == .document {
                guard owed.fetches > 0 else { return unasked(message) }
                owed.fetches -= 1
                owed.results += 1
                owed.resources = Self.maxResourcesPerPage
                uncommitted = url
            } else {
                guard owed.resources > 0 else { return unasked(message) }
                owed.resources -= 1
            }
            replyBytes = 0
            return [.serve(url: url, kind: kind)]
        case .didCommit(let url):
            guard owed.results > 0 else { return unasked(message) }
            // Once, and only the document it was given: never a page it fetched nothing for, or a second commit.
            guard let document = uncommitted, document == url else {
                return violation("a commit of \(url), where the document it was given to commit is " + (uncommitted ?? "none"))
            }
            uncommitted = nil
            replyBytes = 0
            return [.commit(url: url)]
        case .didFinish(let title):
            guard owed.results > 0 else { return unasked(message) }
            owed.results -= 1
            owed.resources = 0
            owed.navigations = allowance.navigationsPerPage
            return [.finished(title: title)]
        case .didFailProvisional(let error), .didFail(let error):
            guard owed.results > 0 || owed.fetches > 0 else { return unasked(message) }
            if owed.results > 0 { owed.results -= 1 } else { owed.fetches -= 1 }
            owed.resources = 0
            replyBytes = 0
            uncommitted = nil
            let provisional = if case .didFail = message { false } else { true }
            return [.failed(provisional: provisional, error: error)]
        case .resynced:
            // Asked once, and answered (`resynced(_:_:)`).
            return unasked(message)
        case .navigationAction:
            guard owed.navigations > 0 else { return unasked(message) }
            owed.navigations -= 1
            return [.relay(message)]
        case .history(let index, let count, let urls):
            guard owed.histories > 0 else { return unasked(message) }
            owed.histories -= 1
            guard urls.count == count else {
                incoming = .history(index: index, count: Int(count), urls: urls)
                return []
            }
            return [.history(index: index, urls: urls)]
        case .pong(let seq):
            guard seq > lastPong, seq <= lastPing else { return unasked(message) }
            lastPong = seq
            return [.pong(seq)]
        case .title(let id, let title):
            guard owed.titles > 0 else { return unasked(message) }
            owed.titles -= 1
            return [.title(id: id, title: title)]
        case .inputApplied:
            return [.relay(message)]
        case .document(let length, let text):
            // However long the document, it arrives whole; a length no client could expect is refused before any
            // more of it is buffered.
            let limit = allowance.longestDocument
            guard length <= limit else {
                return violation("a document of \(length) bytes, where at most \(limit) could be expected")
            }
            guard text.count == length else {
                incoming = .document(length: Int(length), text: text)
                return []
            }
            return [.relay(message)]
        case .historyData, .documentData:
            return violation("piece \(message.tag) of a value nothing began")
        case .hello:
            return violation("a second hello")
        case .sandboxViolation(let call):
            forbiddenCall = call
            return []
        case .readyToSuspend:
            guard suspension == .preparing else { return unasked(message) }
            return [.readyToSuspend]
        }
    }

    /// Its first message must be a hello of this protocol's version naming its own pid.
    private mutating func greeting(_ message: FromWorker) -> [Action] {
        guard case .hello(let pid, let version, let sandbox) = message else {
            return violation("message \(message.tag) before hello")
        }
        guard version == protocolVersion else { return violation("protocol version \(version), expected \(protocolVersion)") }
        guard pid == self.pid else { return violation("hello names pid \(pid)") }
        stage = stage == .launching ? .ready : .exiting(saidHello: true)
        return [.hello(sandbox)]
    }

    /// A worker taken back must first answer the resynchronisation it was asked for: the channel skips every byte
    /// before that answer, so anything else here is a lie about the generation. It then owes its list, which the
    /// core asks for next.
    private mutating func resynced(_ message: FromWorker, _ generation: UInt64) -> [Action] {
        guard case .resynced(generation, let url, let title, let finished, let index, _, let seq, let digest) = message
        else { return violation("message \(message.tag) where the answer to resynchronisation \(generation) belongs") }
        stage = .ready
        let claim = WorkerClaim(
            url: url, title: title, finished: finished, historyIndex: Int(index), history: [], inputSeq: seq,
            digest: digest)
        return [.resynced(claim), .send(.historyQuery)]
    }

    /// The next piece of a history or document; the worker sends them back to back, so anything else between them,
    /// or more than it announced, breaks the protocol.
    private mutating func continuePieces(of incoming: Incoming, with message: FromWorker) -> [Action] {
        switch (incoming, message) {
        case (.history(let index, let count, var urls), .historyData(let more)) where urls.count + more.count <= count:
            urls += more
            guard urls.count == count else {
                self.incoming = .history(index: index, count: count, urls: urls)
                return []
            }
            self.incoming = nil
            return [.history(index: index, urls: urls)]
        case (.document(let length, var text), .documentData(let more)) where text.count + more.count <= length:
            text += more
            guard text.count == length else {
                self.incoming = .document(length: length, text: text)
                return []
            }
            self.incoming = nil
            return [.relay(.document(length: UInt32(length), text: text))]
        default:
            return violation("message \(message.tag) where the next piece of a history or document belongs")
        }
    }

    /// Counts a message nothing asked for. A few can cross a request in flight; a stream of them is a flood, and
    /// the worker sending it is cut off before it can cost the supervisor more than a little CPU.
    mutating func unasked(_ message: FromWorker) -> [Action] {
        unsolicited += 1
        guard unsolicited > Self.maxUnsolicited else { return [] }
        return violation("flood of \(unsolicited) unsolicited messages (last: \(message.tag))")
    }
}
