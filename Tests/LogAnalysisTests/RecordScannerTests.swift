import Testing

@testable import Events
@testable import LogAnalysis
@testable import Browser
@testable import System
@testable import Text
@testable import SupervisorTesting

/// The assembler given every line, as the analyzer read before it skimmed: lines split at newlines, cut at
/// `LineLimits.maximumLength`, a CRLF's `\r` dropped, a last line without a newline read too.
func everyLine(_ bytes: [UInt8]) -> Assembled {
    var assembler = RecordAssembler()
    var result = Assembled()
    let emit: RecordAssembler.Emit = { text, format, line in
        result.records.append("\(line) \(format.rawValue): " + text.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) })
    }
    var start = 0
    while start < bytes.count {
        let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
        var upper = min(end, start + LineLimits.maximumLength)
        if upper > start, bytes[upper - 1] == 13 { upper -= 1 }
        result.lines += 1
        assembler.take(Array(bytes[start..<upper]).span, line: result.lines, emit: emit)
        start = end + 1
    }
    assembler.finish(emit: emit)
    result.formatCounts = assembler.formatCounts
    result.skipped = assembler.linesSkipped
    return result
}

/// The scanner, which looks only around hits, finds exactly the records the assembler finds given every line.
@Suite struct RecordScanning {
    static let launch = "2025-03-02 10:11:12.120000+0100 My App[4100:99001] [Process] 0x1 - [PID=4107] WebProcessProxy::didFinishLaunching:"
    static let other = "2025-03-02 10:11:12.100000+0100 My App[4100:99001] [UIKit] Unbalanced calls to begin/end appearance transitions."
    static let dumpStart = "2020-10-20 08:15:52.390150-0400 Runner[4100:4595943] [general] Request failed: <NSError: 0x2833559e0> {"

    /// Lines of every shape, relevant or not, for the random inputs: records, continuations (indented, a closing
    /// brace, a tab), flutter's wraps, bare message-only lines, blank lines.
    static let pieces: [[String]] = [
        [launch],
        [other],
        [dumpStart, "    userInfo = {", "        RBSAssertionAttribute = <RBSDomainAttribute| domain:\"com.apple.webkit\">;", "    }", "}"],
        [dumpStart, "    userInfo = {", "    }", "}"],
        ["error\t10:11:12.124300+0100\tMy App\t0x1 - ProcessAssertion: Failed to acquire RBS assertion", "\tUserInfo={}"],
        ["default\t10:11:12.120000+0100\tMy App\tnothing here", "\tWebProcessProxy::didClose: (web process 0 crash)"],
        ["[+2061 ms] [DEVICE LOG] 2025-03-02 10:11:12.120100+0100  localhost Runner[4100]: (UIKit) [com.apple.UIKit:Layout] a wrapped line wi",
         "th WebKit in its second half", "and a third"],
        ["[  +12 ms] flutter: page loaded", "HMR: connected"],
        ["[WebKit] 0x1 - [PID=4107] WebProcessProxy::didClose:"],
        ["HMR: connected"],
        [""], ["   "],
        ["    WebContent mentioned in an indented line of no record"],
        ["Mar  2 10:11:12 iPhone MyApp(WebKit)[4100] <Notice>: 0x1 - [PID=4107] WebProcessProxy::didFinishLaunching:"],
    ]

