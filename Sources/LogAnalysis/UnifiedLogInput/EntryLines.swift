import System
import UnifiedLog

/// Entries as the lines `log show --style ndjson` prints, made as they are read: the analyzer's view of an archive.
struct EntryLines: ByteSource {
    private let entries: MergedEntries
    private var line: [UInt8] = []
    private var handedOut = 0
    private var clock = NDJSONClock()

    init(_ entries: MergedEntries) {
        self.entries = entries
    }

    mutating func read(into buffer: inout [UInt8], from offset: Int) throws(SystemError) -> Int {
        var at = offset
        while at < buffer.count {
            if handedOut == line.count {
                guard let entry = entries.next() else { break }
                line.removeAll(keepingCapacity: true)
                entry.appendNDJSON(to: &line, clock: &clock)
                handedOut = 0
            }
            let count = min(line.count - handedOut, buffer.count - at)
            Sys.copy(line, handedOut..<(handedOut + count), to: &buffer, at: at)
            handedOut += count
            at += count
        }
        return at - offset
    }
}
