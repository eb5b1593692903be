import Events
import Testing
import Vocabulary

@testable import LogAnalysis
@testable import SupervisorTesting

/// Issue 29, items 2 and 3: the verdict says what the input shows happened after each death. It leads with the views
/// that stayed blank for good, and its advice follows whether a termination callback fired; a callback, a reload and
/// the same page rendered again by a new process are read, and never contradicted.
@Suite struct VerdictWording {
    static func event(_ time: String, _ kind: SupervisorEvent, view: Int, pid: Int32? = nil) -> String {
        eventLine("2026-03-02T10:11:\(time)Z", kind, view: view, pid: pid)
    }

    /// View 1's load dies before render, unobserved, and is rebuilt 3.1 s later.
    static let rebuilt = [
        event("12.000000", .viewOpen(load: 7, visible: true), view: 1),
        event("12.000100", .spawn(load: 7, reused: false), view: 1, pid: 4107),
        event("12.002000", .inject(kind: .race, oomScoreAdj: 900), view: 1, pid: 4107),
        event("12.003000", .killed(rendered: false), view: 1, pid: 4107),
        event("12.003100", .unobserved, view: 1, pid: 4107),
        event("15.000000", .recovery(kind: .rebuild, reason: .blank, attempt: 1), view: 1),
        event("15.000100", .viewOpen(load: 7, visible: true), view: 2),
        event("15.000200", .spawn(load: 7, reused: false), view: 2, pid: 4120),
        event("15.103000", .render(title: "t", workersRSSBytes: 0), view: 2, pid: 4120),
    ]

    /// Our run log: view 1's load is `rebuilt`; view 3's load renders, is killed unobserved, and nothing brings it
    /// back before the log ends.
    static let runLog = (rebuilt + [
        event("16.000000", .viewOpen(load: 8, visible: true), view: 3),
        event("16.000100", .spawn(load: 8, reused: false), view: 3, pid: 4130),
        event("16.100000", .render(title: "u", workersRSSBytes: 0), view: 3, pid: 4130),
        event("20.000000", .killed(rendered: true), view: 3, pid: 4130),
        event("20.000100", .unobserved, view: 3, pid: 4130),
        event("59.000000", .spawn(load: 9, reused: false), view: 9, pid: 4199),
    ]).joined(separator: "\n") + "\n"

    @Test func theVerdictLeadsWithTheViewThatStayedBlankAndNeverAdvisesACallbackThatDidNotFire() throws {
        let report = try analyze(Self.runLog)
        #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed", "4130 killed-after-render confirmed"])
        #expect(report.verdict.hasPrefix("1 view stayed blank to the end of the log (killed-after-render: pid 4130): no "
            + "termination callback fired, so nothing reloaded it; only a watchdog that finds the view blank and rebuilds "
            + "the web view recovers it. 1 kill-before-render incident: pid 4107 — each view was blank until rebuilt"),
            "\(report.verdict)")
        let blank = try #require(report.incidents.last)
        #expect(blank.told == false && blank.stayedBlank)
        #expect(!blank.advice.contains("on its termination callback recovers it"), "\(blank.advice)")
        #expect(!report.json(blank).text.contains("on its termination callback recovers it"))
        #expect(!report.story(of: 4130).contains("on its termination callback recovers it"))
    }

    /// The seed's signature, then WebKit telling the page, the app reloading in its delegate, and a new process
    /// rendering the same page: the view was blank until reloaded, not blank for good.
    static let reloaded = Fixture.xcode + """
        2025-03-02 10:11:12.400200+0100 MyApp[4100:99001] [Process] 0x1 - [pageProxyID=7, webPageID=8, PID=4107] WebPageProxy::processDidTerminate: reason=Crash
        2025-03-02 10:11:12.401000+0100 MyApp[4100:99001] webViewWebContentProcessDidTerminate -> webView.reload()
        2025-03-02 10:11:12.450000+0100 MyApp[4100:99001] [Process] 0x1 - [PID=4120] WebProcessProxy::didFinishLaunching:
        2025-03-02 10:11:12.900000+0100 MyApp[4100:99001] [Loading] 0x4 - [pageProxyID=7, webPageID=8, PID=4120] WebPageProxy::didFinishLoadForFrame: frameID=3, isMainFrame=1

        """

    @Test func aCallbackAReloadAndTheSamePageRenderedAgainDecideTheWording() throws {
        let report = try analyze(Self.reloaded)
        #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"])
        let incident = try #require(report.incidents.first)
        #expect(incident.userSaw == "blank until reloaded, 775.7 ms", "\(incident.userSaw)")
        #expect(incident.told == true && incident.advice.hasPrefix("the termination callback fired"))
        #expect(report.verdict == "1 kill-before-render incident: pid 4107 — each view was blank until reloaded "
            + "(median 775.7 ms); see --timeline 4107.", "\(report.verdict)")
        #expect(!report.verdict.contains("stayed blank") && !report.verdict.contains("reload() does nothing"))
    }

    /// Without the callback or the app's reload, a page the dead process was loading rendered again all the same:
    /// said without a cause.
    @Test func thePageRenderedAgainWithNoCallbackIsLoadedAgain() throws {
        let loading = "2025-03-02 10:11:12.122000+0100 MyApp[4100:99001] [Loading] 0x4 - [pageProxyID=7, webPageID=8, "
            + "PID=4107] WebPageProxy::loadRequest:"
        let lines = Self.reloaded.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("processDidTerminate: reason=Crash") && !$0.contains("webView.reload()") }
        let report = try analyze(([loading] + lines.map(String.init)).joined(separator: "\n"))
        #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"])
        #expect(report.incidents.first?.told == nil)
        #expect(report.incidents.first?.userSaw == "blank until loaded again, 775.7 ms")
    }
}
