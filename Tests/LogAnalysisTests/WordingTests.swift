import Events
import Testing
import Vocabulary

@testable import LogAnalysis
@testable import System
@testable import SupervisorTesting

/// Sentences that said what was not so: a size rounded to its limit, a count that disagreed with its noun.
@Suite struct Wording {
    /// "64 KiB, over the 64 KiB limit": rounded, a size just over the limit read as the limit itself.
    @Test func aSizeJustOverTheLimitIsSaidInBytes() {
        func reason(_ size: Int, _ limit: Int) -> String { FileError("p.json", "read", .tooBig(size: size, limit: limit)).reason }
        #expect(reason(65_537, 65_536) == "it is 65,537 bytes, over the 65,536-byte limit")
        #expect(reason(65_600, 65_536) == "it is 64.1 KiB, over the 64 KiB limit")
        #expect(reason(3 << 30, 1 << 30) == "it is 3 GiB, over the 1 GiB limit")
    }

    /// Two views killed before they rendered, one of them rebuilt: "1 of 2 views were blank".
    @Test func oneOfTwoViewsWasBlank() throws {
        func event(_ time: String, _ kind: SupervisorEvent, view: Int, pid: Int32? = nil) -> String {
            eventLine("2026-03-02T10:11:\(time)Z", kind, view: view, pid: pid)
        }
        func killed(_ time: String, view: Int, pid: Int32) -> [String] {
            [event(time, .viewOpen(load: view, visible: true), view: view),
             event(time, .spawn(load: view, reused: false), view: view, pid: pid),
             event(time, .inject(kind: .race, oomScoreAdj: 900), view: view, pid: pid),
             event(time, .killed(rendered: false), view: view, pid: pid),
             event(time, .unobserved, view: view, pid: pid)]
        }
        let log = (killed("12.000000", view: 1, pid: 4107) + killed("13.000000", view: 3, pid: 4130) + [
            event("15.000000", .recovery(kind: .rebuild, reason: .blank, attempt: 1), view: 1),
            event("15.000100", .viewOpen(load: 1, visible: true), view: 2),
            event("15.000200", .spawn(load: 1, reused: false), view: 2, pid: 4120),
            event("15.103000", .render(title: "t", workersRSSBytes: 0), view: 2, pid: 4120),
        ]).joined(separator: "\n") + "\n"
        let report = try analyze(log)
        #expect(report.verdict.contains("1 of 2 views was blank until rebuilt (median 3.1 s); the rest stayed blank"), "\(report.verdict)")
    }

    @Test func oneJetsamPageIsAPage() {
        let stamp = Stamp(ordinal: 0, file: 0, line: 1)
        #expect(ReportedDeath(event: .jetsamKilled(reason: "vm-pageshortage", pages: 1, pageSize: 16_384), stamp: stamp).words
            == "killed by Jetsam (vm-pageshortage, 1 page = 0.0 MiB)")
    }
}
