import Testing

@testable import UnifiedLog

/// The archive's timesync files give entries their wall-clock time (issue 33, item 1): each boot's records, the
/// last sync at or before an entry its anchor.
@Suite struct TimesyncReading {
    /// The real timesync file of the fixtures (libyal's test data): read whole, five boots, 4,089 syncs.
    @Test func theRealFileIsReadWhole() throws {
        var timesync = Timesync()
        timesync.add(Fixture.bytes("timesync/0000000000000002.timesync"))
        #expect(timesync.boots.count == 5 && timesync.damaged == 0)
        #expect(timesync.boots.values.map { $0.syncs.count - 1 }.reduce(0, +) == 4_089)
        #expect(timesync.boots.values.allSatisfy { $0.numerator == 125 && $0.denominator == 3 })
        let boot = try #require(timesync.boots.first { $0.key.description.lowercased().hasPrefix("fe7da8c6") }?.value)
        // Its first sync: 494,027,973 ticks at 1,541,730,337,313,716,000 ns. Three million ticks later is 125 ms later.
        let first = boot.syncs[1]
        #expect(first.ticks == 494_027_973 && first.wall == 1_541_730_337_313_716_000)
        #expect(boot.wallNanoseconds(first.ticks + 3_000_000) == first.wall + 125_000_000)
        // Before the first sync, the boot's own anchor.
        #expect(boot.wallNanoseconds(0) == 1_541_730_321_839_294_000)
        var cut = Timesync()
        cut.add(Array(Fixture.bytes("timesync/0000000000000002.timesync").prefix(100)))
        #expect(cut.boots.count == 1 && cut.damaged == 100 - 80)
    }

    /// An archive whose timesync file puts its boot 7 s later than its header does: entries take the timesync's time.
    @Test func entriesTakeTheBootsClock() throws {
        let writer = ArchiveWriter(bootWallSeconds: 1_700_000_000)
        writer.add(ArchiveWriter.Entry(
            wallNanoseconds: 1_700_000_100_000_000_000, pid: 100, process: "/usr/libexec/d", thread: 1, subsystem: "s",
            category: "c", type: .default, format: "entry %d", arguments: [.int(1)]))
        let trace = try #require(writer.traceFile())
        var sync = try #require(writer.supportFiles().first { $0.path.hasPrefix("timesync/") }?.bytes)
        #expect(try TraceFile(trace).entries.map(\.wallNanoseconds) == [1_700_000_100_000_000_000])
        // Both the boot's anchor (at 32) and the sync at the boot (at 48 + 16) moved on by 7 s.
        for at in [32, 64] {
            let moved = sync[at..<(at + 8)].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) } + 7_000_000_000
            for byte in 0..<8 { sync[at + byte] = UInt8(truncatingIfNeeded: moved >> (8 * byte)) }
        }
        var timesync = Timesync()
        timesync.add(sync)
        #expect(try TraceFile(trace, timesync: timesync).entries.map(\.wallNanoseconds) == [1_700_000_107_000_000_000])
        let merged = MergedEntries([MergedEntriesReading.input("t", trace)], strings: nil, timesync: timesync, keep: nil)
        #expect(Array(merged).map(\.wallNanoseconds) == [1_700_000_107_000_000_000])
    }
}
