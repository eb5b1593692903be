import Foundation
import Glibc
import Testing

@testable import LogAnalysis
@testable import SupervisorTesting

/// Runs `files` (name, bytes) through an `InputReader`, as the CLI does, and returns the report and the notes.
func readInputs(_ files: [(String, [UInt8])]) throws -> (report: AnalysisReport, notes: [String]) {
    let folder = try TemporaryFolder([:])
    let analyzer = LogAnalyzer()
    let reader = InputReader(analyzer)
    for (name, bytes) in files {
        let path = folder.path + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        try reader.read(fd, name: name, passingOverBinary: true)
    }
    return (analyzer.finish(), reader.notes)
}

func utf16(_ text: String, bigEndian: Bool, mark: Bool) -> [UInt8] {
    let units = (mark ? [0xFEFF] : []) + Array(text.utf16)
    return units.flatMap { unit in bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
}

/// Inputs that are not UTF-8 text as they stand.
@Suite struct InputEncodings {
    /// A UTF-16 log, with or without a byte-order mark, in either byte order, reads as its UTF-8 original does.
    @Test(arguments: [(false, true), (true, true), (false, false), (true, false)])
    func aUTF16LogReadsLikeItsUTF8Original(bigEndian: Bool, mark: Bool) throws {
        let (report, notes) = try readInputs([("utf16.log", utf16(Fixture.xcode, bigEndian: bigEndian, mark: mark))])
        #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"])
        #expect(report.formatLines == [.xcode: 7] && report.linesSkipped == 1 && notes.isEmpty)
        #expect(report.incidents.first?.evidence.first?.text.hasPrefix("2025-03-02 10:11:12.12") == true)
    }

    /// Characters outside the BMP (surrogate pairs), split across reads at every offset, come out as UTF-8; a lone
    /// surrogate and an odd last byte become U+FFFD.
    @Test func surrogatePairsSurviveAnySplit() throws {
        let text = "My App 🦊 [4100] \u{10FFFF} é\n"
        for chunk in 1...9 {
            for bigEndian in [false, true] {
                var source = UTF16Source(MemorySource(utf16(text, bigEndian: bigEndian, mark: true), chunk: chunk), order: bigEndian ? .bigEndian : .littleEndian)
                #expect(try drain(&source) == Array(text.utf8), "chunk \(chunk)")
            }
        }
        var broken = UTF16Source(MemorySource([0x3D, 0xD8, 0x41, 0x00, 0x42]), order: .littleEndian)
        #expect(try drain(&broken) == Array("\u{FFFD}A\u{FFFD}".utf8))
    }

    @Test func utf8TextIsNotTakenForUTF16() {
        #expect(UTF16Order.of(Array(Fixture.xcode.utf8)) == nil)
        #expect(UTF16Order.of(utf16(Fixture.syslog, bigEndian: false, mark: false)) == .littleEndian)
        #expect(!InputReader.looksBinary(Array(Fixture.consoleApp.utf8)))
    }

    private func drain(_ source: inout some ByteSource) throws -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 5)
        while true {
            let n = try source.read(into: &buffer, from: 1)
            if n == 0 { return out }
            out += buffer[1..<1 + n]
        }
    }
}
