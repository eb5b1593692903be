import Testing

@testable import LogAnalysis

/// Issue 29, item 3: the verdict says what the input shows happened after each death: a callback, a reload and the
/// same page rendered again by a new process are read, and never contradicted.
@Suite struct VerdictWording {
    static func event(_ time: String, _ fields: String) -> String { #"{"time":"2026-03-02T10:11:\#(time)Z","\#(fields)}"# }

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
