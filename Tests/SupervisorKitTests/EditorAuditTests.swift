import Testing

@testable import SupervisorKit

/// Issue 18's defect: `lostInputs` and `duplicateInputs` read 0 when their field was missing, so a rename would have
/// reported "nothing lost". The audit is now read whole, and a missing field is an error the run reports.
@Suite struct EditorAuditReading {
    func editor(_ fields: [(String, JSON)]) -> Event {
        Event(name: "editor", monotonic: 1, wall: 1, view: nil, pid: nil, fields: fields)
    }

    let whole: [(String, JSON)] = [
        ("typed", .int(10)), ("restored", .int(0)), ("acknowledged", .int(7)), ("saved", .null), ("replayed", .int(2)),
        ("lostInputs", .int(3)), ("duplicateInputs", .int(1)), ("mismatches", .int(0)), ("deferred", .int(0)),
    ]

    @Test func aWholeAuditIsRead() {
        let summary = RunSummary(policy: "rebuild")
        summary.record(editor(whole))
        #expect(summary.lostInputs == 3 && summary.duplicateInputs == 1 && summary.missingFields.isEmpty)
        #expect(summary.text.contains("10 typed (0 restored from the journal), 2 replayed, 3 lost, 1 applied twice"))
    }

    @Test func aRenamedFieldIsAnErrorNeverAZero() {
        let summary = RunSummary(policy: "rebuild")
        summary.record(editor(whole.map { $0.0 == "lostInputs" ? ("lost", $0.1) : $0 }))
        #expect(summary.lostInputs == nil)
        #expect(summary.missingFields.map(\.description) == ["the 'editor' event has no 'lostInputs'"])
        #expect(summary.json.text.contains(#""lostInputs":null"#))
        #expect(summary.text.contains("typed input: not known: the 'editor' event has no 'lostInputs'"))
    }

    @Test func aRunWithoutAnEditorLostNothing() {
        let summary = RunSummary(policy: "rebuild")
        #expect(summary.lostInputs == 0 && summary.duplicateInputs == 0 && summary.missingFields.isEmpty)
    }
}
