import Glibc
import WorkerRuntime
import WireProtocol

/// WebContent's behaviour without its process, for the policies' tests in virtual time. It reads each page it is
/// served as the real worker does (`Document`: the same source file), fetches its sub-resources one at a time,
/// renders for the CPU time the page declares on the virtual clock, sends the navigations it declares, and commits
/// the faults it declares: a crash, an exit, a hang, a bad frame, a call its sandbox forbids. What only a process
/// can show (spawn, signals, the sandbox, /proc, the journal's fsync) stays with the real worker's tests.
package final class PageWorker {
    private unowned let worker: FakeWorker
    private let clock: VirtualClock
    private var history = BackForwardList()
    private var title = ""
    private var typed: [UInt8] = []
    private var typedDigest = documentDigestBasis
    /// Memory the page in it holds, beyond the worker's own.
    private var pageBytes = 0
    /// Navigations asked for while one is under way: each starts when the one before it ends.
    private var deferred: [ToWorker] = []
    private var navigating = false
    /// A history being restored, as far as its pieces have arrived.
    private var restoring: (index: UInt32, count: Int, urls: [String])?
    /// The fetch it waits for, as far as its reply has arrived, and what it does with the whole reply.
    private var fetching: (status: UInt16?, length: Int, body: [UInt8], then: (UInt16, [UInt8]) -> Void)?
    /// Wedged by a fault: it answers nothing more.
    private var hung = false

    /// Makes `worker` behave as WebContent.
    @discardableResult
    package init(_ worker: FakeWorker, clock: VirtualClock) {
        self.worker = worker
        self.clock = clock
        worker.resident = Self.baseBytes
        worker.script = { [self] message, _ in handle(message) }
    }

    /// What a worker with no page holds.
    static let baseBytes = 1 << 20

    private func handle(_ message: ToWorker) {
        guard !hung else { return }
        switch message {
        case .fetchReply(let status, _, let length, let body):
            guard var reply = fetching, reply.status == nil else { return }
            (reply.status, reply.length, reply.body) = (status, Int(length), body)
            fetching = reply
            fetched()
        case .fetchData(let piece):
            guard fetching?.status != nil else { return }
            fetching?.body += piece
            fetched()
        case .restoreHistory(let index, let count, let urls) where urls.count < count:
            restoring = (index, Int(count), urls)
        case .historyData(let more):
            guard var restore = restoring else { return }
            restore.urls += more
            restoring = restore
            if restore.urls.count >= restore.count {
                restoring = nil
                begin(.restoreHistory(index: restore.index, count: UInt32(restore.urls.count), urls: restore.urls))
            }
        case .load, .reload, .goTo, .restoreHistory, .unload: begin(message)
        case .shutdown: worker.die(.code(0))
        case .ping(let seq): worker.say(.pong(seq: seq))
        case .prepareToSuspend: worker.say(.readyToSuspend)
        case .processDidResume: break
        case .titleQuery(let id): worker.say(.title(id: id, title: title))
        case .input(let seq, let text):
            typed += text.utf8
            typedDigest = documentDigest(text.utf8, from: typedDigest)
            worker.say(.inputApplied(seq: seq, digest: typedDigest))
        case .documentQuery:
            for piece in FromWorker.documentPieces(typed) { worker.say(piece) }
        case .historyQuery:
            let pieces = FromWorker.historyPieces(index: UInt32(truncatingIfNeeded: history.index), urls: history.entries.map(\.url))
            for piece in pieces { worker.say(piece) }
        }
    }

    /// Starts a navigation, or an unload, now or once the one under way has ended.
    private func begin(_ message: ToWorker) {
        guard !navigating else { return deferred.append(message) }
        switch message {
        case .load(let url, let replace): navigate(to: url) { $0.push(HistoryEntry(url: url), replace: replace) }
        case .reload: if let entry = history.current { navigate(to: entry.url) { _ in } }
        case .goTo(let index):
            if let entry = history.go(to: Int(index) - history.index) { navigate(to: entry.url) { _ in } }
        case .restoreHistory(let index, _, let urls):
            history = BackForwardList(entries: urls.map { HistoryEntry(url: $0) }, index: Int(index))
            if let entry = history.current { navigate(to: entry.url) { _ in } }
        case .unload: unload()
        default: break
        }
    }

    private func ended() {
        navigating = false
        if !deferred.isEmpty { begin(deferred.removeFirst()) }
    }

    private func navigate(to target: String, entry: @escaping (inout BackForwardList) -> Void) {
        unload()
        navigating = true
        fetch(target, .document) { [self] status, body in
            guard status == 200 else {
                worker.say(.didFailProvisional(error: "status \(status) fetching \(target)"))
                return ended()
            }
            let document = Document(body)
            guard !attemptForbiddenCall(of: document, at: .load) else { return }
            if let fault = document.fault, fault.when == .load {
                guard fault.kind == .fail else { return commit(fault.kind) }
                worker.say(.didFailProvisional(error: "the page failed before it committed"))
                return ended()
            }
            entry(&history)
            worker.say(.didCommit(url: target))
            guard !attemptForbiddenCall(of: document, at: .committed) else { return }
            if let fault = document.fault, fault.when == .committed {
                guard fault.kind == .fail else { return commit(fault.kind) }
                worker.say(.didFail(error: "the page failed after it committed"))
                return ended()
            }
            fetchResources(document.resources[...]) { [self] in render(document) }
        }
    }

    /// Sub-resources count toward the render: each is fetched in turn, whatever it answers.
    private func fetchResources(_ resources: ArraySlice<(url: String, kind: ResourceKind)>, then: @escaping () -> Void) {
        guard let (url, kind) = resources.first else { return then() }
        fetch(url, kind) { [self] _, _ in fetchResources(resources.dropFirst(), then: then) }
    }

    private func render(_ document: Document) {
        pageBytes = document.memoryBytes
        worker.resident = Self.baseBytes + pageBytes
        clock.schedule(afterNanoseconds: document.cpuNanoseconds) { [weak self] in
            guard let self, !hung else { return }
            title = document.title
            worker.say(.didFinish(title: title))
            guard !attemptForbiddenCall(of: document, at: .rendered) else { return }
            if let fault = document.fault, fault.when == .rendered { return commit(fault.kind) }
            for action in document.navigations {
                worker.say(.navigationAction(type: action.type, mainFrame: action.mainFrame, url: action.url))
            }
            ended()
        }
    }

    private func fetch(_ url: String, _ kind: ResourceKind, then: @escaping (UInt16, [UInt8]) -> Void) {
        fetching = (nil, 0, [], then)
        worker.say(.fetch(url: url, kind: kind))
    }

    private func fetched() {
        guard let reply = fetching, let status = reply.status, reply.body.count >= reply.length else { return }
        fetching = nil
        reply.then(status, reply.body)
    }

    private func unload() {
        pageBytes = 0
        worker.resident = Self.baseBytes
        title = ""
        typed = []
        typedDigest = documentDigestBasis
    }

    /// The call a page makes at `moment`, caught by the sandbox: reported, then fatal.
    private func attemptForbiddenCall(of document: Document, at moment: Document.Moment) -> Bool {
        guard let forbidden = document.forbiddenCall, forbidden.when == moment else { return false }
        worker.say(.sandboxViolation(syscall: Int32(wr_attempt_number(forbidden.call))))
        worker.die(.signal(Int(SIGSYS)))
        return true
    }

    private func commit(_ fault: Document.Fault) {
        hung = true
        switch fault {
        case .segv: worker.die(.signal(Int(SIGSEGV)))
        case .abort: worker.die(.signal(Int(SIGABRT)))
        case .kill: worker.die(.signal(Int(SIGKILL)))
        case .exit(let code): worker.die(.code(Int(code)))
        case .hang, .fail: break
        case .malformedFrame: worker.corrupt(.unknownTag(0xEE))
        case .oversizedFrame: worker.corrupt(.oversized(length: maxFrameSize + 1))
        }
    }
}

extension BackForwardList {
    /// A committed navigation's entry: a new one, or the current one replaced.
    mutating func push(_ entry: HistoryEntry, replace: Bool) {
        if replace { replaceCurrent(entry) } else { push(entry) }
    }
}
