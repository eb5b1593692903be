import WorkerRuntime

/// A render worker: one page at a time, fetched from the supervisor over the channel (never a socket), rendered
/// by doing the work the page declares, and reported back step by step.
struct Worker {
    var channel = Channel()
    var url = ""
    var title = ""
    var typed: [UInt8] = []
    /// The digest of `typed`, kept as it grows: each input costs its own bytes, never the whole document's.
    var typedDigest = documentDigestBasis
    /// The last typed input applied to the document, 0 for none.
    var lastInput: UInt64 = 0
    /// Whether the page committed last has finished (`didFinish`).
    var finished = false
    /// How many times a supervisor has resynchronised: a navigation under way stops at one.
    var resyncs = 0
    var memory: (base: UnsafeMutableRawPointer, size: Int)?
    /// The share of a CPU, in percent, the rendered page keeps busy until it is unloaded.
    var busyPercent = 0
    var deferred: [ToWorker] = []
    /// The tab's back/forward list as this worker knows it: given by the supervisor on restore, grown by commits.
    /// The supervisor's list is the same type, so the two agree on every step, the cap included.
    var history = BackForwardList()

    /// How a navigation changes the back/forward list when it commits. Back, forward, reload and a restore have
    /// already moved to their entry when they start, as the supervisor's list has: a failure then replaces that
    /// entry on both sides.
    enum Entry {
        case push, replace, stay
    }

    mutating func run() -> Never {
        _ = wr_watch_resync(resyncSignal)
        let sandbox = Sandbox.enter(input: channel.input, output: channel.output)
        channel.send(.hello(pid: wr_getpid(), version: protocolVersion, sandbox: sandbox))
        while true {
            let message = deferred.isEmpty ? nextMessage() : deferred.removeFirst()
            switch message {
            case .load(let next, let replace): navigate(to: next, entry: replace ? .replace : .push)
            case .reload: if let entry = history.current { navigate(to: entry.url, entry: .stay) }
            case .goTo(let index):
                guard let entry = history.go(to: Int(index) - history.index) else { break }
                navigate(to: entry.url, entry: .stay)
            case .restoreHistory(let index, _, let urls):
                history = BackForwardList(entries: urls.map { HistoryEntry(url: $0) }, index: Int(index))
                if let entry = history.current { navigate(to: entry.url, entry: .stay) }
            case .unload: unload()
            case .shutdown: wr_exit(0)
            default: answer(message)
            }
        }
    }

    /// The next message. While the page keeps busy, the worker spins its share of every 10 ms and waits out the
    /// rest for a message, so it answers within a period whatever the page does.
    mutating func nextMessage() -> ToWorker {
        let period = 10_000_000
        while true {
            while busyPercent > 0 {
                if let message = channel.receive(wait: false) { return message }
                resynchronizeIfAsked()
                let spinning = period * busyPercent / 100
                let until = wr_now() + spinning
                var spin: UInt64 = 0
                while wr_now() < until { spin &+= 1 }
                if spinning < period { _ = wr_wait_readable(channel.input, period - spinning) }
            }
            if let message = channel.receive(wait: true) { return message }
            resynchronizeIfAsked()
        }
    }

    /// Answers a supervisor that took the channel over (`Channel.takeResync`), if one asked: with what this worker
    /// has, which is all the new supervisor may believe of it.
    mutating func resynchronizeIfAsked() {
        guard let generation = channel.takeResync() else { return }
        deferred = []
        resyncs += 1
        channel.send(.resynced(
            generation: generation, url: history.current?.url ?? "", title: title, finished: finished,
            historyIndex: UInt32(truncatingIfNeeded: history.index), historyCount: UInt32(history.entries.count),
            inputSeq: lastInput, digest: typedDigest))
    }

    /// Replies to what can be answered at any moment; navigations wait for the current one to end.
    mutating func answer(_ message: ToWorker) {
        switch message {
        case .ping(let seq): channel.send(.pong(seq: seq))
        case .titleQuery(let id): channel.send(.title(id: id, title: title))
        case .input(let seq, let text):
            typed.append(contentsOf: text.utf8)
            typedDigest = documentDigest(text.utf8, from: typedDigest)
            lastInput = seq
            channel.send(.inputApplied(seq: seq, digest: typedDigest))
        case .documentQuery:
            for piece in FromWorker.documentPieces(typed) { channel.send(piece) }
        case .historyQuery:
            let index = UInt32(truncatingIfNeeded: history.index)
            for piece in FromWorker.historyPieces(index: index, urls: history.entries.map { $0.url }) {
                channel.send(piece)
            }
        case .shutdown: wr_exit(0)
        case .prepareToSuspend: channel.send(.readyToSuspend)
        case .processDidResume: break
        case .load, .reload, .goTo, .restoreHistory, .unload: deferred.append(message)
        // Replies to no fetch in flight, and pieces `Channel` has already joined to their restore.
        case .fetchReply, .fetchData, .historyData: break
        }
    }

