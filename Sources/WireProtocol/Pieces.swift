// MARK: - Large values in pieces

extension Message {
    /// A back/forward list as the messages that carry it: `restoreHistory` (or, with `restoring` false, `history`)
    /// with the index, the count and the first URLs, then `historyData` with the rest, each within `pieceBytes`.
    /// A URL is never split: each fits a piece, being at most `maxURLBytes`.
    public static func historyPieces(restoring: Bool, index: UInt32, urls: [String]) -> [Message] {
        var messages: [Message] = []
        var start = 0
        repeat {
            var end = start
            var bytes = 0
            while end < urls.count, end == start || bytes + 4 + urls[end].utf8.count <= pieceBytes {
                bytes += 4 + urls[end].utf8.count
                end += 1
            }
            let piece = Array(urls[start..<end])
            let count = UInt32(urls.count)
            messages.append(
                start > 0 ? .historyData(urls: piece)
                    : restoring ? .restoreHistory(index: index, count: count, urls: piece)
                    : .history(index: index, count: count, urls: piece))
            start = end
        } while start < urls.count
        return messages
    }

    /// The editor's text as `document` with its length and first bytes, then `documentData` with the rest.
    public static func documentPieces(_ text: [UInt8]) -> [Message] {
        let first = min(text.count, pieceBytes)
        var messages: [Message] = [.document(length: UInt32(text.count), text: Array(text[..<first]))]
        var start = first
        while start < text.count {
            let end = min(start + pieceBytes, text.count)
            messages.append(.documentData(text: Array(text[start..<end])))
            start = end
        }
        return messages
    }
}

/// Where to end a piece of UTF-8 text that starts at `start` and may take at most `limit` bytes: the last
/// character boundary within the limit, so that no piece (nor a cut title) ends halfway through a character. Bytes
/// that are not UTF-8 at all are cut at the limit.
public func utf8Boundary(in bytes: [UInt8], from start: Int, limit: Int) -> Int {
    let cut = min(bytes.count, start + limit)
    var end = cut
    while end > start, end < bytes.count, bytes[end] & 0xC0 == 0x80 { end -= 1 }
    return end > start ? end : cut
}
