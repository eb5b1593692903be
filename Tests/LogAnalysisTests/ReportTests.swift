import Testing
@testable import Core
@testable import Scenario

@testable import Events
@testable import LogAnalysis
@testable import System
@testable import SupervisorTesting

/// Reads `files` into one analyzer, from memory.
func readReports(_ files: [(String, String)]) throws -> LogAnalyzer {
    let analyzer = LogAnalyzer()
    for (name, text) in files { try analyzer.read(MemorySource(Array(text.utf8), chunk: 4096), name: name) }
    return analyzer
}

/// `2026-03-02 10:11:13.0912 -0800` and its kin, in microseconds since 1970 UTC.
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int, micros: Int = 0, zone: Int) -> Int {
    LogTime.days(year: year, month: month, day: day) * LogTime.microsecondsPerDay
        + ((hour * 60 + minute) * 60 + second) * 1_000_000 + micros - zone * 1_000_000
}

/// Crash and JetsamEvent reports, each shape, read into the facts they state; told from their content alone.
@Suite struct CrashAndJetsamReports {
    @Test func aWebContentJSONCrashReportIsOneCrashFact() throws {
        let analyzer = try readReports([("x.ips", ReportFixture.webContentIPS)])
        let facts = analyzer.reportFacts.map(\.fact)
        try #require(facts.count == 1)
        let fact = facts[0]
        guard case .crashed(let exception, let signal, let termination) = fact.event else {
            Issue.record("not a crash: \(fact.event)")
            return
        }
        #expect(exception == "EXC_BAD_ACCESS" && signal == "SIGSEGV")
        #expect(termination == "Namespace SIGNAL, Code 11, Segmentation fault: 11")
        #expect(fact.pid == 4107 && fact.name == "com.apple.WebKit.WebContent" && fact.isWebContent)
        #expect(fact.path?.hasPrefix("/System/Library/Frameworks/WebKit.framework/XPCServices/") == true)
        #expect(fact.responsible.name == "MyApp" && fact.responsible.pid == 4100)
        #expect(fact.coalition == 977)
        #expect(fact.time == utc(2026, 3, 2, 10, 11, 13, micros: 91_200, zone: -28_800) && fact.zoneSeconds == -28_800)
        #expect(fact.line == 28 && fact.text.hasPrefix(#""exception" : {"codes""#))
        let report = analyzer.finish()
        #expect(report.formatLines == [.crashReport: 38] && report.linesRead == 38 && report.placed == [38])
    }

    @Test func theHostAppsOwnCrashNamesNoHost() throws {
        let facts = try readReports([("MyApp-2026-03-02-102000.ips", ReportFixture.hostAppIPS)]).reportFacts.map(\.fact)
        try #require(facts.count == 1)
        let fact = facts[0]
        guard case .crashed("EXC_CRASH", "SIGABRT", "Namespace SIGNAL, Code 6, Abort trap: 6") = fact.event else {
            Issue.record("\(fact.event)")
            return
        }
        #expect(fact.pid == 4100 && fact.name == "MyApp" && !fact.isWebContent)
        #expect(fact.responsible.name == nil && fact.responsible.pid == nil)
        #expect(fact.time == utc(2026, 3, 2, 10, 19, 59, micros: 800_000, zone: -28_800))
        #expect(fact.line == 3)
    }

    @Test func aTextCrashReportIsOneCrashFact() throws {
        let analyzer = try readReports([("crash.txt", ReportFixture.textCrash)])
        let facts = analyzer.reportFacts.map(\.fact)
        try #require(facts.count == 1)
        let fact = facts[0]
        guard case .crashed("EXC_BAD_ACCESS", "SIGSEGV", "SIGNAL 11 Segmentation fault: 11") = fact.event else {
            Issue.record("\(fact.event)")
            return
        }
        #expect(fact.pid == 4107 && fact.name == "com.apple.WebKit.WebContent")
        #expect(fact.path?.hasSuffix("com.apple.WebKit.WebContent.xpc/com.apple.WebKit.WebContent") == true)
        #expect(fact.responsible.name == "MyApp" && fact.responsible.pid == 4100 && fact.coalition == 977)
        #expect(fact.time == utc(2023, 5, 4, 11, 12, 13, micros: 456_000, zone: 7200) && fact.zoneSeconds == 7200)
        #expect(fact.line == 21 && fact.text == "Exception Type:  EXC_BAD_ACCESS (SIGSEGV)")
        let report = analyzer.finish()
        #expect(report.formatLines == [.crashReport: 36] && report.placed == [36] && report.linesSkipped == 0)
    }

