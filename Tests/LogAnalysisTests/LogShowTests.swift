import Testing

@testable import Events
@testable import LogAnalysis
@testable import SupervisorTesting

/// The records of `text` as `Envelope.shape` groups them (a record line, then its continuation lines), each with
/// its envelope and its message as the analyzer reads it.
func envelopes(_ text: String, zone: ZoneAssumption) -> [(envelope: Envelope, record: [UInt8], message: String)] {
    var records: [(LogFormat, [UInt8])] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let bytes = Array(line.utf8)
        switch Envelope.shape(of: bytes.span) {
        case .record(let format): records.append((format, bytes))
        case .continuation where !records.isEmpty: records[records.count - 1].1 += [10] + bytes
        default: break
        }
    }
    var day: Int?
    return records.map { format, record in
        let envelope = Envelope.parse(record.span, as: format, day: &day, assuming: zone)
        var message = ""
        envelope.withMessage(in: record.span) { message = $0.string(0..<$0.count) }
        return (envelope, record, message)
    }
}

/// Pacific standard time, the zone the fixtures were written in.
let pacific = ZoneAssumption(zone: .offset(-8 * 3600), reason: .option, year: nil)

/// The `log show` styles, the unified-log parser's JSON Lines, a localized Console copy and tabbed message-only
/// lines: each finds the kill before render, at the time written, with the host app's pid.
@Suite struct AnalyzerLogShow {
    @Test(arguments: [
        ("default", LogShowFixture.standard, LogFormat.logShow, 6, 7, "2026-03-02 10:11:12.120000-0800"),
        ("syslog", LogShowFixture.syslogStyle, .logShowSyslog, 5, 2, "2026-03-02 10:11:12.120000-0800"),
        ("compact", LogShowFixture.compact, .logShowCompact, 5, 2, "2026-03-02 10:11:12.120000-0800"),
        ("ndjson", LogShowFixture.ndjson, .logShowNDJSON, 5, 2, "2026-03-02 10:11:12.120000-0800"),
        ("json", LogShowFixture.jsonArray, .logShowJSON, 43, 0, "2026-03-02 10:11:12.120000-0800"),
        ("unifiedlog", LogShowFixture.unifiedLog, .unifiedLog, 5, 0, "2026-03-02 18:11:12.120000+0000"),
        ("localized console", LogShowFixture.localizedConsole, .consoleApp, 5, 0, "10:11:12.120000-0800"),
    ])
    func findsTheKillBeforeRender(name: String, text: String, format: LogFormat, lines: Int, skipped: Int, time: String) throws {
        let report = try analyze([("fixture.log", text)], zone: pacific)
        #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"], "\(name)")
        #expect(report.incidents.first?.rule == .raiseFailedAfterLaunch, "\(name)")
        #expect(report.incidents.first.flatMap { report.time($0.firstSeen) } == time, "\(name)")
        #expect(report.formatLines == [format: lines], "\(name)")
        #expect(report.linesSkipped == skipped, "\(name)")
        #expect(report.formatLines.values.reduce(report.linesSkipped, +) == report.linesRead, "\(name)")
        let webKit = envelopes(text, zone: pacific).filter { $0.message.contains("4107") || $0.message.hasPrefix("Error acquiring") }
        #expect(webKit.count == 5, "\(name)")
        for (envelope, _, message) in webKit {
            #expect(envelope.format == format, "\(name): \(message)")
            #expect(message.hasPrefix("0x10a2b3c40 - ") || message.hasPrefix("Error acquiring assertion"), "\(name): \(message)")
            if format != .consoleApp {
                #expect(envelope.hostPID == 4100, "\(name): \(message)")
                #expect((envelope.thread != nil) == (format != .logShowSyslog), "\(name): \(message)")
            }
        }
        let processes = webKit.compactMap { record in record.envelope.process.map { record.record.span.string($0) } }
        #expect(processes == Array(repeating: "MyApp", count: 5), "\(name)")
    }

    @Test func tabIndentedMessageOnlyLinesAreEachARecord() throws {
        let report = try analyze([("tabbed.log", LogShowFixture.tabbed)], zone: pacific)
        #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"])
        #expect(report.formatLines == [.messageOnly: 6])
        let records = envelopes(LogShowFixture.tabbed, zone: pacific)
        #expect(records.map(\.envelope.format) == Array(repeating: .messageOnly, count: 5))
        #expect(records.last?.message.hasSuffix("\tUserInfo={NSLocalizedFailureReason=Specified target process does not exist}") == true)
    }

