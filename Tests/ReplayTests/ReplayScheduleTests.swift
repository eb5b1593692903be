import Testing
import Vocabulary

@testable import Replay

/// The replay schedule's format: what is written reads back equal, and what a person gets wrong is one line naming
/// the incident and the key.
@Suite struct ReplayScheduleFormat {
    static let incident = ReplayIncident(
        id: "pid 4107", kind: .killedBeforeRender, attach: ReplayIncident.Span(lowMs: 2, highMs: 6)!,
        death: ReplayIncident.Span(3.5), band: .background, rendered: false, cause: .kill,
        detail: "jetsam: per-process-limit", evidence: ["device.log:12 Specified target process does not exist"])

    @Test func aScheduleReadsBackEqual() throws {
        let schedule = ReplaySchedule(sources: ["device.log"], incidents: [Self.incident, {
            var unknown = Self.incident
            unknown.id = "pid 4200"
            (unknown.band, unknown.rendered, unknown.cause) = (nil, nil, .unknown)
            return unknown
        }()])
        let text = schedule.json.text
        #expect(try ReplaySchedule(json: Array(text.utf8)) == schedule)
        #expect(text.contains(#""attachMs":[2.0,6.0]"#) && text.contains(#""deathMs":3.5"#))
    }

    @Test func aHandWrittenScheduleReads() throws {
        let text = """
            {"format": "supervisor-replay", "version": 1, "sources": [],
             "incidents": [{"id": "seed 000", "kind": "killed-before-render", "attachMs": [2, 6], "deathMs": [2, 6],
                            "band": "background", "rendered": false, "cause": "kill", "detail": "", "evidence": []}]}
            """
        let schedule = try ReplaySchedule(json: Array(text.utf8))
        #expect(schedule.incidents.first?.death == ReplayIncident.Span(lowMs: 2, highMs: 6))
        #expect(schedule.incidents.first?.attach.at(0.5) == 4)
    }

    @Test(arguments: [
        (#""deathMs": -1"#, "incident 1: 'deathMs' must be milliseconds after launch (at most an hour), or [low, high]"),
        (#""deathMs": [6, 2]"#, "incident 1: 'deathMs' must be milliseconds after launch (at most an hour), or [low, high]"),
        (#""attachMs": 1e300"#, "incident 1: 'attachMs' must be milliseconds after launch (at most an hour), or [low, high]"),
        (#""kind": "sad""#, "incident 1: 'kind' must be killed-before-render, killed-after-render, gone-when-raised, killed or crash"),
        (#""band": "purple""#, "incident 1: 'band' must be foreground, boosted, background, hidden or null"),
        (#""cause": "boom""#, "incident 1: 'cause' must be kill, crash, hang or unknown"),
        (#""colour": 1"#, "incident 1: unknown key 'colour' (the keys are id, kind, attachMs, deathMs, band, rendered, cause, detail, evidence)"),
        (#""deathMs": 2, "deathMs": 3"#, "incident 1: 'deathMs' is given twice; give it once"),
        (#""id": [1, 2]"#, "incident 1: 'id' must be a string"),
        (#""evidence": ["a", 1]"#, "incident 1: 'evidence' must be a list of strings"),
    ])
    func aMistakeIsOneLine(change: String, error: String) throws {
        var members = [
            #""id": "a""#, #""kind": "killed-before-render""#, #""attachMs": 3"#, #""deathMs": 2"#, #""band": null"#,
            #""rendered": null"#, #""cause": "kill""#, #""detail": """#, #""evidence": []"#,
        ]
        let key = change.split(separator: ":")[0]
        if let i = members.firstIndex(where: { $0.hasPrefix(key) }) { members[i] = change } else { members.append(change) }
        let text = #"{"format": "supervisor-replay", "version": 1, "sources": [], "incidents": [{"# + members.joined(separator: ", ") + "}]}"
        #expect(throws: ReplayError(error)) { try ReplaySchedule(json: Array(text.utf8)) }
    }

    @Test func aMissingKeyOrAnotherVersionIsRefused() {
        let missing = #"{"format": "supervisor-replay", "version": 1, "sources": [], "incidents": [{"id": "a"}]}"#
        #expect(throws: ReplayError("incident 1 has no 'kind'")) { try ReplaySchedule(json: Array(missing.utf8)) }
        let extra = #"{"format": "supervisor-replay", "version": 1, "sources": [], "incidents": [], "bogus": 1}"#
        #expect(throws: ReplayError("unknown key 'bogus' (the keys are format, version, sources, incidents)")) {
            try ReplaySchedule(json: Array(extra.utf8))
        }
        let newer = #"{"format": "supervisor-replay", "version": 2, "sources": [], "incidents": []}"#
        #expect(throws: ReplayError("version 2; this supervisor reads version 1")) { try ReplaySchedule(json: Array(newer.utf8)) }
        let twice = #"{"format": "supervisor-replay", "version": 1, "sources": [], "sources": ["a"], "incidents": []}"#
        #expect(throws: ReplayError("'sources' is given twice; give it once")) { try ReplaySchedule(json: Array(twice.utf8)) }
        let broken = "{\"format\": \"supervisor-replay\",\n \"version\": 1, \"sources\": [\"a\" \"b\"]}"
        #expect(throws: ReplayError("not well-formed JSON at line 2, column 32")) { try ReplaySchedule(json: Array(broken.utf8)) }
    }

    /// A schedule is read a value at a time: a wrong key is refused before its value is read (here a value no JSON
    /// reader could build, nested past what one follows), and no list grows past what a schedule holds, so that no
    /// file makes the reader hold many times its size (a 60 MB file of empty strings took 876 MB as a tree).
    @Test func aScheduleIsRefusedBeforeItsReaderHoldsTooMuch() throws {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: ReplayError("unknown key 'x' (the keys are format, version, sources, incidents)")) {
            try ReplaySchedule(json: Array(#"{"x": \#(deep)"#.utf8))
        }
        let quoting = { (lines: Int) in
            #"{"format": "supervisor-replay", "version": 1, "sources": [], "incidents": [{"id": "a", "kind": "crash", "#
                + #""attachMs": 3, "deathMs": 2, "band": null, "rendered": null, "cause": "kill", "detail": "", "evidence": ["#
                + Array(repeating: #""""#, count: lines).joined(separator: ",") + "]}]}"
        }
        #expect(try ReplaySchedule(json: Array(quoting(ReplaySchedule.evidenceLimit).utf8)).incidents.first?.evidence.count == 100)
        #expect(throws: ReplayError("incident 1 quotes over 100 lines of evidence; an incident quotes at most 100")) {
            try ReplaySchedule(json: Array(quoting(ReplaySchedule.evidenceLimit + 1).utf8))
        }
        let incident = Self.incident.json.text
        let many = ReplaySchedule(sources: [], incidents: []).json.text.dropLast(2)
            + Array(repeating: incident, count: ReplaySchedule.incidentLimit + 1).joined(separator: ",") + "]}"
        #expect(throws: ReplayError("over 10,000 incidents; a schedule holds at most 10,000, as many as analyze reports")) {
            try ReplaySchedule(json: Array(many.utf8))
        }
    }
}