    /// The text before "Full Report" is read; the JSON after it tells the same crash and gives no second fact.
    @Test func aTranslatedReportIsOneCrashFact() throws {
        let facts = try readReports([("report.txt", ReportFixture.translatedReport)]).reportFacts.map(\.fact)
        try #require(facts.count == 1)
        let fact = facts[0]
        guard case .crashed("EXC_BAD_ACCESS", "SIGBUS", "Namespace SIGNAL, Code 10 Bus error: 10") = fact.event else {
            Issue.record("\(fact.event)")
            return
        }
        #expect(fact.pid == 5120 && fact.responsible.name == "Safari" && fact.responsible.pid == 5001)
        #expect(fact.time == utc(2026, 1, 20, 9, 8, 7, micros: 654_300, zone: -18_000))
        #expect(fact.line == 22)
    }

    @Test func aJetsamEventReportIsOneFactPerKilledEntry() throws {
        let analyzer = try readReports([("JetsamEvent-2026-03-02-101113.ips", ReportFixture.jetsam)])
        let facts = analyzer.reportFacts.map(\.fact)
        #expect(facts.map(\.pid) == [4107, 212])
        let time = utc(2026, 3, 2, 10, 11, 12, micros: 960_000, zone: -28_800)
        for fact in facts {
            #expect(fact.time == time && fact.zoneSeconds == -28_800)
            #expect(fact.text.hasPrefix(#""reason" : "#) || fact.text.contains(#""reason":"idle-exit""#))
        }
        let webContent = try #require(facts.first)
        guard case .jetsamKilled("per-process-limit", 2210, 16384) = webContent.event else {
            Issue.record("\(webContent.event)")
            return
        }
        #expect(webContent.isWebContent && webContent.coalition == 977 && webContent.line == 27)
        guard case .jetsamKilled("idle-exit", 310, 16384) = facts[1].event else {
            Issue.record("\(facts[1].event)")
            return
        }
        #expect(facts[1].name == "assetsd" && facts[1].line == 47)
        let reading = DiagnosticReport.parse(Array(ReportFixture.jetsam.utf8), as: .ips)
        #expect(reading.aliveProcesses == 1 && reading.format == .jetsamReport)
        #expect(analyzer.finish().formatLines == [.jetsamReport: 67])
    }

    @Test func otherReportsAreRecognisedAndSayNothing() throws {
        let analyzer = try readReports([("stacks.ips", ReportFixture.otherReport)])
        #expect(analyzer.reportFacts.isEmpty)
        let report = analyzer.finish()
        #expect(report.formatLines == [.diagnosticReport: 5] && report.placed == [5])
    }

