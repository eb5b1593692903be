/// Everything a WebContent worker says to the supervisor. The first message on a channel is always `hello`.
public enum FromWorker: WireMessage {
    case hello(pid: Int32, version: UInt16, sandbox: Sandbox)
    /// The page needs a resource: its document (the worker is navigating), or an image or sub-frame it refers to.
    case fetch(url: String, kind: ResourceKind)
    case didCommit(url: String)
    case didFinish(title: String)
    case didFailProvisional(error: String)
    case didFail(error: String)
    case title(id: UInt32, title: String)
    case pong(seq: UInt64)
    case inputApplied(seq: UInt64, digest: UInt64)
    /// The editor's text, `length` bytes in all, `text` the first of them; `documentData` brings the rest.
    case document(length: UInt32, text: [UInt8])
    /// The worker's back/forward list: `count` URLs, `urls` the first of them and `historyData` the rest.
    case history(index: UInt32, count: UInt32, urls: [String])
    /// The page wants to navigate (a link activated, a form submitted, a redirect); the supervisor decides.
    case navigationAction(type: NavigationType, mainFrame: Bool, url: String)
    /// More URLs of the `history` just sent.
    case historyData(urls: [String])
    case documentData(text: [UInt8])
    /// The sandbox caught system call `syscall` (its number on the worker's architecture); the worker dies of SIGSYS
    /// right after sending this. Its signal handler sends it, so it may be missing: the death is what counts.
    case sandboxViolation(syscall: Int32)
    /// The answer to `prepareToSuspend`: it has done what it must before it is stopped.
    case readyToSuspend
    /// The answer to a supervisor that took the channel over (issue 34), asked by a signal carrying `generation`:
    /// everything sent before it is of the supervisor before, and everything that supervisor sent and the worker had
    /// not yet read was dropped. What it has: its committed entry, whether the page finished, its back/forward list's
    /// position and length, and the last typed input it applied with the document's digest then.
    case resynced(
        generation: UInt64, url: String, title: String, finished: Bool, historyIndex: UInt32, historyCount: UInt32,
        inputSeq: UInt64, digest: UInt64)

    public var tag: UInt8 {
        switch self {
        case .hello: 1
        case .fetch: 5
        case .didCommit: 7
        case .didFinish: 8
        case .didFailProvisional: 9
        case .didFail: 10
        case .title: 12
        case .pong: 14
        case .inputApplied: 16
        case .document: 19
        case .history: 24
        case .navigationAction: 25
        case .historyData: 26
        case .documentData: 27
        case .sandboxViolation: 28
        case .readyToSuspend: 31
        case .resynced: 32
        }
    }

    public func encode(into out: inout [UInt8]) {
        let start = out.beginFrame(tag)
        switch self {
        case .hello(let pid, let version, let sandbox):
            out.appendInteger(UInt32(bitPattern: pid))
            out.appendInteger(version)
            out.append(sandbox.rawValue)
        case .sandboxViolation(let syscall):
            out.appendInteger(UInt32(bitPattern: syscall))
        case .readyToSuspend:
            break
        case .resynced(let generation, let url, let title, let finished, let index, let count, let seq, let digest):
            out.appendInteger(resyncMarker)
            out.appendInteger(generation)
            out.appendString(url)
            out.appendString(title)
            out.append(finished ? 1 : 0)
            out.appendInteger(index)
            out.appendInteger(count)
            out.appendInteger(seq)
            out.appendInteger(digest)
        case .fetch(let url, let kind):
            out.appendString(url)
            out.append(kind.rawValue)
        case .didCommit(let text), .didFinish(let text), .didFailProvisional(let text), .didFail(let text):
            out.appendString(text)
        case .title(let id, let title):
            out.appendInteger(id)
            out.appendString(title)
        case .pong(let seq):
            out.appendInteger(seq)
        case .inputApplied(let seq, let digest):
            out.appendInteger(seq)
            out.appendInteger(digest)
        case .document(let length, let text):
            out.appendInteger(length)
            out.appendBytes(text)
        case .documentData(let text):
            out.appendBytes(text)
        case .history(let index, let count, let urls):
            out.appendInteger(index)
            out.appendInteger(count)
            out.appendStrings(urls)
        case .historyData(let urls):
            out.appendStrings(urls)
        case .navigationAction(let type, let mainFrame, let url):
            out.append(type.rawValue)
            out.append(mainFrame ? 1 : 0)
            out.appendString(url)
        }
        out.endFrame(from: start)
    }

