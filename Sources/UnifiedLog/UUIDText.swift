/// A uuidtext file (`XX/<30 hex digits>` in an archive, named by an image's UUID): the format strings of one ordinary
/// binary, as ranges of its text, and the binary's path. A header (magic 0x66778899, version 2.1, a range count), a
/// descriptor per range (its offset in the image's text, its size), the ranges' strings back to back, then the path.
public struct UUIDText: Sendable {
    static let magic: UInt32 = 0x6677_8899

    private let bytes: [UInt8]
    /// Each range: its start in the image's text, its size, and where its strings lie in `bytes`.
    private let ranges: [(start: UInt32, size: UInt32, at: Int)]
    /// The image's path, as the process's or the sender's name.
    public let imagePath: String

    public init(_ bytes: [UInt8]) throws(ChunkFailure) {
        guard bytes.count >= 16, bytes.u32(0) == Self.magic else {
            throw ChunkFailure(offset: 0, reason: "not a uuidtext file (no 0x66778899 magic)")
        }
        let count = Int(bytes.u32(12))
        guard count <= (bytes.count - 16) / 8 else { throw ChunkFailure(offset: 12, reason: "\(count) ranges in \(bytes.count) bytes") }
        var ranges: [(start: UInt32, size: UInt32, at: Int)] = []
        var at = 16 + 8 * count
        for index in 0..<count {
            let start = bytes.u32(16 + 8 * index), size = bytes.u32(20 + 8 * index)
            guard Int(size) <= bytes.count - at else {
                throw ChunkFailure(offset: 16 + 8 * index, reason: "a range of \(size) bytes where \(bytes.count - at) remain")
            }
            ranges.append((start, size, at))
            at += Int(size)
        }
        self.bytes = bytes
        self.ranges = ranges
        imagePath = ByteReader.cString(bytes, at: at, within: at..<bytes.count) ?? ""
    }

    /// The NUL-terminated string at `offset` in the image's text, if a range holds it.
    public func string(at offset: UInt64) -> String? {
        for range in ranges where offset >= range.start && offset - UInt64(range.start) < range.size {
            let at = range.at + Int(offset - UInt64(range.start))
            return ByteReader.cString(bytes, at: at, within: at..<(range.at + Int(range.size)))
        }
        return nil
    }
}
