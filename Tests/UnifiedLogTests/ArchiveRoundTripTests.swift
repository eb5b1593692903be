import Testing

@testable import UnifiedLog

/// Archives of our making, read back: every entry's time, process, thread, type, subsystem, category, sender and
/// message as written, from both kinds of strings file (issue 33, item 1).
@Suite struct ArchiveRoundTrip {
    static let boot = 1_764_000_000
    static let webContent = "/System/Library/Frameworks/WebKit.framework/XPCServices/com.apple.WebKit.WebContent.xpc/com.apple.WebKit.WebContent"
    static let app = "/private/var/containers/Bundle/Application/0A1B/MyApp.app/MyApp"
    static let webKit = "/System/Library/Frameworks/WebKit.framework/WebKit"

    /// Reads the archive's tracev3 files, with its strings files.
    static func read(_ writer: ArchiveWriter, keep: ((EntryWriter) -> Bool)? = nil) throws -> [TraceFile] {
        var traces: [[UInt8]] = []
        while let trace = writer.traceFile() { traces.append(trace) }
        let files = Dictionary(uniqueKeysWithValues: writer.supportFiles().map { ($0.path, $0.bytes) })
        let strings = FormatStrings { files[$0] }
        return try traces.map { try TraceFile($0, strings: strings, keep: keep) }
    }

