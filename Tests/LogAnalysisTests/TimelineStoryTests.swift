import Testing

@testable import LogAnalysis
@testable import SupervisorTesting

/// `--timeline` and the swim lanes tell one death once, in the order it happened: a report's word on the death
/// comes before the lines that only noticed it.
@Suite struct TimelineStory {
    /// The seed's signature, then WebKit noticing the death at 10:11:12.96, the moment a JetsamEvent report gives
    /// for the kill.
    static let log = """
        2026-03-02 10:11:12.120000-0800 MyApp[4100:99001] [Process] 0x1 - [PID=4107] WebProcessProxy::didFinishLaunching:
        2026-03-02 10:11:12.124300-0800 MyApp[4100:99002] [ProcessSuspension] 0x1 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=4107, error: \(Fixture.goneError)
        2026-03-02 10:11:12.960000-0800 MyApp[4100:99001] [Process] 0x1 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)

        """

    static var files: [(String, [UInt8])] {
        [("x.log", Array(log.utf8)), ("JetsamEvent-2026-03-02-101113.ips", Array(ReportFixture.jetsam.utf8))]
    }

    @Test func aReportIsToldBeforeTheLineOfItsMomentThatNoticedIt() throws {
        let report = try analyze(Self.files, story: 4107)
        let story = report.story(of: 4107)
        let lines = story.split(separator: "\n")
        let killed = try #require(lines.firstIndex { $0.contains("reported: killed by Jetsam (per-process-limit") }, "\(story)")
        let noticed = try #require(lines.firstIndex { $0.hasSuffix("terminated (crash)") }, "\(story)")
        #expect(killed < noticed, "\(story)")
    }

    @Test func aLaneDiesOnce() throws {
        let report = try analyze(Self.files)
        let lane = try #require(report.incidentLanes.first)
        #expect(lane.marks.filter { $0.step == .end }.count == 1)
        #expect(lane.marks.map(\.step) == [.launch, .failed, .end])
    }

    /// A story's times are written whole, in the zone of the file each line is in, even beside a file of another
    /// zone: the same moment is not shown as two.
    @Test func aStorysTimesKeepTheirFilesZone() throws {
        let other = "2026-03-02 18:11:13.000000+0000 MyApp[4100:99001] [Process] 0x1 - [PID=4200] "
            + "WebProcessProxy::didFinishLaunching:\n"
        let report = try analyze(
            [("utc.log", Array(other.utf8)), ("x.log", Array(Self.log.utf8))], story: 4107)
        let story = report.story(of: 4107)
        #expect(story.contains("  2026-03-02 10:11:12.120000-0800 "), "\(story)")
        #expect(!story.contains("18:11:12.120000"), "\(story)")
    }
}
