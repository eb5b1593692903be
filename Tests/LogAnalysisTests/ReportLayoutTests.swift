import Testing

@testable import LogAnalysis
@testable import Text
@testable import SupervisorTesting

/// The analyzer's text report: what its counts and times say.
@Suite struct ReportLayout {
    /// Lines of a known envelope that name nothing about WebContent are not lines the analyzer failed to read: the
    /// summary tells the two apart.
    @Test func linesNotAboutWebContentAreNotLinesNotUnderstood() throws {
        let text = Fixture.xcode + "a line in no envelope at all\n!!! neither is this one\n"
        let report = try analyze(text)
        #expect(report.linesSkipped == 3 && report.linesNotUnderstood == 2)
        #expect(report.summary == "Read 10 lines in 1 file: 7 in records read (xcode-console 7), 1 not about WebContent, "
            + "2 not understood.")
        #expect(try analyze(Fixture.xcode).summary.hasSuffix("(xcode-console 7), 1 not about WebContent."))
    }

    /// A log written at +0100 beside a Jetsam report written at -0800: the column says which moment it shows, and
    /// each time is in its own file's zone, the zone said.
    @Test func timesOfMixedZonesAreShownInTheirFilesZoneAndSayIt() throws {
        let report = try analyze([("x.log", Array(Fixture.xcode.utf8)),
                                  ("JetsamEvent-2026-03-02-101113.ips", Array(ReportFixture.jetsam.utf8))])
        let lines = report.text.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("PID") })
        #expect(header.contains("FIRST SEEN") && !header.contains(" AT "))
        // The zone stands under the time, in the same column.
        func zone(under time: String) -> String? {
            guard let i = lines.firstIndex(where: { $0.contains(time) }), i + 1 < lines.count else { return nil }
            let column = lines[i].distance(from: lines[i].startIndex, to: lines[i].range(of: time)!.lowerBound)
            return String(lines[i + 1].dropFirst(column).prefix(5))
        }
        #expect(zone(under: "10:11:12.120") == "+0100", "\(report.text)")
        #expect(zone(under: "10:11:12.960") == "-0800", "\(report.text)")
        let alone = try analyze(Fixture.xcode)
        #expect(alone.incidents.first.map { alone.clock($0.firstSeen) } == "10:11:12.120")
    }
}