    mutating func navigate(to target: String, entry: Entry) {
        unload()
        url = target
        let resyncsBefore = resyncs
        let reply = fetch(target, .document)
        // A new supervisor took the channel over: it was told what this worker has, and this navigation is not it.
        guard resyncs == resyncsBefore else { return }
        guard reply.status == 200 else {
            channel.send(.didFailProvisional(error: "status \(reply.status) fetching \(target)"))
            return
        }
        let document = Document(reply.body)
        document.attemptForbiddenCall(at: .load)
        document.stall(at: .load)
        if let fault = document.fault, fault.when == .load {
            guard fault.kind == .fail else { commit(fault.kind) }
            channel.send(.didFailProvisional(error: "the page failed before it committed"))
            return
        }
        switch entry {
        case .push: history.push(HistoryEntry(url: target))
        case .replace: history.replaceCurrent(HistoryEntry(url: target))
        case .stay:
            break
        }
        channel.send(.didCommit(url: target))
        document.attemptForbiddenCall(at: .committed)
        document.stall(at: .committed)
        if let fault = document.fault, fault.when == .committed {
            guard fault.kind == .fail else { commit(fault.kind) }
            channel.send(.didFail(error: "the page failed after it committed"))
            return
        }
        // Sub-resources count toward the render: the page is finished only once each has answered, whatever it said.
        for (source, kind) in document.resources {
            _ = fetch(source, kind)
            guard resyncs == resyncsBefore else { return }
        }
        render(document)
        title = document.title
        finished = true
        busyPercent = document.busyPercent
        channel.send(.didFinish(title: title))
        document.attemptForbiddenCall(at: .rendered)
        document.stall(at: .rendered)
        if let fault = document.fault, fault.when == .rendered { commit(fault.kind) }
        for action in document.navigations {
            channel.send(.navigationAction(type: action.type, mainFrame: action.mainFrame, url: action.url))
        }
    }

    /// Asks the supervisor for `target` and waits for all of its bytes, answering everything else meanwhile.
    mutating func fetch(_ target: String, _ kind: ResourceKind) -> (status: UInt16, body: [UInt8]) {
        channel.send(.fetch(url: target, kind: kind))
        var status: UInt16?
        var length = 0
        var body: [UInt8] = []
        while status == nil || body.count < length {
            guard let message = channel.receive(wait: true) else {
                resynchronizeIfAsked()
                return (0, [])
            }
            switch message {
            case .fetchReply(let code, _, let total, let first) where status == nil:
                status = code
                length = Int(total)
                body = first
                body.reserveCapacity(length)
            case .fetchData(let piece) where status != nil:
                body.append(contentsOf: piece)
            default:
                answer(message)
            }
        }
        return (status!, body)
    }

    /// Allocates and touches the memory the page asks for, then burns its CPU time, answering the channel between
    /// steps the way a real renderer keeps its IPC thread responsive.
    mutating func render(_ document: Document) {
        if document.memoryBytes > 0, let base = wr_map(document.memoryBytes) {
            memory = (base, document.memoryBytes)
            let step = 1 << 20
            let pause = document.growNanoseconds / max(1, document.memoryBytes / step)
            var offset = 0
            while offset < document.memoryBytes {
                let end = min(offset + step, document.memoryBytes)
                var page = offset
                while page < end {
                    base.storeBytes(of: 1, toByteOffset: page, as: UInt8.self)
                    page += 4096
                }
                offset = end
                if pause > 0 { wr_sleep(pause) }
                serviceChannel()
            }
        }
        let deadline = wr_now() + document.cpuNanoseconds
        var spin: UInt64 = 0
        while wr_now() < deadline {
            let slice = min(deadline, wr_now() + 1_000_000)
            while wr_now() < slice { spin &+= 1 }
            serviceChannel()
        }
    }

    mutating func serviceChannel() {
        while let message = channel.receive(wait: false) { answer(message) }
        resynchronizeIfAsked()
    }

    /// Forgets the page: its memory goes back to the system, and nothing typed into it outlives it.
    mutating func unload() {
        if let memory { wr_unmap(memory.base, memory.size) }
        memory = nil
        busyPercent = 0
        url = ""
        title = ""
        finished = false
        typed = []
        typedDigest = documentDigestBasis
        lastInput = 0
    }

    func commit(_ fault: Document.Fault) -> Never {
        switch fault {
        case .segv:
            UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee = 1
        case .abort:
            wr_abort()
        case .kill:
            wr_kill_self()
        case .exit(let code):
            wr_exit(code)
        case .hang, .fail:
            break
        case .malformedFrame:
            channel.writeAll([1, 0, 0, 0, 0xEE])
        case .oversizedFrame:
            var header: [UInt8] = []
            withUnsafeBytes(of: UInt32(maxFrameSize + 1).littleEndian) { header.append(contentsOf: $0) }
            channel.writeAll(header + [8])
        }
        wr_hang()
    }
}


/// The pid of the supervisor that spawned this worker, from argv[1]. Built on its own runtime (Embedded Swift) the
/// worker has it read by its entry point before any Swift runs; built as ordinary Swift (WebContentPortable), glibc
/// starts it and the Swift runtime holds the arguments.
func expectedParent() -> Int32 {
    #if $Embedded
    wr_expected_parent()
    #else
    CommandLine.argc > 1 ? wr_parse_pid(CommandLine.unsafeArgv[1]) : 0
    #endif
}

// The worker must not outlive its supervisor: the kernel kills it when the spawning thread dies, and if that
// already happened before this line ran, the parent is no longer the one that spawned us.
wr_die_with_parent()
if expectedParent() > 0, wr_getppid() != expectedParent() { wr_exit(0) }
wr_disable_core_dumps()
func runWorker() -> Never {
    var worker = Worker()
    worker.run()
}
runWorker()
