import System

/// Reads a source in large blocks and hands out windows of whole lines in place, without copying them and in bounded
/// memory. Before each window it keeps up to `LineLimits.lookBehind` bytes of the lines already handed out, so that the
/// lines before a hit can still be read. A line is read up to its first `LineLimits.maximumLength` bytes: the rest of a
/// longer line still unfinished when a block ends is dropped as it arrives, so a 100 MB line costs no more memory than
/// a short one. Every line in a window ends with a newline, the last line of the input too (one is added if it has
/// none).
package struct LineReader<Source: ByteSource> {
    package static var blockSize: Int { 1 << 20 }

    private var source: Source
    /// Holds the window handed out last.
    package private(set) var buffer: [UInt8]
    /// Holds the window before it, untouched until the next one is read: the two can be worked on at once.
    package private(set) var previous: [UInt8]
    /// Where the next window starts in `buffer`: the bytes before it were handed out.
    private var start = 0
    private var end = 0
    package private(set) var bytesRead = 0
    /// In the dropped rest of a line cut at `LineLimits.maximumLength`.
    private var dropping = false
    private var atEnd = false

    package init(_ source: Source) {
        self.source = source
        // Only bytes read or carried in are ever looked at: pages an input never reaches stay untouched.
        buffer = Sys.unfilledBytes(count: LineLimits.lookBehind + LineLimits.maximumLength + 1 + Self.blockSize)
        previous = Sys.unfilledBytes(count: buffer.count)
    }

    /// The next window of whole lines in `buffer` (perhaps empty), and by how much the bytes already handed out moved
    /// towards the buffer's start as they were carried over from `previous`; nil at the end of the input. A window
    /// begins where the last one ended.
    package mutating func nextWindow() throws(SystemError) -> (lines: Range<Int>, moved: Int)? {
        guard !atEnd else { return nil }
        let moved = turn()
        let fresh = end
        let count = try source.read(into: &buffer, from: end)
        bytesRead += count
        guard count > 0 else {
            atEnd = true
            if end > start, buffer[end - 1] != 10 {
                buffer[end] = 10
                end += 1
            }
            return window(upTo: end, moved: moved)
        }
        end += count
        if dropping { dropRest(from: fresh) }
        var limit = Sys.lastIndex(of: 10, in: buffer, start..<end).map { $0 + 1 } ?? start
        if end - limit > LineLimits.maximumLength {
            // The unfinished line ends where its first `LineLimits.maximumLength` bytes do; its newline is still to
            // come.
            end = limit + LineLimits.maximumLength + 1
            buffer[end - 1] = 10
            dropping = true
            limit = end
        }
        return window(upTo: limit, moved: moved)
    }

    private mutating func window(upTo limit: Int, moved: Int) -> (lines: Range<Int>, moved: Int) {
        defer { start = limit }
        return (start..<limit, moved)
    }

    /// Drops the bytes read from `fresh` on up to the newline that ends the line being cut, and that newline.
    private mutating func dropRest(from fresh: Int) {
        guard let newline = Sys.firstIndex(of: 10, in: buffer, fresh..<end) else {
            end = fresh
            return
        }
        dropping = false
        let rest = end - (newline + 1)
        Sys.move(in: &buffer, newline + 1..<end, to: fresh)
        end = fresh + rest
    }

    /// Makes `buffer` the previous one and carries what must stay (the unfinished line, and up to
    /// `LineLimits.lookBehind` bytes before it) to the start of the other; returns by how much it moved.
    private mutating func turn() -> Int {
        let keep = max(0, start - LineLimits.lookBehind)
        swap(&buffer, &previous)
        Sys.copy(previous, keep..<end, to: &buffer)
        start -= keep
        end -= keep
        return keep
    }
}

/// How much of a line is read, and how far back from a hit the lines before it are.
package enum LineLimits {
    package static let maximumLength = 64 << 10
    /// Four records' worth (`RecordAssembler.recordLimit`): a hit further into a record than that is past the part
    /// of it that is read anyway.
    package static let lookBehind = 64 << 10
}
