import Events
import Testing
import Vocabulary

@testable import LogAnalysis
@testable import SupervisorTesting

/// Issue 17, item 2: a failed raise proves the process was gone, not that it never rendered. Only a foreground raise
/// shortly after a launch is the seed's kill before render, and only a firm one says the view stayed blank.
@Suite struct AnalyzerEvidence {
    static let background =
        "2025-03-02 10:11:12.124300+0100 MyApp[4100:99002] [ProcessSuspension] 0x1 - ProcessAssertion: Failed to acquire "
        + "RBS assertion 'WebProcess Background Assertion' for process with PID=4107, error: \(Fixture.goneError)"

    @Test func aBackgroundAssertionFailureOnAnUnseenPidSaysOnlyThatItWasGone() throws {
        let report = try analyze(Self.background + "\n")
        #expect(report.summaryOfIncidents == ["4107 gone-when-raised confirmed"])
        #expect(report.incidents.first?.rule == .raiseFailedNotForeground)
        #expect(report.incidents.first?.seen == .unknown)
        #expect(report.incidents.first?.detail.contains("when it died is unknown") == true)
        #expect(!report.verdict.contains("blank") && report.verdict.hasPrefix("No kill-before-render incident"))
    }

    /// Even right after a launch, a background assertion is not the raise the seed's user waits on.
    @Test func aBackgroundAssertionFailureAfterALaunchIsNotAKillBeforeRender() throws {
        let report = try analyze(Fixture.launched(Self.background))
        #expect(report.incidents.map(\.kind) == [.goneWhenRaised])
    }

    @Test func aForegroundFailureWithNoLaunchInTheInputIsGoneNotBlank() throws {
        let report = try analyze(Fixture.failure() + "\n")
        #expect(report.summaryOfIncidents == ["4107 gone-when-raised confirmed"])
        #expect(report.incidents.first?.rule == .raiseFailedLaunchUnseen)
        #expect(!report.verdict.contains("blank"))
    }

    @Test func aFirmKillBeforeRenderSaysTheViewStayedBlankAndWhatRecoversIt() throws {
        let report = try analyze(Fixture.launched(Fixture.failure()))
        #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"])
        #expect(report.verdict.contains("— the view stayed blank: no termination callback fires, reload() does nothing"))
        let incident = try #require(report.incidents.first)
        #expect(incident.kind.recovery.contains("reload() does nothing: only a rebuilt web view recovers"))
        #expect(report.json(incident).text.contains(#""recovery":"no termination callback fires"#))
    }

    /// With the quiet rule for ambiguous errors off, a code-3 failure after a launch counts, but only as possible:
    /// the verdict then says the view may have stayed blank.
    @Test func aPossibleKillBeforeRenderSaysTheViewMayHaveStayedBlank() throws {
        let ambiguous = #"Error Domain=RBSAssertionErrorDomain Code=3 "Target is not running or required target entitlement is missing" UserInfo={}"#
        let report = try analyze(Fixture.launched(Fixture.failure(error: ambiguous)), disabled: [.ambiguousError])
        #expect(report.summaryOfIncidents == ["4107 killed-before-render possible"])
        #expect(report.verdict.contains("the view may have stayed blank") && !report.verdict.contains("stayed blank:"))
    }

    /// Our own event log tells how each view came back: the verdict says so instead of "stayed blank".
    @Test func aViewRebuiltAndRenderedIsBlankOnlyUntilRebuilt() throws {
        let log = VerdictWording.rebuilt.joined(separator: "\n") + "\n"
        let report = try analyze(log)
        let incident = try #require(report.incidents.first)
        #expect(incident.kind == .killedBeforeRender && incident.userSaw == "blank until rebuilt, 3.1 s")
        #expect(report.verdict.contains("each view was blank until rebuilt (median 3.1 s)"))
        #expect(!report.verdict.contains("stayed blank"))
    }

