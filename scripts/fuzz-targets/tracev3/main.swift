// libFuzzer harness for the tracev3 reader (Sources/UnifiedLog), built and run by `scripts/fuzz`. For any bytes x:
//   1. Reading x as a tracev3 file never traps: what it cannot read is a `ChunkFailure`, thrown or noted.
//   2. Every entry read belongs to a chunk read: no more entries than the bytes could hold (one per 24 bytes).
//   3. An LZ4 block of x decodes to exactly the size asked, or fails; never a trap.
import FuzzDriver
import Glibc
import UnifiedLog

/// The real Mac file, and the iOS file's first 64 KB (its header, first catalog and first chunksets), from the
/// repository's fixtures.
func seeds() -> [(name: String, bytes: [UInt8])] {
    var folder = #filePath
    for _ in 0..<3 { folder = String(folder[..<folder.lastIndex(of: "/")!]) }
    folder += "/Tests/Fixtures/unified-log/"
    func read(_ name: String, limit: Int) -> [UInt8] {
        guard let file = fopen(folder + name, "rb") else { return [] }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: limit)
        bytes.removeLast(limit - fread(&bytes, 1, limit, file))
        return bytes
    }
    return [("mac", read("0000000000000030.tracev3", limit: 4096)), ("ios", read("0000000000000f85.tracev3", limit: 65536))]
}

runFuzzer(seeds: seeds) { input in
    let bytes = Array(input)
    if let file = try? TraceFile(bytes) {
        precondition(file.entries.count <= bytes.count / 24 + 1, "\(file.entries.count) entries from \(bytes.count) bytes")
    }
    // The first two bytes ask for a size (up to 64 KiB); the rest is the block.
    if bytes.count >= 2 {
        let size = Int(bytes[0]) | Int(bytes[1]) << 8
        if let out = try? LZ4Block.decode(bytes[2...], size: size) { precondition(out.count == size) }
    }
}
