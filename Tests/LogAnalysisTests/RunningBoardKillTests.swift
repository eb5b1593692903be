import Testing

@testable import LogAnalysis
@testable import SupervisorTesting

/// Issue 29, item 16: runningboardd's `Terminating with description: <RBSTerminateContext| explanation:...>` is
/// RunningBoard killing the process, with its reason: a kill the classifier uses and `--timeline` names.
@Suite struct RunningBoardKills {
    static func terminating(_ context: String, pid: Int = 4107) -> String {
        "2025-03-02 10:11:14.000000+0100 runningboardd[33:1234] [process] [xpcservice<com.apple.WebKit.WebContent("
            + "[app<application.com.example.MyApp>:4100])(501)>:\(pid)] Terminating with description: \(context)"
    }

    static let rendered =
        "2025-03-02 10:11:12.300000+0100 MyApp[4100:99001] [Loading] 0x1 - [pageProxyID=7, webPageID=8, PID=4107] "
        + "WebPageProxy::didFinishLoadForFrame: frameID=3, isMainFrame=1"

    static let jetsam = terminating(
        #"<RBSTerminateContext| explanation:"jetsam: per-process-limit" reportType:None maxTerminationResistance:Interactive>"#)

    @Test func aRenderedProcessRunningBoardTerminatesIsKilledAfterRenderWithItsReason() throws {
        let report = try analyze(Fixture.launched(Self.rendered + "\n" + Self.jetsam), story: 4107)
        #expect(report.summaryOfIncidents == ["4107 killed-after-render confirmed"])
        #expect(report.incidents.first?.detail == "rendered, then killed by RunningBoard (jetsam: per-process-limit)")
        let story = report.story(of: 4107)
        #expect(story.contains("killed by RunningBoard: jetsam: per-process-limit"), "\(story)")
        #expect(!story.contains("identity"), "\(story)")
    }

    /// An explanation written without quotes runs to the context's next field.
    @Test func anUnquotedExplanationEndsAtTheNextField() throws {
        let line = Self.terminating("<RBSTerminateContext| explanation:BG Kill Demo reportType:CrashLog>")
        let report = try analyze(Fixture.launched(Self.rendered + "\n" + line))
        #expect(report.incidents.first?.detail == "rendered, then killed by RunningBoard (BG Kill Demo)")
    }
}
