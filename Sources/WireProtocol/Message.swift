/// The version both sides must agree on in `hello`; bump it whenever a message's layout changes.
public let protocolVersion: UInt16 = 8

/// Tags run from 1 to this with no gap, across both directions: a tag in that range that a side's decoder does not
/// know is a message of the other direction.
let highestTag: UInt8 = 32

/// The first field of `FromWorker.resynced`, before the generation it answers: what a supervisor that takes a
/// channel over mid-stream looks for (`FrameDecoder.skip(toResynced:)`).
public let resyncMarker: UInt64 = 0x2144_4543_4E59_5352

/// The signal a supervisor that takes a channel over queues to the worker, the generation it asks under as its value
/// (SIGURG, which a process that does not watch for it ignores).
public let resyncSignal: Int32 = 23

/// A message of one direction of the channel between the supervisor and a WebContent worker: `ToWorker` or
/// `FromWorker`. The directions are two types, so that sending the wrong one, or handling a message the peer never
/// sends, does not compile; the decoder of each side knows only what the other side sends, and takes any other tag
/// as a broken peer.
///
/// One message is one frame: a little-endian UInt32 length (tag plus payload), a one-byte tag, the payload. Tags
/// are unique across both directions (`historyData` has the same tag both ways, being the same message), so a
/// frame means one thing wherever it is read. A value that may not fit one frame (a document, a back/forward
/// list, the editor's text) is sent as a first message that says how much there is in all, followed at once by
/// continuation messages (`fetchData`, `historyData`, `documentData`) until it is complete; nothing else comes
/// between them.
public protocol WireMessage: Sendable {
    /// The byte that leads the frame.
    var tag: UInt8 { get }
    /// Appends this message as one frame.
    func encode(into out: inout [UInt8])
    /// Decodes one frame body (tag and payload, without the length header).
    static func decode(_ body: UnsafeRawBufferPointer) throws(WireError) -> Self
    /// The bytes of its frame after the length header, computed without building it: a sender checks a message
    /// against the cap before it encodes a byte.
    var frameLength: Int { get }
    /// Why this message may not go on the wire, or nil: a frame over `maxFrameSize`, a URL over `maxURLBytes`, a
    /// title over `maxTitleBytes`, a history over `historyCapacity` entries (or a first piece with more URLs than
    /// its count). The decoder refuses what a sender must not send, so both sides hold the same limits.
    var limitViolation: WireError? { get }
}

/// The digest `inputApplied` carries: FNV-1a 64 of the whole document typed so far, continued from `hash` so that
/// the supervisor can extend it input by input.
public func documentDigest(_ bytes: some Sequence<UInt8>, from hash: UInt64 = documentDigestBasis) -> UInt64 {
    var hash = hash
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
}

public let documentDigestBasis: UInt64 = 0xcbf2_9ce4_8422_2325

/// What a fetch is for: the document a navigation loads, or a sub-resource of it that counts toward its render.
public enum ResourceKind: UInt8, Sendable, CaseIterable {
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

/// Why a byte stream is not a valid sequence of frames. Decoding never traps; the peer that sent such bytes is
/// treated as compromised.
public enum WireError: Error, Equatable, Sendable, CustomStringConvertible {
    case oversized(length: Int)
    case emptyFrame
    case unknownTag(UInt8)
    /// A message that goes the other way: one that only the receiving side sends.
    case misdirected(tag: UInt8)
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
        case .misdirected(let tag): "message \(tag) goes the other way"
        case .truncated(let tag): "message \(tag) ends before its fields do"
        case .trailingBytes(let tag, let count): "message \(tag) has \(count) stray trailing bytes"
        case .invalidUTF8(let tag): "message \(tag) holds a string that is not UTF-8"
        case .badValue(let tag): "message \(tag) holds a value out of its range"
        case .overLimit(let tag, let length, let limit):
            "message \(tag) holds a field of \(length), over its limit of \(limit)"
        }
    }
}