    /// The JSON styles' strings reach WebKit's matchers with their escapes resolved: `\u0027` around the
    /// assertion's name, `\"` around the reason, `\/` in paths.
    @Test func jsonMessagesAreUnescaped() throws {
        let records = envelopes(LogShowFixture.ndjson, zone: pacific)
        try #require(records.count == 5)
        #expect(records[3].message == LogShowFixture.failed)
        var out: [UInt8] = []
        let escaped = Array(#"a\/b \"c\" \\ \n\t \u00e9 \ud83d\ude00 \ud800 end"#.utf8)
        JSONText.unescape(escaped.span, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "a/b \"c\" \\ \n\t é 😀 \u{FFFD} end")
    }

    @Test func aJSONArrayOfThreeObjectsIsThreeRecords() throws {
        let text = #"""
            [{
              "processID" : 4100,
              "timestamp" : "2026-03-02 10:11:12.120000-0800",
              "eventMessage" : "0x1 - [PID=4107] WebProcessProxy::didFinishLaunching:"
            },{
              "eventMessage" : "0x1 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=4107",
              "timestamp" : "2026-03-02 10:11:12.130000-0800",
              "processID" : 4100
            }, {
              "timestamp" : "2026-03-02 10:11:12.200000-0800",
              "eventMessage" : "0x1 - [pageProxyID=7, webPageID=8, PID=4107] WebPageProxy::didFinishDocumentLoadForFrame:",
              "processID" : 4100
            }]
            """#
        #expect(envelopes(text, zone: pacific).map(\.envelope.hostPID) == [4100, 4100, 4100])
        let report = try analyze([("array.json", text)], zone: pacific, story: 4107)
        #expect(report.story.map(\.stamp.line) == [4, 6, 11])
        #expect(report.story.first?.text == #""eventMessage" : "0x1 - [PID=4107] WebProcessProxy::didFinishLaunching:""#)
        #expect(report.story.map(\.observation.kind) == [.launch, .assertionTaken, .render])
        #expect(report.incidents.isEmpty)
    }

    /// Our own JSON Lines logs are still told from `log show`'s and the parser's.
    @Test func ourOwnJSONLinesAreNotTakenForLogShow() {
        let event = #"{"time":"2026-11-23T02:30:44.268169Z","mono":1,"event":"spawn","view":44,"pid":3150,"load":43}"#
        let jetsam = #"{"time":1795400000.5,"mono":5,"event":"jetsam-kill","pid":3151,"band":"foreground","oomScoreAdj":0,"nice":0,"rssBytes":104857600,"totalRSSBytes":104857600,"budgetBytes":1048576,"reason":"rss-over-budget"}"#
        #expect(Envelope.shape(of: Array(event.utf8).span) == .record(.eventLog))
        #expect(Envelope.shape(of: Array(jetsam.utf8).span) == .record(.jetsamLog))
        let ndjson = LogShowFixture.ndjson.split(separator: "\n")[1]
        #expect(Envelope.shape(of: Array(ndjson.utf8).span) == .record(.logShowNDJSON))
        let unified = LogShowFixture.unifiedLog.split(separator: "\n")[0]
        #expect(Envelope.shape(of: Array(unified.utf8).span) == .record(.unifiedLog))
    }

    /// A line `log show --style syslog` wrote is not an Xcode line whose process is "localhost MyApp".
    @Test func theSyslogStylesHostIsNotPartOfTheProcess() {
        let records = envelopes(LogShowFixture.syslogStyle, zone: pacific)
        #expect(records.allSatisfy { $0.envelope.format == .logShowSyslog })
        #expect(records.count == 5)
        #expect(records.allSatisfy { record in record.envelope.process.map { record.record.span.string($0) } == "MyApp" })
    }
}

/// The new readers on broken input: every fixture cut at random points, spliced, and sprinkled with JSON's and the
/// envelopes' own punctuation: never a trap, and every incident's evidence points at a line that exists.
@Suite struct AnalyzerLogShowRobustness {
    @Test func truncatedAndSplicedRecordsNeverTrap() throws {
        let fixtures = [LogShowFixture.standard, LogShowFixture.syslogStyle, LogShowFixture.compact, LogShowFixture.ndjson,
                        LogShowFixture.jsonArray, LogShowFixture.unifiedLog, LogShowFixture.localizedConsole,
                        LogShowFixture.tabbed].map { Array($0.utf8) }
        let junk: [[UInt8]] = ["\\", "\\u12", "\\ud83d", "\"", "{", "[{", "},{", "}", "\n", "\t", "0x", ":", "\u{FF}", "1e999"].map {
            Array($0.utf8)
        }
        var random = TestRandom(seed: 17)
        for _ in 0..<300 {
            var bytes: [UInt8] = []
            for _ in 0..<1 + random.next(6) {
                let fixture = fixtures[random.next(fixtures.count)]
                let start = random.next(fixture.count)
                bytes += fixture[start..<min(fixture.count, start + random.next(fixture.count))]
                bytes += junk[random.next(junk.count)]
            }
            _ = WrittenClock.scan(bytes.span)
            let report = try analyze([("fuzz.log", String(decoding: bytes, as: UTF8.self))], zone: pacific)
            let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).count
            #expect(report.linesRead <= lines)
            for incident in report.incidents {
                #expect(incident.evidence.allSatisfy { $0.stamp.line >= 1 && $0.stamp.line <= lines })
            }
        }
    }
}