    /// A random log: pieces in any order, some lines with CRLF, some long lines (a hit before or after the part
    /// read), and perhaps no newline at the end.
    static func randomLog(_ random: inout TestRandom) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<1 + random.next(400) {
            var piece = pieces[random.next(pieces.count)]
            if random.next(60) == 0 {
                // A line past `maximumLength`, then a record, so that nothing continues a line whose start is out of
                // reach of a walk back.
                let hitAt = random.next(2) == 0 ? 100 : LineLimits.maximumLength + 10
                var long = Array(other.utf8) + [UInt8](repeating: 120, count: LineLimits.maximumLength + 5000)
                long.replaceSubrange(hitAt..<hitAt + 6, with: Array("WebKit".utf8))
                piece = [String(decoding: long, as: UTF8.self), other]
            }
            for line in piece {
                bytes += Array(line.utf8)
                if random.next(5) == 0 { bytes.append(13) }
                bytes.append(10)
            }
        }
        if random.next(3) == 0, bytes.last == 10 {
            bytes.removeLast()
            bytes += Array(launch.utf8)
        }
        return bytes
    }

    @Test func randomLogsInRandomReadsGiveWhatEveryLineGives() throws {
        var random = TestRandom(seed: 17)
        for round in 0..<300 {
            let bytes = Self.randomLog(&random)
            let reads = (0..<1 + random.next(4)).map { _ in 1 + random.next(round % 2 == 0 ? 300 : 20_000) }
            let expected = everyLine(bytes)
            #expect(try skimmed(bytes, reads: reads) == expected, "round \(round), reads \(reads)")
            #expect(expected.formatCounts.reduce(expected.skipped, +) == expected.lines)
        }
    }

    /// Windows large enough for the helper thread to find their hits ahead of time, one of them with more lines
    /// that hold a hit than it keeps: the same records, the same lines.
    @Test func windowsScannedAheadGiveWhatEveryLineGives() throws {
        var random = TestRandom(seed: 23)
        var bytes: [UInt8] = []
        while bytes.count < 3 << 20 { bytes += Self.randomLog(&random) + [10] }
        let dense = "[WebKit] 0x1 - [PID=4107] WebProcessProxy::didClose:\n"
        bytes += Array(String(repeating: dense, count: 40_000).utf8)
        while bytes.count < 8 << 20 { bytes += Self.randomLog(&random) + [10] }
        for reads in [[1 << 20], [300_000, 1 << 20, 700_000]] {
            #expect(try skimmed(bytes, reads: reads) == everyLine(bytes), "reads \(reads)")
        }
    }

    /// Each needle split across two reads, in the first line of a read that is not the file's first: the
    /// scanner must look again at the line a block ended in.
    @Test func aHitSplitAcrossTwoReadsIsFound() throws {
        let head = Array((Self.other + "\n").utf8)
        let line = Array((Self.launch + "\n").utf8)
        let needle = line.count - 10
        for cut in needle - 3...needle + 3 {
            let bytes = head + head + line + head
            let reads = [head.count, head.count + cut, 1 << 20]
            let found = try skimmed(bytes, reads: reads)
            #expect(found.records == ["3 xcode-console: " + Self.launch], "cut at \(cut)")
            #expect(found == everyLine(bytes))
        }
    }

    /// A hit in a continuation line of a record whose first line names nothing: the record is read from its first
    /// line, numbered by it, in whatever reads it arrives.
    @Test func aContinuationHitTakesItsRecordFromItsFirstLine() throws {
        let lines = [Self.other, Self.other, Self.dumpStart, "    userInfo = {", "        RBSAssertionAttribute = <x>;",
                     "    }", "}", Self.other]
        let bytes = Array(lines.joined(separator: "\n").utf8) + [10]
        for first in [40, Self.other.count + 1, 2 * Self.other.count + 20, 2 * Self.other.count + 110] {
            let found = try skimmed(bytes, reads: [first, 7, 1 << 20])
            #expect(found.records == ["3 xcode-console: " + lines[2...6].joined(separator: "\n")], "first read \(first)")
        }
    }

    @Test func windowsLineEndingsAndALastLineWithoutANewline() throws {
        let bytes = Array((Self.other + "\r\n" + Self.launch + "\r\n" + Self.other + "\r\n" + Self.launch).utf8)
        let found = try skimmed(bytes, reads: [Self.other.count + 2, 1 << 20])
        #expect(found.records == ["2 xcode-console: " + Self.launch, "4 xcode-console: " + Self.launch])
        #expect(found == everyLine(bytes))
    }

    /// A line longer than `maximumLength` is read up to there, whether it ends in the block it started in or
    /// blocks later: a word past that point is no hit, one before it is.
    @Test func linesLongerThanTheLimitAreReadUpToIt() throws {
        for (at, found) in [(200, true), (LineLimits.maximumLength + 100, false)] {
            var long = Array(Self.other.utf8) + [UInt8](repeating: 120, count: LineLimits.maximumLength + 30_000)
            long.replaceSubrange(at..<at + 6, with: Array("WebKit".utf8))
            let bytes = Array((Self.other + "\n" + Self.other + "\n").utf8) + long + Array(("\n" + Self.launch + "\n").utf8)
            for reads in [[Self.other.count + 1, 1 << 20], [Self.other.count + 1, 5000]] {
                let result = try skimmed(bytes, reads: reads)
                #expect(result.lines == 4)
                #expect(result.records.count == (found ? 2 : 1) && result.records.last == "4 xcode-console: " + Self.launch)
                #expect(result == everyLine(bytes), "reads \(reads)")
            }
        }
    }

    /// A file of our own JSON Lines is read line by line, though its records name nothing `Marker.relevant` has.
    @Test func ourOwnLogsAreReadLineByLine() throws {
        let event = #"{"time":"2026-11-23T02:30:44.268169Z","mono":1,"event":"spawn","view":44,"pid":3150,"load":43}"#
        let bytes = Array((Array(repeating: event, count: 2000).joined(separator: "\n") + "\n").utf8)
        let found = try skimmed(bytes, reads: [1000])
        #expect(found.records.count == 2000)
        #expect(found == everyLine(bytes))
    }
}

