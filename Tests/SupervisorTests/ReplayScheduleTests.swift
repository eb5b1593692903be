import Testing

@testable import Replay

/// The replay schedule's format: what is written reads back equal, and what a person gets wrong is one line naming
/// the incident and the key.
@Suite struct ReplayScheduleFormat {
    static let incident = ReplayIncident(
        id: "pid 4107", kind: "killed-before-render", attach: ReplayIncident.Span(lowMs: 2, highMs: 6)!,
        death: ReplayIncident.Span(3.5), band: "background", rendered: false, cause: .kill,
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
    }
}
