import Testing

@testable import LogAnalysis
@testable import System

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
        func event(_ time: String, _ fields: String) -> String { #"{"time":"2026-03-02T10:11:\#(time)Z","\#(fields)}"# }
        func killed(_ time: String, view: Int, pid: Int) -> [String] {
            [event(time, #"event":"view-open","view":\#(view),"load":\#(view)"#),
             event(time, #"event":"spawn","view":\#(view),"pid":\#(pid),"load":\#(view)"#),
             event(time, #"event":"inject","view":\#(view),"pid":\#(pid),"kind":"race""#),
             event(time, #"event":"death","view":\#(view),"pid":\#(pid),"status":"killed","signal":9,"rendered":false"#),
             event(time, #"event":"unobserved","view":\#(view),"pid":\#(pid)"#)]
        }
        let log = (killed("12.000000", view: 1, pid: 4107) + killed("13.000000", view: 3, pid: 4130) + [
            event("15.000000", #"event":"recovery","view":1,"kind":"rebuild","reason":"blank","attempt":1"#),
            event("15.000100", #"event":"view-open","view":2,"load":1"#),
            event("15.000200", #"event":"spawn","view":2,"pid":4120,"load":1"#),
            event("15.103000", #"event":"render","view":2,"pid":4120,"title":"t""#),
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
