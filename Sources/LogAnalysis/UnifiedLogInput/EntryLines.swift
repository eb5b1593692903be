import System
import UnifiedLog

/// Entries as the lines `log show --style ndjson` prints, made as they are read: the analyzer's view of an archive.
/// A class, so that the count of lines made is there once the analyzer is done with it.
final class EntryLines: ByteSource {
    private let entries: MergedEntries
    private(set) var count = 0
    private var line: [UInt8] = []
    private var handedOut = 0
    private var clock = NDJSONClock()

    init(_ entries: MergedEntries) {
        self.entries = entries
    }

    func read(into buffer: inout [UInt8], from offset: Int) throws(SystemError) -> Int {
        var at = offset
        while at < buffer.count {
            if handedOut == line.count {
                guard let entry = entries.next() else { break }
                count += 1
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
