import Foundation
import Glibc
import Testing

@testable import LogAnalysis

/// Runs the analyzer over `files` (name, bytes) as one analysis.
func analyze(
    _ files: [(String, [UInt8])], disabled: Set<Rule> = [], story: Int32? = nil, replay: Bool = false
) throws -> AnalysisReport {
    try analyzeNoting(files, disabled: disabled, story: story, replay: replay).report
}

/// The same, with the notes the reading leaves (a listing's processes, a report with no process).
func analyzeNoting(
    _ files: [(String, [UInt8])], disabled: Set<Rule> = [], story: Int32? = nil, replay: Bool = false
) throws -> (report: AnalysisReport, notes: [String]) {
    let folder = try TemporaryFolder([:])
    let analyzer = LogAnalyzer(LogAnalyzer.Options(story: story, disabled: disabled, replay: replay))
    for (name, bytes) in files {
        let path = folder.path + "/" + name
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        try analyzer.read(fd, name: name)
    }
    let report = analyzer.finish()
    return (report, analyzer.readingNotes)
}

func analyze(_ text: String, disabled: Set<Rule> = [], story: Int32? = nil) throws -> AnalysisReport {
    try analyze([("fixture.log", Array(text.utf8))], disabled: disabled, story: story)
}

/// Runs the analyzer over `files` (name, text) as one analysis, reading times without a zone as `zone` says.
func analyze(_ files: [(String, String)], zone: ZoneAssumption, story: Int32? = nil) throws -> AnalysisReport {
    let analyzer = LogAnalyzer(LogAnalyzer.Options(story: story, zone: zone))
    for (name, text) in files { try analyzer.read(MemorySource(Array(text.utf8)), name: name) }
    return analyzer.finish()
}

/// The same bytes through the reader and the scanner, in reads of the sizes given.
func skimmed(_ bytes: [UInt8], reads: [Int]) throws -> Assembled {
    var assembler = RecordAssembler()
    var result = Assembled()
    var reader = LineReader(MemorySource(bytes, chunks: reads))
    result.lines = try reader.records(into: &assembler, emit: { text, format, line in
        result.records.append("\(line) \(format.rawValue): " + text.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) })
    })
    result.formatCounts = assembler.formatCounts
    result.skipped = assembler.linesSkipped
    return result
}

/// What an assembler emitted, and what it counted.
struct Assembled: Equatable, CustomStringConvertible {
    var records: [String] = []
    var lines = 0
    var formatCounts: [Int] = []
    var skipped = 0

    var description: String { "\(lines) lines, \(records.count) records:\n" + records.joined(separator: "\n") }
}

extension AnalysisReport {
    var summaryOfIncidents: [String] {
        incidents.map { "\($0.pid.map(String.init) ?? "-") \($0.kind.rawValue) \($0.confidence.rawValue)" }
    }
}
