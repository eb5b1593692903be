// libFuzzer harness for the tar reader (Sources/LogAnalysis/Input: TarReader, its long names and pax records),
// built and run by `scripts/fuzz`. For any bytes x read as a tar archive:
//   1. Reading never traps, and holds no more than its bounds whatever the headers claim (libFuzzer's malloc and
//      RSS limits stop any allocation sized by a header): no name is longer than `TarName.limit` bytes, and no
//      member gives more data than its size.
//   2. The members (name, size, kind, whether the name was cut), the data of each and whether the archive is
//      damaged are the same whether the source hands x out whole or in pieces of sizes picked from x: gzip's
//      output arrives in any sizes.
import FuzzDriver
import LogAnalysis
import System

/// `bytes` handed out `sizes` at a time (cycled); an empty `sizes` gives all that fits.
struct PieceSource: ByteSource {
    let bytes: [UInt8]
    let sizes: [Int]
    var offset = 0
    var reads = 0

    mutating func read(into buffer: inout [UInt8], from start: Int) throws(SystemError) -> Int {
        var count = min(bytes.count - offset, buffer.count - start)
        if !sizes.isEmpty { count = min(count, sizes[reads % sizes.count]) }
        reads += 1
        for i in 0..<count { buffer[start + i] = bytes[offset + i] }
        offset += count
        return count
    }
}

struct Member: Equatable {
    let path: String
    let size: Int
    let kind: String
    let cut: Bool
    let data: [UInt8]
}

/// Every member of the archive in `source`, each member's data read `readSize` bytes at a time (every other member
/// skipped unread, as a reader passing it over does), and whether it ended damaged.
func members(_ source: PieceSource, readSize: Int) -> (members: [Member], damaged: Bool) {
    let archive = TarReader(source)
    var members: [Member] = []
    var buffer = [UInt8](repeating: 0, count: readSize)
    do throws(SystemError) {
        while let entry = try archive.next() {
            guard entry.path.utf8.count <= TarName.limit else {
                violated("a name of \(entry.path.utf8.count) bytes, over the limit of \(TarName.limit)")
            }
            var data: [UInt8] = []
            if members.count % 2 == 0 {
                while case let n = try archive.readMember(into: &buffer, from: 0), n > 0 { data += buffer[0..<n] }
                guard data.count <= entry.size else { violated("\(data.count) bytes of data in a member of \(entry.size)") }
            }
            members.append(Member(path: entry.path, size: entry.size, kind: "\(entry.kind)", cut: entry.cut, data: data))
        }
    } catch {
        violated("reading from memory failed: \(error)")
    }
    return (members, archive.damaged)
}

// MARK: - Seeds

func header(_ name: [UInt8], type: UInt8, size: Int, extra: [(Int, UInt8)] = []) -> [UInt8] {
    var block = [UInt8](repeating: 0, count: 512)
    block.replaceSubrange(0..<min(name.count, 100), with: name.prefix(100))
    let octal = String(size, radix: 8)
    block.replaceSubrange(124..<135, with: Array((String(repeating: "0", count: 11 - octal.count) + octal).utf8))
    block[156] = type
    block.replaceSubrange(257..<265, with: Array("ustar\u{0}00".utf8))
    for (offset, byte) in extra { block[offset] = byte }
    block.replaceSubrange(148..<156, with: Array("        ".utf8))
    let sum = String(block.reduce(0) { $0 + Int($1) }, radix: 8)
    block.replaceSubrange(148..<155, with: Array((String(repeating: "0", count: 6 - sum.count) + sum + "\u{0}").utf8))
    return block
}

func member(_ name: String, type: Character = "0", data: [UInt8] = [], extra: [(Int, UInt8)] = []) -> [UInt8] {
    header(Array(name.utf8), type: UInt8(ascii: type.unicodeScalars.first!), size: data.count, extra: extra)
        + data + [UInt8](repeating: 0, count: (512 - data.count % 512) % 512)
}

func seeds() -> [(name: String, bytes: [UInt8])] {
    let log = Array("Mar  2 10:11:12 iPhone MyApp(WebKit)[4100] <Notice>: 0x1 - [PID=4107] WebProcessProxy::didFinishLaunching:\n".utf8)
    let end = [UInt8](repeating: 0, count: 1024)
    let long = Array(("sd/" + String(repeating: "a", count: 1500) + "/console.log").utf8)
    let pax = { (key: String, value: String) in
        let text = " \(key)=\(value)\n"
        let length = text.utf8.count + String(text.utf8.count + 2).count
        return member("PaxHeaders/x", type: "x", data: Array("\(length)\(text)".utf8))
    }
    return [
        ("plain", member("sd/", type: "5") + member("sd/console.log", data: log) + end),
        ("gnu-long-name", member("././@LongLink", type: "L", data: long + [0]) + member("short", data: log) + end),
        ("pax-path", pax("path", "sd/renamed.log") + member("sd/console.log", data: log) + end),
        ("pax-sparse", pax("GNU.sparse.name", "sd/sparse.log") + member("sd/GNUSparseFile.1/sparse.log", data: log) + end),
        ("gnu-sparse", member("sd/sparse.log", type: "S", data: log, extra: [(482, 1)]) + [UInt8](repeating: 0, count: 512) + end),
        ("links", member("././@LongLink", type: "K", data: long + [0]) + member("sd/latest.log", type: "2")
            + member("sd/hard.log", type: "1") + member("sd/.hidden", data: log) + end),
        ("cut-short", Array((member("sd/console.log", data: log + log) + end).prefix(700))),
    ]
}

runFuzzer(seeds: seeds) { input in
    let bytes = Array(input)
    let whole = members(PieceSource(bytes: bytes, sizes: []), readSize: 4096)
    let seed = Int(bytes.first ?? 0)
    let sizes = (0..<5).map { 1 + (seed &* 37 &+ $0 &* 13) % (1 + bytes.count / 3) }
    let pieces = members(PieceSource(bytes: bytes, sizes: sizes), readSize: 1 + seed % 700)
    guard pieces.damaged == whole.damaged else {
        violated("damaged: \(pieces.damaged) in pieces of \(sizes), \(whole.damaged) whole")
    }
    guard pieces.members == whole.members else {
        let at = zip(pieces.members, whole.members).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(pieces.members.count, whole.members.count)
        violated("in pieces of \(sizes), member \(at) of \(pieces.members.count) differs from the whole input's (of \(whole.members.count))")
    }
}
