/// Everything the supervisor says to a WebContent worker.
public enum ToWorker: WireMessage {
    /// A main-frame navigation. When it commits, the worker's back/forward list gains an entry for it, or with
    /// `replace` its current entry becomes it (`location.replace`).
    case load(url: String, replace: Bool)
    case reload
    case shutdown
    /// The answer to a fetch: `length` bytes in all, `body` the first of them; `fetchData` brings the rest, so a
    /// document bigger than a frame travels in pieces.
    case fetchReply(status: UInt16, mime: String, length: UInt32, body: [UInt8])
    case titleQuery(id: UInt32)
    case ping(seq: UInt64)
    case input(seq: UInt64, text: String)
    /// Drop the page and everything it held (memory, title, typed input): the worker waits for its next view.
    case unload
    /// Asks for the document typed into the page so far, answered with `document`.
    case documentQuery
    case fetchData(body: [UInt8])
    /// Back or forward: the worker's list moves to entry `index` and loads it.
    case goTo(index: UInt32)
    /// A new worker takes over a tab: its back/forward list becomes `count` URLs, `urls` the first of them and
    /// `historyData` the rest, and it loads entry `index`.
    case restoreHistory(index: UInt32, count: UInt32, urls: [String])
    /// Asks for the worker's back/forward list, answered with `history` (and `historyData`).
    case historyQuery
    /// More URLs of the `restoreHistory` just sent.
    case historyData(urls: [String])
    /// Its view has been hidden with nothing left to do: it is about to be stopped (WebKit's `PrepareToSuspend`),
    /// answered with `readyToSuspend`.
    case prepareToSuspend
    /// It was stopped and goes on now (WebKit's `ProcessDidResume`).
    case processDidResume

    public var tag: UInt8 {
        switch self {
        case .load: 2
        case .reload: 3
        case .shutdown: 4
        case .fetchReply: 6
        case .titleQuery: 11
        case .ping: 13
        case .input: 15
        case .unload: 17
        case .documentQuery: 18
        case .fetchData: 20
        case .goTo: 21
        case .restoreHistory: 22
        case .historyQuery: 23
        case .historyData: 26
        case .prepareToSuspend: 29
        case .processDidResume: 30
        }
    }

    public func encode(into out: inout [UInt8]) {
        let start = out.beginFrame(tag)
        switch self {
        case .load(let url, let replace):
            out.appendString(url)
            out.append(replace ? 1 : 0)
        case .reload, .shutdown, .unload, .documentQuery, .historyQuery, .prepareToSuspend, .processDidResume:
            break
        case .fetchReply(let status, let mime, let length, let body):
            out.appendInteger(status)
            out.appendString(mime)
            out.appendInteger(length)
            out.appendBytes(body)
        case .fetchData(let body):
            out.appendBytes(body)
        case .titleQuery(let id):
            out.appendInteger(id)
        case .goTo(let index):
            out.appendInteger(index)
        case .ping(let seq):
            out.appendInteger(seq)
        case .input(let seq, let text):
            out.appendInteger(seq)
            out.appendString(text)
        case .restoreHistory(let index, let count, let urls):
            out.appendInteger(index)
            out.appendInteger(count)
            out.appendStrings(urls)
        case .historyData(let urls):
            out.appendStrings(urls)
        }
        out.endFrame(from: start)
    }

    public static func decode(_ body: UnsafeRawBufferPointer) throws(WireError) -> ToWorker {
        try decodeFrame(body) { tag, reader throws(WireError) in
            switch tag {
            case 2: .load(url: try reader.string(), replace: try reader.flag())
            case 3: .reload
            case 4: .shutdown
            case 6:
                .fetchReply(
                    status: try reader.integer(), mime: try reader.string(), length: try reader.integer(),
                    body: try reader.bytes())
            case 11: .titleQuery(id: try reader.integer())
            case 13: .ping(seq: try reader.integer())
            case 15: .input(seq: try reader.integer(), text: try reader.string())
            case 17: .unload
            case 18: .documentQuery
            case 20: .fetchData(body: try reader.bytes())
            case 21: .goTo(index: try reader.integer())
            case 22: .restoreHistory(index: try reader.integer(), count: try reader.integer(), urls: try reader.strings())
            case 23: .historyQuery
            case 26: .historyData(urls: try reader.strings())
            case 29: .prepareToSuspend
            case 30: .processDidResume
            default: throw .notOfThisDirection(tag)
            }
        }
    }

    public var frameLength: Int {
        let payload =
            switch self {
            case .load(let url, _): stringLength(url) + 1
            case .reload, .shutdown, .unload, .documentQuery, .historyQuery, .prepareToSuspend, .processDidResume: 0
            case .fetchReply(_, let mime, _, let body): 2 + stringLength(mime) + 4 + 4 + body.count
            case .fetchData(let body): 4 + body.count
            case .titleQuery, .goTo: 4
            case .ping: 8
            case .input(_, let text): 8 + stringLength(text)
            case .restoreHistory(_, _, let urls): 4 + 4 + stringsLength(urls)
            case .historyData(let urls): stringsLength(urls)
            }
        return 1 + payload
    }

    public var limitViolation: WireError? {
        if let oversized = frameViolation(frameLength) { return oversized }
        return switch self {
        case .load(let url, _): over(url, maxURLBytes, tag: tag)
        case .restoreHistory(_, let count, let urls): historyViolation(count: count, urls, tag: tag)
        case .historyData(let urls): historyViolation(count: nil, urls, tag: tag)
        default: nil
        }
    }
}

// As for `FromWorker`: only the supervisor compares messages.
#if !$Embedded
extension ToWorker: Equatable {}
#endif