    /// Cut anywhere, a report gives what it holds before the cut and nothing false: every fact is the whole report's
    /// fact for that pid, less the fields the cut took away.
    @Test(arguments: [ReportFixture.webContentIPS, ReportFixture.hostAppIPS, ReportFixture.textCrash, ReportFixture.translatedReport,
                      ReportFixture.jetsam])
    func aTruncatedReportGivesWhatItHolds(_ text: String) throws {
        let bytes = Array(text.utf8)
        let shape = try #require(DiagnosticReport.shape(of: bytes))
        let whole = Dictionary(uniqueKeysWithValues: DiagnosticReport.parse(bytes, as: shape).facts.map { ($0.pid, $0) })
        // A body cut before its own time falls back on the metadata line's.
        let stamp = text.range(of: #""timestamp":""#).flatMap { start in
            text[start.upperBound...].split(separator: "\"").first.flatMap { DiagnosticReport.time(String($0))?.micros }
        }
        var cutsWithFacts = 0
        for cut in 0..<bytes.count {
            let part = Array(bytes[..<cut])
            guard let partShape = DiagnosticReport.shape(of: part) else { continue }
            let facts = DiagnosticReport.parse(part, as: partShape).facts
            if !facts.isEmpty { cutsWithFacts += 1 }
            for fact in facts {
                let full = try #require(whole[fact.pid], "cut at \(cut): pid \(fact.pid)")
                #expect(fact.name == full.name && fact.isWebContent == full.isWebContent, "cut at \(cut)")
                #expect(fact.path == nil || fact.path == full.path, "cut at \(cut)")
                #expect(fact.time == nil || fact.time == full.time || fact.time == stamp, "cut at \(cut)")
                #expect(fact.coalition == nil || fact.coalition == full.coalition, "cut at \(cut)")
                #expect(fact.responsible.pid == nil || fact.responsible.pid == full.responsible.pid, "cut at \(cut)")
                switch (fact.event, full.event) {
                case (.crashed(let e, let s, let t), .crashed(let fe, let fs, let ft)):
                    #expect((e == nil || e == fe) && (s == nil || s == fs) && (t == nil || t == ft), "cut at \(cut)")
                case (.jetsamKilled(let r, let p, let size), .jetsamKilled(let fr, let fp, let fsize)):
                    #expect(r == fr && (p == nil || p == fp) && (size == nil || size == fsize), "cut at \(cut)")
                default:
                    Issue.record("cut at \(cut): \(fact.event) against \(full.event)")
                }
            }
        }
        #expect(cutsWithFacts > bytes.count / 3)
    }

    /// A report cut short in its threads is read for what came before: this one still names its crash.
    @Test func aReportCutInItsThreadsStillNamesItsCrash() throws {
        let text = ReportFixture.hostAppIPS
        let cut = String(text[..<text.range(of: "\"threads\" : [{\"triggered\":true,\"id\":99")!.upperBound])
        let analyzer = try readReports([("cut.ips", cut)])
        let fact = try #require(analyzer.reportFacts.first?.fact)
        guard case .crashed("EXC_CRASH", "SIGABRT", _) = fact.event else {
            Issue.record("\(fact.event)")
            return
        }
        #expect(fact.pid == 4100 && fact.time != nil)
    }

    /// Random bytes, bytes that open a report and then turn to garbage, and brackets nested a million deep: no trap.
    @Test func garbageNeverTraps() throws {
        var random = TestRandom(seed: 17)
        let openers = ["{\"bug_type\":\"309\"}\n", "{\"bug_type\":\"298\"}\n{\"processes\":[", "Process: x [1]\nPath: y\nDate/Time: z\n", "{\n"]
            .map { Array($0.utf8) }
        let alphabet = Array("{}[]\":,\\u0123456789 \n\tabcpidreason-+.eE".utf8)
        for round in 0..<3000 {
            var bytes = openers[round % openers.count]
            for _ in 0..<random.next(600) {
                bytes.append(round % 2 == 0 ? UInt8(random.next(256)) : alphabet[random.next(alphabet.count)])
            }
            if let shape = DiagnosticReport.shape(of: bytes) { _ = DiagnosticReport.parse(bytes, as: shape) }
        }
        let deep = Array("{\"bug_type\":\"309\"}\n{\"exception\":".utf8) + [UInt8](repeating: 91, count: 1_000_000)
        #expect(DiagnosticReport.parse(deep, as: .ips).facts.isEmpty)
        var reader = JSONReader(deep, from: 30)
        reader.skipValue()
        #expect(reader.stopped)
        var nested = JSONReader([UInt8](repeating: 91, count: 100) + [UInt8](repeating: 93, count: 100))
        var depth = 0
        while nested.beginArray() { depth += 1 }
        #expect(depth == JSONReader.depthLimit && !nested.stopped)
    }

    /// Logs, and JSON Lines that are not reports, are not taken for reports.
    @Test func logsAreNotReports() {
        for text in [Fixture.xcode, Fixture.syslog, Fixture.consoleApp, Fixture.messageOnly,
                     #"{"timestamp":"2026-03-02 10:11:12.123456-0800","processID":4100,"eventMessage":"Process: x [1]"}"# + "\n",
                     "Process: MyApp [4100] started\nsomething else\n"] {
            #expect(DiagnosticReport.shape(of: Array(text.utf8)) == nil, "\(text.prefix(60))")
        }
    }
}
