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

func frameViolation(_ length: Int) -> WireError? {
    length > maxFrameSize ? .oversized(length: length) : nil
}

func over(_ string: String, _ limit: Int, tag: UInt8) -> WireError? {
    let length = string.utf8.count
    return length > limit ? .overLimit(tag: tag, length: length, limit: limit) : nil
}

/// A history's first piece (with its `count`) or a later one: no more entries than a list keeps, no more URLs in
/// the first piece than it announces, no URL over the limit.
func historyViolation(count: UInt32?, _ urls: [String], tag: UInt8) -> WireError? {
    let entries = count.map(Int.init) ?? urls.count
    guard entries <= historyCapacity else { return .overLimit(tag: tag, length: entries, limit: historyCapacity) }
    guard urls.count <= entries else { return .badValue(tag: tag) }
    return urls.lazy.compactMap { over($0, maxURLBytes, tag: tag) }.first
}

func stringLength(_ string: String) -> Int { 4 + string.utf8.count }

func stringsLength(_ strings: [String]) -> Int {
    strings.reduce(4) { $0 + stringLength($1) }
}
