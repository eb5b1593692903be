/// A tracev3 file is a sequence of chunks, each a 16-byte preamble (tag u32, subtag u32, data size u64, little
/// endian) and its data, the next starting at the following multiple of 8. Chunksets hold more chunks, LZ4-compressed.
public struct Chunk: Equatable, Sendable {
    public enum Tag: UInt32, Sendable {
        case header = 0x1000
        case firehose = 0x6001
        case oversize = 0x6002
        case statedump = 0x6003
        case simpledump = 0x6004
        case catalog = 0x600b
        case chunkset = 0x600d
    }

    /// The raw tag: one this reader does not know is kept, and skipped.
    public let tag: UInt32
    public let subtag: UInt32
    /// Where its data lies in the bytes it was read from.
    public let data: Range<Int>

    public var kind: Tag? { Tag(rawValue: tag) }
}

/// What could not be read, and where: the walk stops there, and says so once.
public struct ChunkFailure: Error, Equatable, Sendable {
    public let offset: Int
    public let reason: String
}

extension Chunk {
    static let preambleSize = 16

    /// The chunks of `bytes` in order; stops at the first that does not fit, with `failure` saying where.
    public static func walk(_ bytes: [UInt8], in range: Range<Int>? = nil) -> (chunks: [Chunk], failure: ChunkFailure?) {
        let range = range ?? bytes.indices
        var chunks: [Chunk] = []
        var at = range.lowerBound
        while at < range.upperBound {
            guard range.upperBound - at >= preambleSize else {
                return (chunks, ChunkFailure(offset: at, reason: "a chunk preamble cut short"))
            }
            let size = Int(clamping: bytes.u64(at + 8))
            let start = at + preambleSize
            guard size <= range.upperBound - start else {
                return (chunks, ChunkFailure(offset: at, reason: "a chunk of \(size) bytes where \(range.upperBound - start) remain"))
            }
            chunks.append(Chunk(tag: bytes.u32(at), subtag: bytes.u32(at + 4), data: start..<(start + size)))
            // The next chunk starts at the next multiple of 8 (the last may end without its padding).
            at = min(range.upperBound, (start + size + 7) & ~7)
        }
        return (chunks, nil)
    }
}

extension Array where Element == UInt8 {
    /// Little-endian integers at `at`; the caller has checked that they fit.
    @inline(__always) func u16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    @inline(__always) func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
    @inline(__always) func u64(_ at: Int) -> UInt64 { UInt64(u32(at)) | UInt64(u32(at + 4)) << 32 }
}
