// MARK: - Large values in pieces

extension ToWorker {
    /// A back/forward list as the messages that restore it in a new worker: `restoreHistory` with the index, the
    /// count and the first URLs, then `historyData` with the rest.
    public static func restorePieces(index: UInt32, urls: [String]) -> [ToWorker] {
        let count = UInt32(urls.count)
        return urlPieces(urls).enumerated().map { piece in
            piece.offset == 0 ? .restoreHistory(index: index, count: count, urls: piece.element)
                : .historyData(urls: piece.element)
        }
    }
}

extension FromWorker {
    /// The worker's back/forward list as the messages that report it: `history`, then `historyData`, as for a
    /// restore.
    public static func historyPieces(index: UInt32, urls: [String]) -> [FromWorker] {
        let count = UInt32(urls.count)
        return urlPieces(urls).enumerated().map { piece in
            piece.offset == 0 ? .history(index: index, count: count, urls: piece.element) : .historyData(urls: piece.element)
        }
    }

    /// The editor's text as `document` with its length and first bytes, then `documentData` with the rest.
    public static func documentPieces(_ text: [UInt8]) -> [FromWorker] {
        let first = min(text.count, pieceBytes)
        var messages: [FromWorker] = [.document(length: UInt32(text.count), text: Array(text[..<first]))]
        var start = first
        while start < text.count {
            let end = min(start + pieceBytes, text.count)
            messages.append(.documentData(text: Array(text[start..<end])))
            start = end
        }
        return messages
    }
}

/// URLs in runs that each fit a piece, at least one run even for none. A URL is never split: each fits a piece,
/// being at most `maxURLBytes`.
func urlPieces(_ urls: [String]) -> [[String]] {
    var pieces: [[String]] = []
    var start = 0
    repeat {
        var end = start
        var bytes = 0
        while end < urls.count, end == start || bytes + 4 + urls[end].utf8.count <= pieceBytes {
            bytes += 4 + urls[end].utf8.count
            end += 1
        }
        pieces.append(Array(urls[start..<end]))
        start = end
    } while start < urls.count
    return pieces
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
