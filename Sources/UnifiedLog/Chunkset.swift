/// A chunkset's data: blocks, each `bv41` (LZ4: decoded size u32, encoded size u32, the encoded bytes) or `bv4-`
/// (stored: size u32, the bytes), until the end marker `bv4$`. What they decode to is more chunks.
public enum Chunkset {
    static let lz4 = Array("bv41".utf8), stored = Array("bv4-".utf8), end = Array("bv4$".utf8)
    /// The most a chunkset may decode to: far above what logd writes (about 64 KiB), far below what would hurt.
    public static let maxDecodedBytes = 16 << 20

    public static func decode(_ bytes: [UInt8], _ data: Range<Int>) throws(ChunkFailure) -> [UInt8] {
        var out: [UInt8] = []
        var at = data.lowerBound
        while at < data.upperBound {
            guard data.upperBound - at >= 4 else { throw ChunkFailure(offset: at, reason: "a chunkset block cut short") }
            let magic = bytes[at..<(at + 4)]
            if magic.elementsEqual(end) { return out }
            if magic.elementsEqual(lz4) {
                guard data.upperBound - at >= 12 else { throw ChunkFailure(offset: at, reason: "a bv41 header cut short") }
                let (decoded, encoded) = (Int(bytes.u32(at + 4)), Int(bytes.u32(at + 8)))
                let start = at + 12
                guard encoded <= data.upperBound - start else {
                    throw ChunkFailure(offset: at, reason: "a bv41 block of \(encoded) bytes where \(data.upperBound - start) remain")
                }
                guard decoded <= maxDecodedBytes - out.count else {
                    throw ChunkFailure(offset: at, reason: "a chunkset decoding to more than \(maxDecodedBytes) bytes")
                }
                do {
                    out += try LZ4Block.decode(bytes[start..<(start + encoded)], size: decoded)
                } catch {
                    throw ChunkFailure(offset: at, reason: "a damaged LZ4 block (\(error))")
                }
                at = start + encoded
            } else if magic.elementsEqual(stored) {
                guard data.upperBound - at >= 8 else { throw ChunkFailure(offset: at, reason: "a bv4- header cut short") }
                let size = Int(bytes.u32(at + 4))
                let start = at + 8
                guard size <= data.upperBound - start, size <= maxDecodedBytes - out.count else {
                    throw ChunkFailure(offset: at, reason: "a stored block of \(size) bytes that does not fit")
                }
                out += bytes[start..<(start + size)]
                at = start + size
            } else if magic.prefix(3).elementsEqual("ZBM".utf8) {
                throw ChunkFailure(offset: at, reason: "an LZBITMAP (ZBM) chunkset, which this reader does not decode yet")
            } else {
                throw ChunkFailure(offset: at, reason: "a chunkset block that is not bv41, bv4- or bv4$")
            }
        }
        throw ChunkFailure(offset: at, reason: "a chunkset with no bv4$ end")
    }
}
