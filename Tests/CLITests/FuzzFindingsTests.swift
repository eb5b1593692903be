import Foundation
import Glibc
import Testing

@testable import Browser
@testable import CommandLineOptions
@testable import Events
@testable import LogAnalysis
@testable import System
@testable import SupervisorTesting

/// What `scripts/fuzz` found, kept found.
@Suite struct FuzzFindings {
    /// options: a value beginning with a combining mark (U+059E) joined the `=` before it into one Character, so
    /// `--html=\u{059E}x` was an unknown option and a policy field was no field. Words are split by Unicode scalars.
    @Test func aValueBeginningWithACombiningMarkKeepsItsEquals() throws {
        let mark = "\u{059E}"
        let analyze = Commands.analyze
        #expect(try analyze.table.parse(["--html=\(mark)x", "a.log"])[analyze.html] == "\(mark)x")
        #expect(try Commands.run.table.parse(["--allow-host=a,\(mark)b"])[Commands.run.allowHost] == ["a", "\(mark)b"])
        #expect(parseError(Commands.run.table, ["--policy", "base=guarded,spares=\(mark)1"]) == "'--policy': 'spares' takes a whole number from 0 to 64, not '\(mark)1'")
    }

    /// analyzer-lines: a line dated past April 2262 made every time shown of its incident overflow the nanoseconds it
    /// is written through, and `analyze` trapped. Such a date is no date now: the line is read without a time.
    @Test func aYearPastNanosecondsDoesNotTrap() throws {
        for year in ["2261", "2262", "4593", "9999"] {
            let report = try analyze(Fixture.xcode.replacingOccurrences(of: "2025-", with: year + "-"))
            if year == "2261" { #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"]) }
            #expect(!report.json.text.isEmpty)
            #expect(!report.text.isEmpty)
        }
        var day: Int?
        let far = Array("4593-03-02 10:11:12.120000+0100 MyApp[4100:99001] hello".utf8)
        #expect(Envelope.parse(far.span, as: .xcode, day: &day, assuming: .machine).time == nil)
    }

    /// analyzer-lines: a log line of ours whose `time` was a number of seconds past what microseconds hold
    /// (1772475072400000000.0, a time in nanoseconds written where seconds belong) made `analyze` trap.
    @Test func secondsPastMicrosecondsDoNotTrap() throws {
        // The last: seconds microseconds hold, but a time past 2262, which the report shows through nanoseconds.
        for time in ["1772475072400000000.0", "9223372036854.775807", "-9223372036854775807", "9223372036.5"] {
            // Jetsam's log writes seconds; so did the event log then.
            let log = #"{"time":"# + time + #","mono":5,"event":"jetsam-kill","pid":4107,"band":"background","oomScoreAdj":900,"#
                + #""nice":10,"rssBytes":1,"totalRSSBytes":1,"budgetBytes":1,"reason":"critical-pressure"}"# + "\n"
            let report = try analyze(log)
            #expect(!report.json.text.isEmpty && !report.text.isEmpty, "\(time)")
        }
    }

    /// analyzer-lines: the records read depended on how the source handed out its bytes. Our own log's records are
    /// read line by line only once one turns up, and one was looked for only in a file's first block (1 MiB): a
    /// device log with our log appended lost every record of ours that named no WebKit word. Their `"event":` key
    /// is looked for now, wherever it is, and so is Jetsam's `"jetsam-kill"`.
    @Test func ourLogAfterAMegabyteOfOtherLinesIsReadWhole() throws {
        let ours = #"""
            {"time":"2026-11-23T02:30:44.268169Z","mono":1,"event":"spawn","view":44,"pid":3150,"load":43}
            {"time":"2026-11-23T02:30:44.271991Z","mono":2,"event":"death","view":44,"pid":3150,"status":"launch-failed","terminationReason":"evicted-for-memory","signal":9,"reason":"died before hello: killed(SIGKILL)","rendered":false,"attached":false,"spare":false,"band":"background","lifetimeMs":3.8,"cause":"outside"}
            {"time":"2026-11-23T02:30:44.272007Z","mono":3,"event":"unobserved","view":44,"pid":3150}

            """#
        let noise = String(repeating: "a line of some other program, in no format the analyzer knows\n", count: 20_000)
        #expect(noise.utf8.count > LineReader<FileSource>.blockSize)
        let alone = try analyze(ours).summaryOfIncidents
        #expect(alone == ["3150 killed-before-render confirmed"])
        #expect(try analyze(noise + ours).summaryOfIncidents == alone)
        // Jetsam's log too: its records are told by `"jetsam-kill"`.
        let jetsam = #"{"time":1795400000.5,"mono":5,"event":"jetsam-kill","pid":3151,"band":"foreground","oomScoreAdj":0,"nice":0,"rssBytes":104857600,"totalRSSBytes":104857600,"budgetBytes":1048576,"reason":"rss-over-budget"}"#
        #expect(try analyze(noise + jetsam + "\n").formatLines == [.jetsamLog: 1])
    }

    /// analyzer-lines: a `log show --style ndjson` record whose `time` (nanoseconds) fell after 2261 was read, and
    /// showing it in the report trapped. It is read without a time now.
    @Test func aLogShowTimePast2261IsNoTime() throws {
        let line = #"{"time":9.7724750721201e18,"processID":4100,"eventMessage":"0x1 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)"}"#
        let report = try analyze(line + "\n")
        #expect(!report.json.text.isEmpty && !report.text.isEmpty)
    }

    /// analyzer-lines: a record that makes the scanner read every line (Jetsam's) and ended a window was followed
    /// into the next one without the switch to reading every line: the lines after it were skimmed for hits, and a
    /// flutter record wrapped over three lines lost its first two. Read in pieces (as from a pipe), the records
    /// differed from the file read whole.
    @Test func aRecordReadInPiecesIsTheRecordReadWhole() throws {
        let parts = [
            "RmlsdGVyaW5nIHRoZSBsb2cgZHRhYSB1c2luAQAAIGcgInN1YnN5c3RlbSA9PSAiY29t0p6Pj5Oa0WllYktpdCBcKGxhdW5j",
            "aCkKMjAyNi0wMy0wMiAxMDoxMToxMi4xMjAxMDAtMDgwMCDYMHgyZjFhMyAgICBEZWZhdWx0ICAgICAwRmlsdGVyaW5nIHRo",
            "ZSBsb2cgZGF0YSB1c2luZyAic3Vic3lzdGVtID09IFwiY29tLmFwcGxlLldlYktpdFwiIgp7InRpbWVzdGFtcCI6IjIwMjYt",
            "MDMtMDIgMTA6MTE6MTIuMTIwMDBlYktpImpldHNhbS1raWxsIjoiUHJvY2Vzc1N1c3BlbnNpb3gwICAgICAgICAgICAgIHQA",
            "AAAgNDEwMCAgIDAgICAgTXlBcHA6IChXZWJLaXQpIFtjb20uYXBwbGUuV2ViS2l0Omhvc3QgUnVubmVyWzQxMDBdOiAoV2Vi",
            "S2l0KSBbY29tLmFwcGxlLldlYktpdDpQcm9jZXNzXSAweDEwYTJiM2M0MCAtIFtQSUQ9NDEwN10gV2ViUHJvY2Vzc1Byb3h5",
            "OjpkaWRGaW5pc2hMYXVuY2hpbmc6ClsgICAgICAgIF0gW0QgbG9nIGRhdGEgdXNpbmcgInN1YnN5c3RlbSA9PSAiY29tLmFp",
            "bGVkbiIsInByb3Zpc2liaWxpdHkwMCwidHJhY2VJRCI6bmc6In0KeyJldmVudE1lc3NhZ2UpCjIwKSBbY29tLmFwcGxlLldl",
            "YktpdDpQ/////////////////////3JvY2Vzc1N1c3BlbnNpb25dIFwoZpiWbCI6IjB4MTBhMmIzYzQwIC0gUHJvY2Vzc0Fz",
            "c2VydGlvbjo6YWNxdWlyZWVkU3lu",
        ]
        let bytes = try #require(Data(base64Encoded: parts.joined())).map { $0 }
        let whole = try records(bytes, [1 << 20])
        #expect(whole == ["2 xcode 121", "3 jetsamLog 256", "4 flutter 213"])
        #expect(try records(bytes, [161, 178, 195, 212, 229, 246, 263]) == whole)
    }

    /// analyzer-lines: a flutter record whose hard wrap cut its only relevant words in two ("Error acq",
    /// "uiring") was read when its lines were read one by one (here the file's first window, read whole), and
    /// missed when they were skimmed for words (read in pieces, the first window ends before it).
    @Test func aWordCutByFlutterWrapIsFoundWhenSkimming() throws {
        let parts = [
            "WysyMDYxIG1zXSBbREVWSUNFIExPR10gMjAyNS0wMy0wMiBzc0NhY2hlMTA6MTE6MTIuMTIwMDAwKzAxMDA6AAABlWVzc10g",
            "MDpQcm9jZXNzXSBcLihsYXVuY2gpCjIwMjYtMDMtMDIgMTA6MTE6MTIuMTIwMTAwLTA4MDAgIGxvY2FsaG9zdCBNeUFwcFs0",
            "b3QgZXhpc3R9IiwKICAicHJvY2Vzc3BsZS5XZWJLaXQ6UHJvY2Vzc1N1c3BlbnNpb25dIFwodGFrZW4pCjIyNjAtMDMtMDIg",
            "MTA6MTE6MTIuMTI0MDAwLTA4MDAgIGxvY2FsaG9zdCBNeUFwcFs0MTAwXTogKFJ1bm5pbmdCb2FyZFNlcnZpY2VzKSBbY29t",
            "LmFwcGxlLnJ1bm5pbmdib2FyZDphc3NlcnRpb25dIFwocmJzRXJyb3IpCjIwMjYtMDMtMDIgMTA6MTE6MTIuMTI0MzAwLTA4",
            "MDAgIGxvY2FsaG9zdCBub3QgZXhpc3RcIiBVc2VySW5mbz17TlNMb2NhbGl6ZWRGYWkwMTAwIE15QXBwWzAyIDEwOjExOjEy",
            "LjIwMDAwMCswMTAwIE15QXBwWzQxMDA6OTkwMDFPcHRpb25hbF0gW1Byb2Nlc3NdIFdlYlByb2Nlc3NQcmx1cmVSZWFzb249",
            "U3BlY2lmaWVkIHRhcmdldCBwcm9jZXNzIGRvZXNveHk6OnByb2Nlc3NEaWRUZXJtaW5hdGVuPUNyYXNoCiAgY29udGludWVk",
            "IG5vdCBleAEAAAAiLAogICJwcm9jZXNzSUQiIDogNDEwMAp9LHsKICAiZXZleDEwYTJiM2M0MCAtIFtQSUQ9NDEwN10gV2Vi",
            "UHJvY2Vzc1Byb3h5OjpkaWRGaW5pc2hMYXVuY2hpbmc6ClsgICAgICAgIF0gW0RFVklDRSBMT0ddIDIwMjUtMDMtMDIgMTA6",
            "MTE6MTIuMTIwMTAwKzAxMDAgIGxvY2FsaG9zdCBSdW5uZXJbNDEwMF06IGJ1bm5pbmdib2FyZDphc3NlcnRpb25dIEVycm9y",
            "IGFjcQoKCgoKCgoKCgoKCgoKdWlyaW5nIGFzc2VydGlvbjp1bm5pbmdib2FyZDphc3NlcnRpb25dIFwocmJzRXJyb3IpCjIw",
            "MjYtMDMtMDIgMTA6MTE6MTIuMTI0MzAwLTA4MDAgIGxvY2FsaG9zdCBub3QgZXhpc3QgPEVycm9yIERvbWFpbj1SQlNBc3Nl",
            "cnRpb25FcnJvckRvbQphaW4gQ29kZT0yICJTcGVjaWdpZWQgdGFyZ2V0IHByb2Nlc3MgZG9lcyBub3QgZXgKaXN0IiBVc2Vy",
            "SW5mbz17fT4KWyAgICAgICAgXSBbREVWSVtERTJWSUMK",
        ]
        let bytes = try #require(Data(base64Encoded: parts.joined())).map { $0 }
        let whole = try records(bytes, [1 << 20])
        #expect(whole == ["2 xcode 110", "5 xcode 279", "8 logShowJSON 70", "10 flutter 165", "25 xcode 87"])
        #expect(try records(bytes, [217, 234, 251, 268, 285, 302, 319]) == whole)
    }

    /// options: `--tz` showed its value as `offset(3600)` and `local` as `local time`, neither of which it reads.
    @Test func tzShowsWhatItReads() throws {
        let table = Commands.analyze.table
        for text in ["+0100", "-07:30", "UTC", "local", "America/Los_Angeles"] {
            let shown = try #require(try table.parse(["--tz", text]).shown("--tz"))
            #expect(try table.parse(["--tz", shown]).shown("--tz") == shown, "\(text) shows as \(shown)")
        }
        #expect(try table.parse(["--tz=+0100"]).shown("--tz") == "+0100")
    }

    /// journal: an intact record after a damaged stretch whose seq was past Int.max made counting the inputs lost
    /// between them trap, so opening such a journal killed the supervisor. The count saturates.
    @Test func aSeqPastIntMaxAfterDamageIsCounted() throws {
        var bytes = InputJournal.header
        InputJournal.appendRecord(seq: 1, text: Array("a".utf8), to: &bytes)
        bytes += [0xDE, 0xAD]
        InputJournal.appendRecord(seq: UInt64.max - 1, text: Array("b".utf8), to: &bytes)
        InputJournal.appendSyncedMark(seq: UInt64.max - 1, to: &bytes)
        let scan = JournalScan(bytes)
        guard let damage = scan.damage else {
            Issue.record("the damage was not found")
            return
        }
        #expect(damage.lastIntactSeq == 1)
        #expect(damage.intactAfter == 1)
        #expect(damage.lost == Int.max)
        #expect(scan.records(afterDamage: damage) == [Array("a".utf8), Array("b".utf8)])
    }

    /// content-path: the resolver for kernels without openat2 dropped a trailing `/`, so `app://local/a.html/` was
    /// the file a.html there and a 404 everywhere else. It now refuses it as the kernel does, with ENOTDIR.
    @Test func aFileNamedAsADirectoryIsNotFound() throws {
        let folder = try TemporaryFolder(["a.html": "a"])
        let root = try Sys.openDirectoryPath(folder.path)
        for path in ["a.html/", "a.html/.", "./a.html//"] {
            for kernel in [false, true] {
                do throws(SystemError) {
                    let bytes = Array(path.utf8)
                    _ = try kernel ? Sys.openBeneath(root.rawValue, bytes) : Sys.walkBeneath(root.rawValue, bytes)
                    Issue.record("\(path) resolved (kernel: \(kernel))")
                } catch {
                    #expect(error.errno == ENOTDIR, "\(path) (kernel: \(kernel))")
                }
            }
        }
        _ = try Sys.walkBeneath(root.rawValue, Array("./a.html".utf8))
        #expect(try folder.provider.fetch("app://local/a.html/").status == 404)
    }
}

/// The records the line pipeline assembles from `bytes` read in pieces of `sizes` (cycled): each one's first line,
/// envelope and length.
private func records(_ bytes: [UInt8], _ sizes: [Int]) throws -> [String] {
    var reader = LineReader(MemorySource(bytes, chunks: sizes))
    var assembler = RecordAssembler()
    assembler.beginFile()
    var found: [String] = []
    _ = try reader.records(into: &assembler) { text, format, line in
        var copy: [UInt8] = []
        Sys.append(text, to: &copy)
        found.append("\(line) \(format) \(copy.count)")
    }
    return found
}