    /// A load that dies and comes back twice: each death is timed to the recovery after it.
    @Test func eachDeathOfALoadIsTimedToItsOwnRecovery() throws {
        func event(_ time: String, _ kind: SupervisorEvent, view: Int, pid: Int32? = nil) -> String {
            eventLine("2026-03-02T10:\(time)Z", kind, view: view, pid: pid)
        }
        func death(_ time: String, _ pid: Int32) -> [String] {
            [event(time, .inject(kind: .race, oomScoreAdj: 900), view: 1, pid: pid),
             event(time, .killed(rendered: false), view: 1, pid: pid),
             event(time, .unobserved, view: 1, pid: pid)]
        }
        let log = ([event("11:00.000000", .viewOpen(load: 7, visible: true), view: 1),
                    event("11:00.000100", .spawn(load: 7, reused: false), view: 1, pid: 4107)]
            + death("11:00.002000", 4107)
            + [event("11:01.000000", .recovery(kind: .reload, reason: .blank, attempt: 1), view: 1),
               event("11:01.000100", .spawn(load: 7, reused: false), view: 1, pid: 4120),
               event("11:01.100000", .render(title: "t", workersRSSBytes: 0), view: 1, pid: 4120)]
            + death("12:00.000000", 4120)
            + [event("12:00.050000", .recovery(kind: .reload, reason: .blank, attempt: 2), view: 1),
               event("12:00.050100", .spawn(load: 7, reused: false), view: 1, pid: 4130),
               event("12:00.150000", .render(title: "t", workersRSSBytes: 0), view: 1, pid: 4130)]).joined(separator: "\n") + "\n"
        let report = try analyze(log)
        #expect(report.incidents.map(\.userSaw) == ["blank until reloaded, 1.0 s", "blank until reloaded, 150.0 ms"])
    }

    /// The verdict counts every incident found, not the 10,000 the report lists.
    @Test func theVerdictCountsIncidentsBeyondTheListedOnes() throws {
        var text = ""
        for i in 0..<12_000 {
            let pid = 10_000 + i
            let second = String(i % 60).count == 1 ? "0\(i % 60)" : "\(i % 60)"
            let clock = "\(10 + i / 3600):\(String((i / 60) % 60).count == 1 ? "0" : "")\((i / 60) % 60):\(second)"
            let time = (clock.count == 7 ? "0" : "") + clock
            text += Fixture.launched(Fixture.failure(pid: pid, at: time + ".004300"), pid: pid, at: time + ".000000")
        }
        let report = try analyze(text)
        #expect(report.incidents.count == 10_000 && report.omitted == 2_000)
        #expect(report.count(.killedBeforeRender) == 12_000)
        #expect(report.verdict.hasPrefix("12,000 kill-before-render incidents"))
    }
}

/// Issue 17, item 6: a process told of by several files is one incident, and its story tells each step once.
@Suite struct AnalyzerAcrossFiles {
    @Test func oneIncidentPerProcessAndDeathWhateverNumberOfFilesTellOfIt() throws {
        let copy = Array(Fixture.xcode.utf8)
        let report = try analyze([("a.log", copy), ("b.log", copy)], story: 4107)
        #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"])
        let text = report.text
        #expect(text.contains("FILE") && text.contains("a.log +1"))
        let story = report.story(of: 4107)
        #expect(story.components(separatedBy: " launched\n").count == 2, "\(story)")
        #expect(story.components(separatedBy: "foreground assertion failed").count == 2, "\(story)")
    }

    /// The same pid launched again after its first death, in one file, is a second process.
    @Test func aLaunchAfterTheDeathInTheSameFileIsANewProcess() throws {
        let later = Fixture.launched(Fixture.failure(at: "10:11:20.004300"), at: "10:11:20.000000")
        let report = try analyze(Fixture.xcode + later)
        #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed", "4107 killed-before-render confirmed"])
    }
}

/// A log that quotes a crash report's header further down is still a log: a report starts at its first line.
@Suite struct AnalyzerQuotedReport {
    @Test func aLogQuotingACrashReportIsReadAsALog() throws {
        let header = "Process:             com.apple.WebKit.WebContent [4107]\nIdentifier:          com.apple.WebKit.WebContent\n"
            + "Exception Type:      EXC_BAD_ACCESS (SIGSEGV)\n"
        let report = try analyze(Fixture.xcode + header)
        #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"])
    }
}

/// A report's numbers are whatever it says: huge ones never trap; a one-line report has every entry read.
@Suite struct AnalyzerHostileReports {
    @Test func hugePagesAndAOneLineReportOfManyEntries() throws {
        let meta = #"{"bug_type":"298","timestamp":"2026-03-02 10:11:13.00 -0800"}"#
        let huge = meta + "\n" + #"{"date":"2026-03-02 10:11:12.96 -0800","memoryStatus":{"pageSize":99999999999},"processes":[{"pid":4107,"name":"com.apple.WebKit.WebContent","rpages":999999999999,"reason":"per-process-limit"}]}"# + "\n"
        let one = try analyze(huge)
        #expect(one.incidents.map(\.kind) == [.killed])
        let entries = (0..<5_000).map { #"{"pid":\#(20_000 + $0),"name":"com.apple.WebKit.WebContent","rpages":10,"reason":"vm-pageshortage"}"# }
        let many = meta + "\n" + #"{"date":"2026-03-02 10:11:12.96 -0800","processes":["# + entries.joined(separator: ",") + "]}\n"
        let report = try analyze(many)
        #expect(report.count(.killed) == 5_000)
    }
}