    @Test func entriesComeBackAsWritten() throws {
        let writer = ArchiveWriter(bootWallSeconds: Self.boot)
        let t0 = (Self.boot + 3600) * 1_000_000_000 + 123_456_000
        writer.add(ArchiveWriter.Entry(
            wallNanoseconds: t0, pid: 812, process: Self.app, thread: 0x1A2B, subsystem: "com.apple.WebKit",
            category: "Process", type: .default, format: "%p - [PID=%d] WebProcessProxy::didFinishLaunching:",
            arguments: [.int(0x10c4779b0), .int(4321)], library: Self.webKit))
        writer.add(ArchiveWriter.Entry(
            wallNanoseconds: t0 + 1_000, pid: 812, process: Self.app, thread: 0x1A2B, subsystem: "com.apple.WebKit",
            category: "ProcessSuspension", type: .error,
            format: "%{public}s: Failed to acquire RBS assertion '%{public}s' for process with PID=%d, error: %{public}@",
            arguments: [.string("0x10c4779b0 - ProcessAssertion::acquireSync"), .string("WebProcess Foreground Assertion"),
                        .int(4321), .string("Error Domain=RBSAssertionErrorDomain Code=2")],
            library: Self.webKit))
        writer.add(ArchiveWriter.Entry(
            wallNanoseconds: t0 + 2_000, pid: 812, process: Self.app, thread: 7, subsystem: "", category: "",
            type: .info, format: "user %{private}s signed in, %5d%% done, %-4s|, %{bool}d, %{BOOL}d, %x",
            arguments: [.hidden, .int(42), .string("ab"), .int(1), .int(0), .int(255)]))
        writer.add(ArchiveWriter.StateDump(
            wallNanoseconds: t0 + 3_000, pid: 33, process: "/usr/libexec/runningboardd", title: "RBProcessManager",
            text: "xpcservice<com.apple.WebKit.WebContent([application<com.example.MyApp>:812])>:4321=\"<RBProcessState| role:None>\""))
        let traces = try Self.read(writer)
        #expect(traces.count == 1 && traces[0].failures.isEmpty && traces[0].unformatted == 0)
        let entries = traces[0].entries
        #expect(entries.map(\.message) == [
            "0x10c4779b0 - [PID=4321] WebProcessProxy::didFinishLaunching:",
            "0x10c4779b0 - ProcessAssertion::acquireSync: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' "
                + "for process with PID=4321, error: Error Domain=RBSAssertionErrorDomain Code=2",
            "user <private> signed in,    42% done, ab  |, true, NO, ff",
            "RBProcessManager",
        ])
        #expect(entries.map(\.wallNanoseconds) == [t0, t0 + 1_000, t0 + 2_000, t0 + 3_000])
        #expect(entries.map(\.pid) == [812, 812, 812, 33] && entries.map(\.thread) == [0x1A2B, 0x1A2B, 7, 0])
        #expect(entries.map(\.messageType) == [.default, .error, .info, nil])
        #expect(entries.map(\.subsystem) == ["com.apple.WebKit", "com.apple.WebKit", "", ""])
        #expect(entries.map(\.category) == ["Process", "ProcessSuspension", "", ""])
        #expect(entries[0].senderImagePath == Self.webKit && entries[2].senderImagePath == Self.app)
        #expect(entries[0].processImagePath == Self.app && entries[0].formatString.hasPrefix("%p - [PID=%d]"))
        #expect(traces[0].stateDumps.first?.text?.hasSuffix("role:None>\"") == true)
    }

    /// `keep` sees who wrote each entry before its message is made; what it passes over is counted, not read.
    @Test func entriesPassedOverAreCountedNotMade() throws {
        let writer = ArchiveWriter(bootWallSeconds: Self.boot)
        for index in 0..<500 {
            writer.add(ArchiveWriter.Entry(
                wallNanoseconds: (Self.boot + 10) * 1_000_000_000 + index * 1_000_000, pid: index % 2 == 0 ? 812 : 4321,
                process: index % 2 == 0 ? Self.app : Self.webContent, thread: 1,
                subsystem: index % 5 == 0 ? "com.apple.WebKit" : "com.example.noise", category: "c", type: .default,
                format: "entry %d", arguments: [.int(Int64(index))]))
        }
        let traces = try Self.read(writer) { $0.subsystem == "com.apple.WebKit" && $0.processImagePath == Self.app }
        #expect(traces[0].entries.map(\.message) == stride(from: 0, to: 500, by: 10).map { "entry \($0)" })
        #expect(traces[0].passedOver == 450)
    }

    /// Without the strings files, entries still read, with empty messages, and are counted as unformatted.
    @Test func anArchiveWithoutItsStringsReadsWithoutMessages() throws {
        let writer = ArchiveWriter(bootWallSeconds: Self.boot)
        writer.add(ArchiveWriter.Entry(
            wallNanoseconds: (Self.boot + 1) * 1_000_000_000, pid: 1, process: Self.app, thread: 1, subsystem: "s",
            category: "c", type: .fault, format: "%d", arguments: [.int(1)]))
        let strings = FormatStrings { _ in nil }
        let trace = try TraceFile(writer.traceFile()!, strings: strings)
        #expect(trace.entries.count == 1 && trace.entries[0].message == "" && trace.unformatted == 1)
        #expect(strings.missing.keys.contains(FormatStrings.uuidTextPath(LogUUID(named: Self.app))))
    }

    /// The LZ4 encoder's blocks decode to what they were made from: text with repeats, bytes without, short periods,
    /// and the real file's decoded chunksets.
    @Test func lz4BlocksRoundTrip() throws {
        var random: UInt64 = 0x9E37_79B9
        let noise = (0..<70_000).map { _ in
            random = random &* 6_364_136_223_846_793_005 &+ 1
            return UInt8(truncatingIfNeeded: random >> 33)
        }
        let text = Array(String(repeating: "WebProcessProxy::didClose: pid 4321, ", count: 2_000).utf8)
        let bytes = Fixture.bytes(Fixture.iOS + ".tracev3")
        let sets = Chunk.walk(bytes).chunks.filter { $0.kind == .chunkset }.prefix(5)
        let decoded = try sets.map { try Chunkset.decode(bytes, $0.data) }
        // Runs that repeat every 1 to 40 bytes, each after a stretch of noise: matches that overlap what they copy,
        // at offsets below 8, from 8 to 15 and from 16, each near the block's end too.
        var periodic: [UInt8] = []
        for period in 1...40 {
            periodic += noise[(period * 97)..<(period * 100)]
            periodic += (0..<(20 + period * 7)).map { (index: Int) -> UInt8 in UInt8(truncatingIfNeeded: index % period * 37) }
        }
        let ends: [[UInt8]] = (1...40).map { Array(periodic.suffix($0 * 9)) }
        for input in [noise, text, periodic, [], Array("short".utf8)] + decoded + ends {
            let block = LZ4Block.encode(input)
            #expect(try LZ4Block.decode(block[...], size: input.count) == input)
        }
        #expect(LZ4Block.encode(text).count < text.count / 20)
    }
}
