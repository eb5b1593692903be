// libFuzzer harness for the analyzer's diagnostic report readers (Sources/LogAnalysis/DeviceReports: the `.ips` JSON
// crash and JetsamEvent reports through `JSONReader`, and the text crash report), built and run by `scripts/fuzz`.
// For any bytes x:
//   1. Telling whether x is a report, and reading it as a JSON report and as a text report, never traps; reading it
//      from a source that hands it out in pieces gives the same facts as from the whole.
//   2. The lenient reader agrees with the strict parser (Events' `JSON.parse`) on what the strict one accepts: for
//      a JSON object, array or string, `skipValue` ends exactly where the value does and does not stop, and an
//      object has as many members, read with `nextMember`, as the parser found.
import Events
import FuzzDriver
import LogAnalysis
import System

struct PieceSource: ByteSource {
    let bytes: [UInt8]
    let size: Int
    var offset = 0

    mutating func read(into buffer: inout [UInt8], from start: Int) throws(SystemError) -> Int {
        let count = min(bytes.count - offset, buffer.count - start, size)
        for i in 0..<count { buffer[start + i] = bytes[offset + i] }
        offset += count
        return count
    }
}

func facts(_ source: PieceSource, as shape: DiagnosticReport.Shape) -> String {
    var source = source
    do throws(SystemError) {
        let reading = try DiagnosticReport.read(&source, as: shape)
        return "\(reading.format) \(reading.lines) \(reading.bytes) \(reading.facts.map { String(describing: $0) })"
    } catch {
        violated("reading from memory failed: \(error)")
    }
}

func checkReader(_ bytes: [UInt8]) {
    guard let value = JSON.parse(bytes) else { return }
    let start = DiagnosticReport.contentStart(of: bytes)
    var end = bytes.count
    while end > start, [32, 9, 10, 13].contains(bytes[end - 1]) { end -= 1 }
    switch value {
    case .object, .array, .string:
        var reader = JSONReader(bytes, from: start)
        reader.skipValue()
        guard !reader.stopped, reader.position == end else {
            violated("skipValue over valid JSON stopped (\(reader.stopped)) at \(reader.position), not at its end \(end)")
        }
    default:
        return
    }
    guard case .object(let members) = value else { return }
    var reader = JSONReader(bytes, from: start)
    guard reader.beginObject() else { violated("beginObject refused a valid JSON object") }
    var count = 0
    while reader.nextMember() != nil { count += 1 }
    guard !reader.stopped, count == members.count else {
        violated("nextMember found \(count) members (stopped: \(reader.stopped)) in an object of \(members.count)")
    }
}

func seeds() -> [(name: String, bytes: [UInt8])] {
    // The report fixtures (Tests/SupervisorTesting/ReportFixtures.swift) are added by the script.
    let metadata = #"{"bug_type":"298","timestamp":"2026-03-02 10:11:13.00 -0800","name":"JetsamEvent"}"#
    let jetsam = #"{"largestProcess":"com.apple.WebKit.WebContent","processes":[{"pid":4107,"name":"com.apple.WebKit.WebContent","reason":"per-process-limit","rpages":51200}],"pageSize":16384}"#
    let crash = "Process:               com.apple.WebKit.WebContent [4107]\nException Type:  EXC_BAD_ACCESS (SIGSEGV)\n"
    return [("jetsam", Array((metadata + "\n" + jetsam).utf8)), ("text-crash", Array(crash.utf8)), ("json", Array(#"{"a":[1,{"b":"\u00e9"}],"c":null}"#.utf8))]
}

runFuzzer(seeds: seeds) { input in
    let bytes = Array(input)
    _ = DiagnosticReport.shape(of: Array(bytes.prefix(DiagnosticReport.headLimit)))
    for shape in [DiagnosticReport.Shape.ips, .text] {
        let whole = facts(PieceSource(bytes: bytes, size: Int.max), as: shape)
        let size = 1 + Int(bytes.last ?? 0) % 29
        let pieces = facts(PieceSource(bytes: bytes, size: size), as: shape)
        guard whole == pieces else { violated("the \(shape) report read in pieces of \(size) differs: \(pieces) vs \(whole)") }
    }
    checkReader(bytes)
}
