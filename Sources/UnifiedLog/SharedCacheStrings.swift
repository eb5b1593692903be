/// A shared-cache strings file (`dsc/<UUID>`, magic `hcsd`): the format strings of every library in a dyld shared
/// cache. Ranges of the cache's text, each with its strings and the image it belongs to, then the images (UUID,
/// where its text lies, its path). Version 1 stores offsets in 32 bits, version 2 in 64.
public struct SharedCacheStrings: Sendable {
    public struct Image: Equatable, Sendable {
        public let uuid: LogUUID
        /// Where its text lies in the cache.
        public let textOffset: UInt64
        public let textSize: UInt32
        public let path: String
    }

    public struct Range: Equatable, Sendable {
        public let image: Int
        /// Where the range lies in the cache's text, and its size.
        public let offset: UInt64
        public let size: UInt32
        /// Where its strings lie in the file.
        let at: Int
    }

    public let version: UInt16
    public let images: [Image]
    /// By offset, for a binary search.
    public let ranges: [Range]
    private let bytes: [UInt8]

    public init(_ bytes: [UInt8]) throws(ChunkFailure) {
        guard bytes.count >= 16, bytes.starts(with: Array("hcsd".utf8)) else {
            throw ChunkFailure(offset: 0, reason: "not a shared-cache strings file (no 'hcsd' magic)")
        }
        version = bytes.u16(4)
        guard version == 1 || version == 2 else { throw ChunkFailure(offset: 4, reason: "shared-cache strings version \(version)") }
        let wide = version == 2
        let rangeCount = Int(bytes.u32(8)), imageCount = Int(bytes.u32(12))
        var reader = ByteReader(bytes, 16..<bytes.count)
        var ranges: [Range] = [], images: [Image] = []
        do {
            guard rangeCount <= reader.remaining / 16, imageCount <= reader.remaining / 28 else { throw ByteReader.Overrun() }
            for _ in 0..<rangeCount {
                if wide {
                    let offset = try reader.u64(), at = try reader.u32(), size = try reader.u32()
                    let image = try reader.u64()
                    ranges.append(Range(image: Int(clamping: image), offset: offset, size: size, at: Int(at)))
                } else {
                    let image = try reader.u32(), offset = try reader.u32(), at = try reader.u32(), size = try reader.u32()
                    ranges.append(Range(image: Int(image), offset: UInt64(offset), size: size, at: Int(at)))
                }
            }
            for _ in 0..<imageCount {
                let textOffset = wide ? try reader.u64() : UInt64(try reader.u32())
                let textSize = try reader.u32()
                let uuid = LogUUID(try reader.take(16))
                let pathAt = Int(try reader.u32())
                let path = ByteReader.cString(bytes, at: pathAt, within: 0..<bytes.count) ?? ""
                images.append(Image(uuid: uuid, textOffset: textOffset, textSize: textSize, path: path))
            }
        } catch {
            throw ChunkFailure(offset: reader.at, reason: "shared-cache strings cut short")
        }
        if let bad = ranges.firstIndex(where: { $0.image >= images.count }) {
            throw ChunkFailure(offset: 16, reason: "range \(bad) names image \(ranges[bad].image) of \(images.count)")
        }
        self.bytes = bytes
        self.images = images
        self.ranges = ranges.sorted { $0.offset < $1.offset }
    }

    /// The range holding `offset` of the cache's text.
    public func range(holding offset: UInt64) -> Range? {
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].offset <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0, offset - ranges[low - 1].offset < ranges[low - 1].size else { return nil }
        return ranges[low - 1]
    }

    /// The format string at `offset` of the cache's text, and the image it belongs to.
    public func string(at offset: UInt64) -> (format: String, image: Image)? {
        guard let range = range(holding: offset) else { return nil }
        let at = range.at + Int(offset - range.offset)
        let end = min(bytes.count, range.at + Int(range.size))
        guard at < end, let format = ByteReader.cString(bytes, at: at, within: at..<end) else { return nil }
        return (format, images[range.image])
    }

    /// The image whose text holds `offset`: the sender of a message whose format string is not its own (`%s`).
    public func image(holding offset: UInt64) -> Image? {
        images.first { offset >= $0.textOffset && offset - $0.textOffset < $0.textSize }
    }
}
