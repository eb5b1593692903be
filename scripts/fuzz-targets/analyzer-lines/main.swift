// libFuzzer harness for the analyzer's line pipeline (Sources/LogAnalysis: LineReader, RecordScanner,
// RecordAssembler, then envelopes, our event records and WebKit's messages in LogAnalyzer), built and run by
// `scripts/fuzz`. For any bytes x:
//   1. `LogAnalyzer` reads x as a log (or a report, if x starts like one) and finishes without trapping.
//   2. The records the line pipeline assembles (bytes, envelope, first line) and the lines it counts are the same
//      whether the source hands x out whole or in pieces of sizes picked from x: a read that returns short (a pipe,
//      a decompressor) moves the window boundaries, never the records.
import FuzzDriver
@testable import LogAnalysis
import System

/// `bytes` handed out `sizes` at a time (cycled); a size of 0 or more than is left gives all that fits.
struct PieceSource: ByteSource {
    let bytes: [UInt8]
    let sizes: [Int]
    var offset = 0
    var reads = 0

    mutating func read(into buffer: inout [UInt8], from start: Int) throws(SystemError) -> Int {
        var count = min(bytes.count - offset, buffer.count - start)
        if !sizes.isEmpty, sizes[reads % sizes.count] > 0 { count = min(count, sizes[reads % sizes.count]) }
        reads += 1
        for i in 0..<count { buffer[start + i] = bytes[offset + i] }
        offset += count
        return count
    }
}

struct Record: Equatable {
    let text: [UInt8]
    let format: LogFormat
    let line: Int
}

func records(_ source: PieceSource) -> (records: [Record], lines: Int) {
    var reader = LineReader(source)
    var assembler = RecordAssembler()
    assembler.beginFile()
    var records: [Record] = []
    let lines: Int
    do throws(SystemError) {
        lines = try reader.records(into: &assembler) { text, format, line in
            var bytes: [UInt8] = []
            Sys.append(text, to: &bytes)
            records.append(Record(text: bytes, format: format, line: line))
        }
    } catch {
        violated("reading from memory failed: \(error)")
    }
    return (records, lines)
}

func seeds() -> [(name: String, bytes: [UInt8])] {
    // The analyzer's fixtures (Tests/SupervisorTesting/*Fixtures.swift) are added by the script.
    let lines = [
        "2025-03-02 10:11:12.123456+0100 MyApp[4100:99001] [Process] 0x10a2b3c40 - [PID=4107] WebProcessProxy::didFinishLaunching:",
        "2025-03-02 10:11:12.200000+0100 MyApp[4100:99001] [Process] WebProcessProxy::processDidTerminateOrFailedToLaunch: reason=Crash",
        "  continued",
        #"{"event":"worker-spawned","t":1.5,"worker":1,"pid":4107}"#,
    ]
    return [("xcode", Array((lines[0] + "\n" + lines[1] + "\n" + lines[2] + "\n").utf8)), ("eventlog", Array(lines[3].utf8))]
}

runFuzzer(seeds: seeds) { input in
    let bytes = Array(input)
    let analyzer = LogAnalyzer(LogAnalyzer.Options(zone: ZoneAssumption(zone: .offset(0), reason: .option, year: 2025), replay: true))
    do throws(SystemError) { try analyzer.read(PieceSource(bytes: bytes, sizes: []), name: "fuzz") } catch {
        violated("reading from memory failed: \(error)")
    }
    _ = analyzer.finish().json.text

    let whole = records(PieceSource(bytes: bytes, sizes: []))
    let seed = Int(bytes.first ?? 0)
    let sizes = (0..<7).map { 1 + (seed &* 31 &+ $0 &* 17) % (1 + bytes.count / 2) }
    let pieces = records(PieceSource(bytes: bytes, sizes: sizes))
    guard pieces.lines == whole.lines else { violated("\(pieces.lines) lines read in pieces of \(sizes), \(whole.lines) whole") }
    guard pieces.records == whole.records else {
        let at = zip(pieces.records, whole.records).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(pieces.records.count, whole.records.count)
        violated("in pieces of \(sizes), record \(at) of \(pieces.records.count) differs from the whole input's (of \(whole.records.count))")
    }
}
