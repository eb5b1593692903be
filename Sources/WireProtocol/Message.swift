/// The version both sides must agree on in `hello`; bump it whenever a message's layout changes.
public let protocolVersion: UInt16 = 5

/// The largest frame (type tag plus payload) either side accepts or sends. Anything that can be bigger (a fetched
/// document, a back/forward list, the editor's document) travels in pieces of at most `pieceBytes`; a peer that
/// announces more is broken or hostile, and the frame is rejected before any of it is buffered.
public let maxFrameSize = 1 << 20

/// What one piece of a large value carries at most, well under the frame cap so that a piece never holds the
/// event loop (or the pipe) for long.
public let pieceBytes = 256 << 10

/// The longest URL either side sends: 64 KiB, what a session file keeps of a string, so that no URL a tab
/// navigated to is ever cut when it is saved. A navigation to a longer one is refused before it starts.
public let maxURLBytes = 64 << 10

/// The longest title either side sends, in UTF-8 bytes: a page's longer title is cut at the last whole character
/// before it, as browsers cap titles (Chromium keeps 4,096 characters).
public let maxTitleBytes = 4 << 10

/// Entries a back/forward list keeps (WebKit's default), on both sides: the oldest goes when it is full.
public let historyCapacity = 100

/// The digest `inputApplied` carries: FNV-1a 64 of the whole document typed so far, continued from `hash` so that
/// the supervisor can extend it input by input.
public func documentDigest(_ bytes: some Sequence<UInt8>, from hash: UInt64 = documentDigestBasis) -> UInt64 {
    var hash = hash
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
}

public let documentDigestBasis: UInt64 = 0xcbf2_9ce4_8422_2325

/// Everything the supervisor and a WebContent worker say to each other.
///
/// The first message on a channel is always the worker's `hello`. The supervisor only ever sends `load`, `reload`,
/// `goTo`, `restoreHistory`, `historyQuery`, `unload`, `fetchReply`, `fetchData`, `titleQuery`, `ping`, `input`,
/// `documentQuery` and `shutdown`; `historyData` goes both ways; everything else comes from the worker.
///
/// One message is one frame. A value that may not fit one (a document, a back/forward list, the editor's text) is
/// sent as a first message that says how much there is in all, followed at once by continuation messages
/// (`fetchData`, `historyData`, `documentData`) until it is complete; nothing else comes between them.
public enum Message: Sendable {
    case hello(pid: Int32, version: UInt16)
    /// A main-frame navigation. When it commits, the worker's back/forward list gains an entry for it, or with
    /// `replace` its current entry becomes it (`location.replace`).
    case load(url: String, replace: Bool)
    case reload
    case shutdown
    /// The page needs a resource: its document (the worker is navigating), or an image or sub-frame it refers to.
    case fetch(url: String, kind: ResourceKind)
    /// The answer to a fetch: `length` bytes in all, `body` the first of them; `fetchData` brings the rest, so a
    /// document bigger than a frame travels in pieces.
    case fetchReply(status: UInt16, mime: String, length: UInt32, body: [UInt8])
    case fetchData(body: [UInt8])
    case didCommit(url: String)
    case didFinish(title: String)
    case didFailProvisional(error: String)
    case didFail(error: String)
    case titleQuery(id: UInt32)
    case title(id: UInt32, title: String)
    case ping(seq: UInt64)
    case pong(seq: UInt64)
    case input(seq: UInt64, text: String)
    case inputApplied(seq: UInt64, digest: UInt64)
    /// Drop the page and everything it held (memory, title, typed input): the worker waits for its next view.
    case unload
    /// Asks for the document typed into the page so far, answered with `document`.
    case documentQuery
    /// The editor's text, `length` bytes in all, `text` the first of them; `documentData` brings the rest.
    case document(length: UInt32, text: [UInt8])
    case documentData(text: [UInt8])
    /// Back or forward: the worker's list moves to entry `index` and loads it.
    case goTo(index: UInt32)
    /// A new worker takes over a tab: its back/forward list becomes `count` URLs, `urls` the first of them and
    /// `historyData` the rest, and it loads entry `index`.
    case restoreHistory(index: UInt32, count: UInt32, urls: [String])
    /// Asks for the worker's back/forward list, answered with `history` (and `historyData`, as for a restore).
    case historyQuery
    case history(index: UInt32, count: UInt32, urls: [String])
    /// More URLs of the `restoreHistory` or `history` just sent.
    case historyData(urls: [String])
    /// The page wants to navigate (a link activated, a form submitted, a redirect); the supervisor decides.
    case navigationAction(type: NavigationType, mainFrame: Bool, url: String)

    /// The one-byte type tag that leads the frame.
    public var tag: UInt8 {
        switch self {
        case .hello: 1
        case .load: 2
        case .reload: 3
        case .shutdown: 4
        case .fetch: 5
        case .fetchReply: 6
        case .didCommit: 7
        case .didFinish: 8
        case .didFailProvisional: 9
        case .didFail: 10
        case .titleQuery: 11
        case .title: 12
        case .ping: 13
        case .pong: 14
        case .input: 15
        case .inputApplied: 16
        case .unload: 17
        case .documentQuery: 18
        case .document: 19
        case .fetchData: 20
        case .goTo: 21
        case .restoreHistory: 22
        case .historyQuery: 23
        case .history: 24
        case .navigationAction: 25
        case .historyData: 26
        case .documentData: 27
        }
    }
}

/// What a fetch is for: the document a navigation loads, or a sub-resource of it that counts toward its render.
public enum ResourceKind: UInt8, Sendable {
    case document = 0
    case image = 1
    case subframe = 2
}

/// Why a navigation happens, as WebKit's `WKNavigationType` names it.
public enum NavigationType: UInt8, Sendable, CaseIterable {
    case linkActivated = 0
    case formSubmitted = 1
    case backForward = 2
    case reload = 3
    case formResubmitted = 4
    case other = 5
}

// The worker (Embedded Swift, which compiles these sources too) never compares messages: equality of their strings
// would link in the Unicode tables that canonical equivalence needs.
#if !hasFeature(Embedded)
extension Message: Equatable {}
#endif

/// Why a byte stream is not a valid sequence of frames. Decoding never traps; the peer that sent such bytes is
/// treated as compromised.
public enum WireError: Error, Equatable, Sendable, CustomStringConvertible {
    case oversized(length: Int)
    case emptyFrame
    case unknownTag(UInt8)
    case truncated(tag: UInt8)
    case trailingBytes(tag: UInt8, count: Int)
    case invalidUTF8(tag: UInt8)
    case badValue(tag: UInt8)
    /// A URL or title longer (in bytes) than the protocol allows, or a history longer (in entries): see
    /// `maxURLBytes`, `maxTitleBytes` and `historyCapacity`.
    case overLimit(tag: UInt8, length: Int, limit: Int)

    public var description: String {
        switch self {
        case .oversized(let length): "frame of \(length) bytes exceeds the \(maxFrameSize)-byte cap"
        case .emptyFrame: "frame has no type tag"
        case .unknownTag(let tag): "unknown message tag \(tag)"
        case .truncated(let tag): "message \(tag) ends before its fields do"
        case .trailingBytes(let tag, let count): "message \(tag) has \(count) stray trailing bytes"
        case .invalidUTF8(let tag): "message \(tag) holds a string that is not UTF-8"
        case .badValue(let tag): "message \(tag) holds a value out of its range"
        case .overLimit(let tag, let length, let limit):
            "message \(tag) holds a field of \(length), over its limit of \(limit)"
        }
    }
}
