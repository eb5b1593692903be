import LogAnalysis
import System

/// Bytes in memory, handed out in reads of at most `chunks` bytes, in turn, as a pipe would.
struct MemorySource: ByteSource {
    let bytes: [UInt8]
    let chunks: [Int]
    private var offset = 0
    private var reads = 0

    init(_ bytes: [UInt8], chunk: Int = 1 << 20) {
        self.init(bytes, chunks: [chunk])
    }

    init(_ bytes: [UInt8], chunks: [Int]) {
        self.bytes = bytes
        self.chunks = chunks
    }

    mutating func read(into buffer: inout [UInt8], from start: Int) throws(SystemError) -> Int {
        let count = min(chunks[reads % chunks.count], buffer.count - start, bytes.count - offset)
        reads += 1
        buffer.replaceSubrange(start..<start + count, with: bytes[offset..<offset + count])
        offset += count
        return count
    }
}
