import Testing

@testable import UnifiedLog

/// Many tracev3 files read as one time-ordered stream, a chunkset at a time (issue 33, item 1: streaming, bounded
/// memory).
@Suite struct MergedEntriesReading {
    static func input(_ name: String, _ bytes: [UInt8]) -> MergedEntries.Input {
        MergedEntries.Input(name: name, size: bytes.count) { Array(bytes[$0]) }
    }

    /// The real file: every entry the whole-file reader reads, in time order (those of one moment as the file has
    /// them).
    @Test func theIOSFileStreamsTheEntriesItHoldsInTimeOrder() throws {
        let bytes = Fixture.bytes(Fixture.iOS + ".tracev3")
        let whole = try TraceFile(bytes)
        let merged = MergedEntries([Self.input("f85", bytes)], strings: nil, keep: nil)
        let streamed = Array(merged)
        #expect(merged.failures.isEmpty && streamed.count == whole.entries.count && streamed.count == 8_654)
        #expect(zip(streamed, streamed.dropFirst()).allSatisfy { $0.wallNanoseconds <= $1.wallNanoseconds })
        func key(_ e: LogEntry) -> String { "\(e.wallNanoseconds) \(e.pid) \(e.thread) \(e.eventType) \(e.activityID)" }
        #expect(streamed.map(key).sorted() == whole.entries.map(key).sorted())
        #expect(merged.stateDumps.count == 496)
    }

    /// Files whose times interleave (as Persist and Special do) come out as one ordered stream; a file cut short
    /// gives what it holds before the cut and one failure; bytes that are no tracev3 file, and an empty file, one
    /// failure each.
    @Test func filesThatInterleaveComeOutInOneOrder() throws {
        var files: [[UInt8]] = []
        var written: [Int] = []
        for file in 0..<3 {
            let writer = ArchiveWriter(bootWallSeconds: 1_700_000_000)
            for index in 0..<3_000 {
                let time = 1_700_000_100_000_000_000 + (index * 3 + file) * 1_000_000
                written.append(time)
                writer.add(ArchiveWriter.Entry(
                    wallNanoseconds: time, pid: UInt32(100 + file), process: "/usr/libexec/d\(file)", thread: 1, subsystem: "s",
                    category: "c", type: .default, format: "entry %d", arguments: [.int(Int64(index))]))
            }
            files.append(writer.traceFile()!)
        }
        let merged = MergedEntries(files.enumerated().map { Self.input("\($0.offset)", $0.element) }, strings: nil, keep: nil)
        #expect(Array(merged).map(\.wallNanoseconds) == written.sorted() && merged.failures.isEmpty)

        let cut = Array(files[0].prefix(files[0].count * 2 / 3))
        let damaged = MergedEntries(
            [Self.input("cut", cut), Self.input("junk", Array(repeating: 7, count: 100)), Self.input("empty", [])], strings: nil, keep: nil)
        let read = Array(damaged)
        #expect(!read.isEmpty && read.count < 3_000 && zip(read, read.dropFirst()).allSatisfy { $0.wallNanoseconds <= $1.wallNanoseconds })
        #expect(damaged.failures.map(\.file) == ["cut", "junk", "empty"], "\(damaged.failures)")
    }

    /// Chunksets whose processes write nothing `keep` keeps are not decoded at all (their sub chunks name their
    /// processes), and nothing kept is lost for it: on the real file, the entries kept are those the whole-file
    /// reader keeps, one subsystem or one process at a time.
    @Test(arguments: ["com.apple.UIKit", "com.apple.accounts", "com.apple.HomeKit"])
    func chunksetsOfOtherProcessesAreNotDecoded(subsystem: String) throws {
        let bytes = Fixture.bytes(Fixture.iOS + ".tracev3")
        let keep: (EntryWriter) -> Bool = { $0.subsystem == subsystem }
        let whole = try TraceFile(bytes, keep: keep).entries.filter { $0.eventType == .log }
        let merged = MergedEntries([Self.input("f85", bytes)], strings: nil, keep: keep)
        let kept = Array(merged).filter { $0.eventType == .log }
        func key(_ e: LogEntry) -> String { "\(e.wallNanoseconds) \(e.pid) \(e.thread) \(e.activityID)" }
        #expect(!whole.isEmpty && kept.map(key).sorted() == whole.map(key).sorted())
        #expect(merged.passedOverChunksets > 0, "every chunkset decoded")
    }

    @Test func anArchiveOfOursNamesEachChunksetsProcesses() throws {
        var files: [MergedEntries.Input] = []
        for file in 0..<2 {
            let writer = ArchiveWriter(bootWallSeconds: 1_700_000_000)
            for index in 0..<4_000 {
                writer.add(ArchiveWriter.Entry(
                    wallNanoseconds: 1_700_000_100_000_000_000 + index * 1_000_000, pid: UInt32(100 + file), process: "/usr/libexec/d\(file)",
                    thread: 1, subsystem: "s\(file)", category: "c", type: .default, format: "entry %d", arguments: [.int(Int64(index))]))
            }
            files.append(Self.input("\(file)", writer.traceFile()!))
        }
        let merged = MergedEntries(files, strings: nil, keep: { $0.pid == 101 })
        let kept = Array(merged)
        #expect(kept.count == 4_000 && kept.allSatisfy { $0.pid == 101 } && merged.passedOverChunksets > 1)
    }
}
