// MARK: - Limits

extension Message {
    /// The bytes of its frame after the length header (tag and payload), computed without building it: a sender
    /// checks a message against the cap before it encodes a byte.
    public var frameLength: Int {
        let payload: Int
        switch self {
        case .hello: payload = 4 + 2
        case .load(let url, _), .fetch(let url, _): payload = Self.stringLength(url) + 1
        case .didCommit(let text), .didFinish(let text), .didFailProvisional(let text), .didFail(let text):
            payload = Self.stringLength(text)
        case .reload, .shutdown, .unload, .documentQuery, .historyQuery: payload = 0
        case .fetchReply(_, let mime, _, let body): payload = 2 + Self.stringLength(mime) + 4 + 4 + body.count
        case .fetchData(let body), .documentData(let body): payload = 4 + body.count
        case .document(_, let text): payload = 4 + 4 + text.count
        case .goTo, .titleQuery: payload = 4
        case .restoreHistory(_, _, let urls), .history(_, _, let urls): payload = 4 + 4 + Self.stringsLength(urls)
        case .historyData(let urls): payload = Self.stringsLength(urls)
        case .navigationAction(_, _, let url): payload = 1 + 1 + Self.stringLength(url)
        case .title(_, let title): payload = 4 + Self.stringLength(title)
        case .ping, .pong: payload = 8
        case .input(_, let text): payload = 8 + Self.stringLength(text)
        case .inputApplied: payload = 8 + 8
        }
        return 1 + payload
    }

    /// Why this message may not go on the wire, or nil: a frame over `maxFrameSize`, a URL over `maxURLBytes`, a
    /// title over `maxTitleBytes`, a history over `historyCapacity` entries (or a first piece with more URLs than
    /// its count). The decoder refuses what a sender must not send, so both sides hold the same limits.
    public var limitViolation: WireError? {
        let length = frameLength
        guard length <= maxFrameSize else { return .oversized(length: length) }
        switch self {
        case .load(let url, _), .fetch(let url, _), .didCommit(let url), .navigationAction(_, _, let url):
            return over(url, maxURLBytes)
        case .didFinish(let title), .title(_, let title):
            return over(title, maxTitleBytes)
        case .restoreHistory(_, let count, let urls), .history(_, let count, let urls):
            guard count <= historyCapacity else { return .overLimit(tag: tag, length: Int(count), limit: historyCapacity) }
            guard urls.count <= count else { return .badValue(tag: tag) }
            return urls.lazy.compactMap { over($0, maxURLBytes) }.first
        case .historyData(let urls):
            guard urls.count <= historyCapacity else { return .overLimit(tag: tag, length: urls.count, limit: historyCapacity) }
            return urls.lazy.compactMap { over($0, maxURLBytes) }.first
        default:
            return nil
        }
    }

    private func over(_ string: String, _ limit: Int) -> WireError? {
        let length = string.utf8.count
        return length > limit ? .overLimit(tag: tag, length: length, limit: limit) : nil
    }

    private static func stringLength(_ string: String) -> Int { 4 + string.utf8.count }

    private static func stringsLength(_ strings: [String]) -> Int {
        strings.reduce(4) { $0 + stringLength($1) }
    }
}
