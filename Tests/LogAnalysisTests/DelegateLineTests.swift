import Testing

@testable import LogAnalysis
@testable import SupervisorTesting

/// The app's own `webViewWebContentProcessDidTerminate` line names no pid. It is the callback firing for the one
/// WebContent process that died just before it, and says it reloaded only with a call of reload.
@Suite struct DelegateLine {
    static func line(_ time: String, _ text: String) -> String {
        "2025-03-02 10:11:\(time)+0100 My App[4100:99001] \(text)\n"
    }

    /// 4107's page is loading when it dies before render (Fixture.xcode), with no WebKit line telling the page.
    static let killedBeforeRender = line("12.122000", "[Loading] 0x4 - [pageProxyID=7, webPageID=8, PID=4107] "
        + "WebPageProxy::loadRequest:") + Fixture.xcode

    /// A delegate line right after 4107's death is its termination callback: the page was told.
    @Test func theDelegatesLineIsTheCallbackOfTheProcessThatJustDied() throws {
        let report = try analyze(Self.killedBeforeRender
            + Self.line("12.401000", "webViewWebContentProcessDidTerminate: showing an error, not reloading"))
        let incident = try #require(report.incidents.first { $0.pid == 4107 })
        #expect(incident.told == true, "\(incident.detail)")
    }

    /// The words "not reloading" are no reload, a call of reload is; a delegate line long after every death is about
    /// none of them.
    @Test func onlyACallOfReloadIsAReloadAndALateLineIsAboutNoDeath() throws {
        let render = Self.line("14.000000", "[Loading] 0x4 - [pageProxyID=7, webPageID=8, PID=4120] "
            + "WebPageProxy::didFinishLoadForFrame: frameID=3, isMainFrame=1")
        for (words, reloads) in [("not reloading", false), ("-> webView.reload()", true), ("-> [webView reload]", true)] {
            let report = try analyze(Self.killedBeforeRender
                + Self.line("12.401000", "webViewWebContentProcessDidTerminate " + words) + render, story: 4107)
            #expect(report.story(of: 4107).contains("the app reloaded the view") == reloads, "\(words)")
        }
        let late = try analyze(Self.killedBeforeRender
            + render + Self.line("15.000000", "webViewWebContentProcessDidTerminate -> webView.reload()"))
        let incident = try #require(late.incidents.first { $0.pid == 4107 })
        #expect(incident.told != true && incident.recovered?.how == "loaded again", "\(incident.userSaw)")
    }

    /// Another process's death and its delegate's reload, between 4107's death and its page rendering again, are
    /// not 4107's: its page was loaded again, not reloaded.
    @Test func aReloadIsTheProcessItFollowedNotAnyOther() throws {
        let other = Self.line("15.000000", "[Process] 0x1 - [PID=4300] WebProcessProxy::didFinishLaunching:")
            + Self.line("15.400000", "[Process] 0x1 - [PID=4300] WebProcessProxy::didClose: (web process 0 crash)")
            + Self.line("15.401000", "webViewWebContentProcessDidTerminate -> webView.reload()")
            + Self.line("16.000000", "[Loading] 0x4 - [pageProxyID=7, webPageID=8, PID=4120] "
                + "WebPageProxy::didFinishLoadForFrame: frameID=3, isMainFrame=1")
        let report = try analyze(Self.killedBeforeRender + other)
        let incident = try #require(report.incidents.first { $0.pid == 4107 })
        #expect(incident.recovered?.how == "loaded again", "\(incident.userSaw)")
        #expect(report.incidents.first { $0.pid == 4300 }?.told == true)
    }
}
