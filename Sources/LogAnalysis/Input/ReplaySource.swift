import System

/// A source whose first bytes were read ahead to tell what it holds (a report, a compressed file, UTF-16 text): it
/// hands those bytes out again, then the rest, so that telling costs no second read and works on a pipe.
package struct ReplaySource<Base: ByteSource>: ByteSource {
    /// The bytes read ahead: `limit` of them, or the whole source if it is shorter.
    package let head: [UInt8]
    private var replayed = 0
    private var base: Base

    package init(_ base: Base, limit: Int) throws(SystemError) {
        var base = base
        var head = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let n = try base.read(into: &head, from: count)
            if n == 0 { break }
            count += n
        }
        head.removeSubrange(count...)
        self.head = head
        self.base = base
    }

    package mutating func read(into buffer: inout [UInt8], from offset: Int) throws(SystemError) -> Int {
        guard replayed < head.count else { return try base.read(into: &buffer, from: offset) }
        let count = min(head.count - replayed, buffer.count - offset)
        Sys.copy(head, replayed..<replayed + count, to: &buffer, at: offset)
        replayed += count
        return count
    }
}