/// The reader's buffers are not cleared when made: only bytes it read or carried over may ever be looked at.
@Suite struct UnclearedBuffers {
    /// Memory freed just before, full of records, is what the reader's buffers are made of; a short input without a
    /// last newline is read as itself alone.
    @Test func aFreshReaderReadsNothingLeftInItsMemory() throws {
        let line = Array((RecordScanning.launch + "\n").utf8)
        let size = LineLimits.lookBehind + LineLimits.maximumLength + 1 + LineReader<MemorySource>.blockSize
        // A large block freed first raises glibc's mmap threshold, so that blocks of the reader's size come from the
        // heap, where what was freed before stays.
        _ = Sys.unfilledBytes(count: 4 * size)
        for _ in 0..<4 {
            _ = (0..<size).map { line[$0 % line.count] }
        }
        let input = Array((RecordScanning.other + "\n" + RecordScanning.launch).utf8)
        var reader = LineReader(MemorySource(input, chunks: [7]))
        let leftover = [reader.buffer, reader.previous].contains { $0[(input.count + 1)...].prefix(1 << 16).contains(10) }
        #expect(leftover, "the test's premise: the reader's memory holds the freed lines")
        var assembler = RecordAssembler()
        var found: [String] = []
        let lines = try reader.records(into: &assembler) { text, _, line in
            found.append("\(line): " + text.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) })
        }
        #expect(lines == 2)
        #expect(found == ["2: " + RecordScanning.launch])
    }
}

/// The vector paths and the byte loop find the same needles, count the same newlines and tell the same line starts.
@Suite struct NeedleScanning {
    @Test(arguments: [0, 1, 2])
    func everyPathAgreesWithAPlainSearch(level: Int) {
        let needles = ["Proxy", "RBS", "WP[", "[app", "Terminat", "B", "Error acquiring"].map { Array($0.utf8) }
        let scan = Sys.Needles(needles)
        scan.limit(level: level)
        let alphabet = Array("PRWTBE[xyro \nSa".utf8) + needles.flatMap { $0 }
        var random = TestRandom(seed: 7)
        for _ in 0..<3000 {
            let haystack = (0..<random.next(400)).map { _ in alphabet[random.next(alphabet.count)] }
            let from = random.next(haystack.count + 1)
            let found = (from..<haystack.count).first { at in
                needles.contains { at + $0.count <= haystack.count && haystack[at..<at + $0.count].elementsEqual($0) }
            } ?? haystack.count
            let newlines = haystack[from..<found].count { $0 == 10 }
            let lineStart = haystack[from..<found].lastIndex(of: 10).map { $0 + 1 } ?? from
            let result = scan.next(in: haystack, from..<haystack.count)
            #expect(result.at == found && result.newlines == newlines && result.lineStart == lineStart,
                    "\(String(decoding: haystack, as: UTF8.self)) from \(from)")
            #expect(scan.occur(in: haystack.span) == (needles.contains { needle in
                haystack.count >= needle.count
                    && (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
            }))
        }
    }
}
