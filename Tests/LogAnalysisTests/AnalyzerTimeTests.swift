import Testing

@testable import LogAnalysis
@testable import SupervisorTesting

/// Times and lives: a file's clock runs forward, and one pid is one life until a launch says otherwise.
@Suite struct AnalyzerTimes {
    static let gone = #"Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}"#

    /// A Console copy across midnight: the launch at 23:59:59.998 and the failed raise at 00:00:00.0019 are 3.9 ms
    /// apart, not a day before it.
    @Test func aConsoleCopyAcrossMidnightKeepsItsLaunch() throws {
        let copy = """
            default\t23:59:59.998000+0100\tMy App\t0x1 - [PID=4107] WebProcessProxy::didFinishLaunching:
            default\t23:59:59.998100+0100\tMy App\t0x1 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=4107
            error\t00:00:00.001900+0100\tMy App\t0x1 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=4107, error: \(Self.gone)
            default\t00:00:00.300000+0100\tMy App\t0x1 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)

            """
        let report = try analyze(copy)
        #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"])
        let incident = try #require(report.incidents.first)
        #expect(incident.rule == .raiseFailedAfterLaunch)
        #expect(incident.firstSeen.micros(to: incident.lastSeen) == 302_000)
    }

    /// Lines of one moment written a little out of order stay on their day; a later dated line starts the count
    /// again from its own day.
    @Test func outOfOrderLinesStayOnTheirDay() {
        var rollover = DayRollover()
        let day = LogTime.microsecondsPerDay
        #expect(rollover.forward(day - 2_000, day: nil) == day - 2_000)
        #expect(rollover.forward(1_900, day: nil) == day + 1_900)
        #expect(rollover.forward(day - 1_000, day: nil) == day - 1_000)
        #expect(rollover.forward(5_000, day: nil) == day + 5_000)
        #expect(rollover.forward(3 * day + 7, day: 3) == 3 * day + 7)
    }
}

extension AnalyzerTimes {
    /// Launched, raised and rendered at 08:00, crashing at 10:27: one life, whose incident starts at its launch and
    /// whose replay knows it rendered and when it died.
    @Test func aQuietHourDoesNotSplitALife() throws {
        let log = """
            2026-04-14 08:00:00.000000-0700 Reader[5200:71001] [Process] 0x1 - [PID=5301] WebProcessProxy::didFinishLaunching:
            2026-04-14 08:00:00.100000-0700 Reader[5200:71001] [ProcessSuspension] 0x1 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Foreground Assertion' for process with PID=5301
            2026-04-14 08:00:00.400000-0700 Reader[5200:71001] [Loading] 0x1 - [pageProxyID=7, webPageID=8, PID=5301] WebPageProxy::didFinishLoadForFrame: frameID=3, isMainFrame=1
            2026-04-14 10:27:00.000000-0700 Reader[5200:71001] [Process] 0x1 - [PID=5301] WebProcessProxy::didClose: (web process 0 crash)
            2026-04-14 10:27:00.000100-0700 Reader[5200:71001] [Process] 0x1 - [PID=5301] WebProcessProxy::processDidTerminateOrFailedToLaunch: reason=Crash

            """
        let report = try analyze([("long.log", Array(log.utf8))], replay: true)
        let incident = try #require(report.incidents.only)
        #expect(report.time(incident.firstSeen) == "2026-04-14 08:00:00.000000-0700")
        #expect(incident.moments?.launch != nil && incident.moments?.rendered == true)
        let entry = try #require(report.replay.schedule.incidents.only)
        #expect(!entry.detail.contains("assumed within 10 s of launch"), "\(entry.detail)")
    }

    /// Once its end was told, a line of the same pid more than an hour later is another process's.
    @Test func aPidHeardAnHourAfterItsEndIsAnotherLife() throws {
        let log = """
            2026-04-14 08:00:00.000000-0700 Reader[5200:71001] [Process] 0x1 - [PID=5301] WebProcessProxy::didFinishLaunching:
            2026-04-14 08:00:00.400000-0700 Reader[5200:71001] [Loading] 0x1 - [pageProxyID=7, webPageID=8, PID=5301] WebPageProxy::didFinishLoadForFrame: frameID=3, isMainFrame=1
            2026-04-14 08:10:00.000000-0700 Reader[5200:71001] [Process] 0x1 - [PID=5301] WebProcessProxy::processDidTerminateOrFailedToLaunch: reason=Crash
            2026-04-14 10:27:00.000000-0700 Reader[5200:71001] [Process] 0x1 - [PID=5301] WebProcessProxy::processDidTerminateOrFailedToLaunch: reason=Crash

            """
        let report = try analyze(log)
        #expect(report.incidents.count == 2, "\(report.summaryOfIncidents)")
    }
}

extension Collection {
    fileprivate var only: Element? { count == 1 ? first : nil }
}

extension AnalyzerTimes {
    /// idevicesyslog writes whole seconds: a launch and a failed raise in the same second are less than a second
    /// apart, not 0 µs.
    @Test func aGapInWholeSecondsSaysItsSecondOfDoubt() throws {
        let report = try analyze(Fixture.syslog)
        let incident = try #require(report.incidents.first)
        #expect(incident.kind == .killedBeforeRender)
        #expect(incident.detail.hasPrefix("foreground raise failed less than 1 s after launch"), "\(incident.detail)")
        let launch = Stamp(time: 10_000_000, coarse: true, ordinal: 1, file: 0, line: 1)
        let later = Stamp(time: 12_000_000, coarse: true, ordinal: 2, file: 0, line: 2)
        #expect(launch.gap(to: later) == "1–3 s")
        let exact = Stamp(time: 12_003_900, ordinal: 2, file: 0, line: 2)
        #expect(Stamp(time: 12_000_000, ordinal: 1, file: 0, line: 1).gap(to: exact) == "3.9 ms")
    }
}