    public static func decode(_ body: UnsafeRawBufferPointer) throws(WireError) -> FromWorker {
        try decodeFrame(body) { tag, reader throws(WireError) in
            switch tag {
            case 1:
                .hello(
                    pid: Int32(bitPattern: try reader.integer()), version: try reader.integer(),
                    sandbox: try reader.raw(Sandbox.self))
            case 5:
                .fetch(url: try reader.string(), kind: try reader.raw(ResourceKind.self))
            case 7: .didCommit(url: try reader.string())
            case 8: .didFinish(title: try reader.string())
            case 9: .didFailProvisional(error: try reader.string())
            case 10: .didFail(error: try reader.string())
            case 12: .title(id: try reader.integer(), title: try reader.string())
            case 14: .pong(seq: try reader.integer())
            case 16: .inputApplied(seq: try reader.integer(), digest: try reader.integer())
            case 19: .document(length: try reader.integer(), text: try reader.bytes())
            case 24: .history(index: try reader.integer(), count: try reader.integer(), urls: try reader.strings())
            case 25:
                .navigationAction(
                    type: try reader.raw(NavigationType.self), mainFrame: try reader.flag(), url: try reader.string())
            case 26: .historyData(urls: try reader.strings())
            case 27: .documentData(text: try reader.bytes())
            case 28: .sandboxViolation(syscall: Int32(bitPattern: try reader.integer()))
            case 31: .readyToSuspend
            case 32: try resynced(&reader)
            default: throw .notOfThisDirection(tag)
            }
        }
    }

    /// A `resynced` body, which begins with `resyncMarker`.
    static func resynced(_ reader: inout PayloadReader) throws(WireError) -> FromWorker {
        guard try reader.integer() as UInt64 == resyncMarker else { throw .badValue(tag: 32) }
        return .resynced(
            generation: try reader.integer(), url: try reader.string(), title: try reader.string(),
            finished: try reader.flag(), historyIndex: try reader.integer(), historyCount: try reader.integer(),
            inputSeq: try reader.integer(), digest: try reader.integer())
    }

    public var frameLength: Int {
        let payload =
            switch self {
            case .hello: 4 + 2 + 1
            case .sandboxViolation: 4
            case .readyToSuspend: 0
            case .resynced(_, let url, let title, _, _, _, _, _):
                8 + 8 + stringLength(url) + stringLength(title) + 1 + 4 + 4 + 8 + 8
            case .fetch(let url, _): stringLength(url) + 1
            case .didCommit(let text), .didFinish(let text), .didFailProvisional(let text), .didFail(let text):
                stringLength(text)
            case .title(_, let title): 4 + stringLength(title)
            case .pong: 8
            case .inputApplied: 8 + 8
            case .document(_, let text): 4 + 4 + text.count
            case .documentData(let text): 4 + text.count
            case .history(_, _, let urls): 4 + 4 + stringsLength(urls)
            case .historyData(let urls): stringsLength(urls)
            case .navigationAction(_, _, let url): 1 + 1 + stringLength(url)
            }
        return 1 + payload
    }

    public var limitViolation: WireError? {
        if let oversized = frameViolation(frameLength) { return oversized }
        return switch self {
        case .fetch(let url, _), .didCommit(let url), .navigationAction(_, _, let url): over(url, maxURLBytes, tag: tag)
        case .didFinish(let title), .title(_, let title): over(title, maxTitleBytes, tag: tag)
        case .resynced(_, let url, let title, _, _, _, _, _):
            over(url, maxURLBytes, tag: tag) ?? over(title, maxTitleBytes, tag: tag)
        case .history(_, let count, let urls): historyViolation(count: count, urls, tag: tag)
        case .historyData(let urls): historyViolation(count: nil, urls, tag: tag)
        default: nil
        }
    }
}

// The worker (Embedded Swift, which compiles these sources too) never compares messages: equality of their strings
// would link in the Unicode tables that canonical equivalence needs.
#if !$Embedded
extension FromWorker: Equatable {}
#endif

/// What became of the worker's sandbox before it said hello.
public enum Sandbox: UInt8, Sendable, CaseIterable {
    /// Its launcher asked it to run without one (`--no-sandbox`).
    case off = 0
    /// No new privileges, and a seccomp filter that allows only the calls it needs.
    case installed = 1
    /// The kernel refused the filter (built without seccomp): it runs unsandboxed.
    case unavailable = 2
}
