/// Reads a file in large blocks and hands out its lines in place, without copying them and in bounded memory: a
/// line longer than `maximumLength` is cut there and the rest of it skipped, so a 100 MB line costs no more memory
/// than a short one. Line ends are found with memchr; a `\r` before the `\n` is dropped.
struct LineReader<Source: ByteSource> {
    static var blockSize: Int { 1 << 20 }
    static var maximumLength: Int { 64 << 10 }

    private var source: Source
    private var buffer = [UInt8](repeating: 0, count: blockSize + maximumLength)
    private var bytesRead = 0

    init(_ source: Source) {
        self.source = source
    }

    /// Calls `body` with every line, and `afterRead` with the bytes read so far after every block.
    mutating func forEachLine(_ body: (Span<UInt8>) -> Void, afterRead: (Int) -> Void = { _ in }) throws(SystemError) {
        var start = 0
        var end = 0
        var skipping = false
        var atEnd = false
        while true {
            while let newline = Sys.firstIndex(of: 10, in: buffer, start..<end) {
                if skipping {
                    skipping = false
                } else {
                    emit(start..<newline, body)
                }
                start = newline + 1
            }
            if !skipping, end - start >= Self.maximumLength {
                emit(start..<start + Self.maximumLength, body)
                skipping = true
            }
            if skipping { start = end }
            if atEnd {
                if end > start { emit(start..<end, body) }
                return
            }
            // Keep the unfinished line at the front: at most `maximumLength` bytes, so a block always fits after it.
            for i in start..<end { buffer[i - start] = buffer[i] }
            end -= start
            start = 0
            let count = try source.read(into: &buffer, from: end)
            bytesRead += count
            afterRead(bytesRead)
            if count == 0 { atEnd = true } else { end += count }
        }
    }

    private func emit(_ range: Range<Int>, _ body: (Span<UInt8>) -> Void) {
        var upper = range.upperBound
        if upper > range.lowerBound, buffer[upper - 1] == 13 { upper -= 1 }
        body(buffer.span.extracting(range.lowerBound..<upper))
    }
}
