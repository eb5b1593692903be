// libFuzzer harness for the tracev3 reader (Sources/UnifiedLog), built and run by `scripts/fuzz`. For any bytes x,
// read as a tracev3 file, then (after a u32 size each) a uuidtext and a shared-cache strings file:
//   1. Reading the tracev3 file never traps: what it cannot read is a `ChunkFailure`, thrown or noted.
//   2. Every entry read belongs to a chunk read: no more entries than the bytes could hold (one per 24 bytes).
//   3. Its messages made with the strings files (items, printf, <private>) never trap, and change no entry's time,
//      process or kind: the same entries are read with strings as without.
//   4. Read a chunkset at a time (MergedEntries), the file never traps either, nor gives more entries.
//   5. An LZ4 block of x decodes to exactly the size asked, or fails; never a trap.
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
    return [
        ("mac", read("0000000000000030.tracev3", limit: 4096)), ("ios", read("0000000000000f85.tracev3", limit: 65536)),
        ("ours", ours()),
    ]
}

/// An archive of our making: one process's entries of every argument kind, its strings in both kinds of file.
func ours() -> [UInt8] {
    let writer = ArchiveWriter(bootWallSeconds: 1_700_000_000)
    let app = "/private/var/containers/Bundle/Application/A/App.app/App"
    for (index, library) in [nil, "/System/Library/Frameworks/WebKit.framework/WebKit"].enumerated() {
        writer.add(ArchiveWriter.Entry(
            wallNanoseconds: 1_700_000_100_000_000_000 + index, pid: 42, process: app, thread: 1, subsystem: "s",
            category: "c", type: .error, format: "%p %{public}s %5.2f %{private}@ %-3d%% %{bool}d %.*s",
            arguments: [.int(0x10c4), .string("x"), .int(4_611_686_018_427_387_904), .hidden, .int(-7), .int(1), .int(2),
                        .string("abc")], library: library))
    }
    let trace = writer.traceFile() ?? []
    let files = Dictionary(uniqueKeysWithValues: writer.supportFiles().map { ($0.path, $0.bytes) })
    let text = files.first { !$0.key.hasPrefix("dsc/") && !$0.key.hasPrefix("timesync/") }?.value ?? []
    let cache = files.first { $0.key.hasPrefix("dsc/") }?.value ?? []
    return sized(trace) + sized(text) + cache
}

func sized(_ part: [UInt8]) -> [UInt8] { withUnsafeBytes(of: UInt32(part.count).littleEndian, Array.init) + part }

/// The input's parts: the tracev3 file, the uuidtext file, the shared-cache strings (a bare tracev3 file has none).
func parts(_ bytes: [UInt8]) -> (trace: [UInt8], text: [UInt8], cache: [UInt8]) {
    func take(_ at: inout Int) -> [UInt8]? {
        guard bytes.count - at >= 4 else { return nil }
        let size = Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        guard size <= bytes.count - at - 4 else { return nil }
        defer { at += 4 + size }
        return Array(bytes[(at + 4)..<(at + 4 + size)])
    }
    var at = 0
    guard let trace = take(&at), let text = take(&at) else { return (bytes, [], []) }
    return (trace, text, Array(bytes[at...]))
}

runFuzzer(seeds: seeds) { input in
    let bytes = Array(input)
    let (trace, text, cache) = parts(bytes)
    if let file = try? TraceFile(trace) {
        precondition(file.entries.count <= trace.count / 24 + 1, "\(file.entries.count) entries from \(trace.count) bytes")
        let strings = FormatStrings { $0.hasPrefix("dsc/") ? cache : text }
        let formatted = try? TraceFile(trace, strings: strings)
        let read = formatted?.entries.map { "\($0.wallNanoseconds) \($0.pid) \($0.thread) \($0.eventType)" }
        precondition(read == file.entries.map { "\($0.wallNanoseconds) \($0.pid) \($0.thread) \($0.eventType)" })
    }
    // Read a chunkset at a time: never a trap, and no more entries than the bytes could hold. (Its order rests on
    // the times the file's catalogs claim, which damaged bytes may not keep.)
    let input = MergedEntries.Input(name: "x", size: trace.count) { Array(trace[$0]) }
    let merged = Array(MergedEntries([input], strings: FormatStrings { $0.hasPrefix("dsc/") ? cache : text }, keep: nil))
    precondition(merged.count <= trace.count / 24 + 1, "\(merged.count) entries from \(trace.count) bytes")
    // The first two bytes ask for a size (up to 64 KiB); the rest is the block.
    if bytes.count >= 2 {
        let size = Int(bytes[0]) | Int(bytes[1]) << 8
        if let out = try? LZ4Block.decode(bytes[2...], size: size) { precondition(out.count == size) }
    }
}
