import Events
import Text
import Vocabulary

/// What `supervisor analyze` found: the input read, the incidents, and what the swim-lane chart and `--timeline`
/// draw from.
public struct AnalysisReport {
    public internal(set) var files: [String] = []
    /// Lines of each file (indexed like `files`) in a format the analyzer reads: every line of a report it recognised.
    /// A file with none gave the analysis nothing.
    public internal(set) var placed: [Int] = []
    /// Records of our own logs (the event log, Jetsam's) that do not fit their schema, and the first: not read.
    public internal(set) var schemaErrors = 0
    public internal(set) var firstSchemaError: String?
    public internal(set) var bytesRead = 0
    public internal(set) var linesRead = 0
    /// Lines in no record read: blank, in no envelope the analyzer knows, in a record that names nothing it reads,
    /// or never looked at (a large file is looked at only around the words it reads). With the lines per format
    /// they add up to `linesRead`.
    public internal(set) var linesSkipped = 0
    /// Of the lines skipped, those the analyzer could not read: in no envelope it knows, or a report it recognised
    /// but could not read. The rest were read and name nothing WebKit, RunningBoard or our logs say of WebContent
    /// (a large file's lines that name none of those words are not looked at one by one).
    public internal(set) var linesNotUnderstood = 0
    /// Lines in the records read (a record's first line and its continuations), per envelope.
    public internal(set) var formatLines: [LogFormat: Int] = [:]
    public internal(set) var incidents: [Incident] = []
    /// RunningBoard's "does not exist" errors, naming no pid, that no incident explains: the line forum threads
    /// quote, which says a process was gone but not which, nor whether it had rendered.
    public internal(set) var unexplainedErrors = 0
    /// Incidents beyond the report's limit, counted only.
    public internal(set) var omitted = 0
    /// Report entries (crashes, Jetsam kills) past the limit of those waiting to be joined: not read.
    public internal(set) var reportFactsDropped = 0
    /// Every incident found, listed or not, by kind and confidence: what the verdict and `--fail-on` count.
    private var found: [IncidentKind: [Incident.Confidence: Int]] = [:]
    /// WebContent processes that were no incident, for the chart.
    public internal(set) var lanes: [Lane] = []
    /// WebContent processes that were no incident, past the lanes kept: counted only.
    public internal(set) var lanesOmitted = 0
    /// Every step of the pid asked for with `--timeline`.
    public internal(set) var story: [StoryStep] = []
    /// The zone of the first timed line: times are shown as the log wrote them.
    package var displayZone: Int?
    /// By file index: the zone of its first timed line, the one a person reading that file sees.
    package var fileZones: [Int: Int] = [:]
    /// By file index: the zone its times written without one were read in (see `zoneNotes`).
    public internal(set) var assumedZones: [Int: ZoneAssumption] = [:]

    /// One process's steps, drawn as a swim lane.
    public struct Lane {
        public let pid: Int32
        package let marks: [Timeline.Mark]
    }

    /// A step in a swim lane, at a time in microseconds, or at a record number when some line has no time.
    public struct LaneMark {
        public enum Step { case launch, taken, foregroundTaken, failed, render, end, told, other }
        public let step: Step
        public let at: Double
    }

    public var incidentLanes: [(pid: Int32, kind: IncidentKind, detail: String, marks: [LaneMark])] {
        let timed = lanesTimed
        return incidents.compactMap { incident in
            incident.pid.map { ($0, incident.kind, incident.shownDetail, laneMarks(incident.marks, timed: timed)) }
        }
    }

    public var otherLanes: [(pid: Int32, marks: [LaneMark])] {
        let timed = lanesTimed
        return lanes.map { ($0.pid, laneMarks($0.marks, timed: timed)) }
    }

    /// Lanes share one axis: time when every step has one, record order otherwise.
    public var lanesTimed: Bool {
        incidents.allSatisfy { $0.marks.allSatisfy { $0.stamp.time != nil } }
            && lanes.allSatisfy { $0.marks.allSatisfy { $0.stamp.time != nil } }
    }

    /// A lane is one life: it dies once, however many lines and reports tell the death (WebKit's termination line,
    /// a Jetsam report's kill), at the first of them.
    private func laneMarks(_ marks: [Timeline.Mark], timed: Bool) -> [LaneMark] {
        let ends = marks.indices.filter { isEnd(marks[$0].kind) }
        let death = ends.min { marks[$0].stamp.before(marks[$1].stamp) }
        return marks.indices.filter { !isEnd(marks[$0].kind) || $0 == death }.map { index in
            let mark = marks[index]
            let step: LaneMark.Step =
                switch mark.kind {
                case .launch: .launch
                case .assertionTaken: mark.role == .foreground ? .foregroundTaken : .taken
                case .assertionFailed: .failed
                case .render: .render
                case .terminated, .death, .killed, .crashed: .end
                case .callback: .told
                default: .other
                }
            return LaneMark(step: step, at: Double(timed ? mark.stamp.time! : mark.stamp.ordinal))
        }
    }

    private func isEnd(_ kind: Observation.Kind) -> Bool {
        [.terminated, .death, .killed, .crashed].contains(kind)
    }

    /// Each WebContent process's reason for ending, where a line gave one, for `--truth` (the first
    /// `endingLimit`).
    package private(set) var endings: [(pid: Int32, cause: TerminationCause)] = []
    private static let endingLimit = 1_000_000

    package mutating func noteEnding(_ pid: Int32, _ cause: TerminationCause) {
        if endings.count < Self.endingLimit { endings.append((pid, cause)) }
    }

    /// Incidents of `kind` found, listed or not, at `minimum` confidence or above.
    public func count(_ kind: IncidentKind, atLeast minimum: Incident.Confidence = .possible) -> Int {
        found[kind, default: [:]].reduce(0) { $0 + ($1.key.rank >= minimum.rank ? $1.value : 0) }
    }

    /// Counts an incident, and lists it while the report holds fewer than `limit`.
    package mutating func add(_ incident: Incident, limit: Int) {
        found[incident.kind, default: [:]][incident.confidence, default: 0] += 1
        if incidents.count < limit { incidents.append(incident) } else { omitted += 1 }
    }

    // MARK: - Places and times

    /// `run.log:123`.
    public func place(_ stamp: Stamp) -> String { "\(files[stamp.file]):\(stamp.line)" }

    /// The time as the log wrote it, in the zone of the file the line is in, or nil for a line with none.
    public func time(_ stamp: Stamp) -> String? {
        guard let time = stamp.time else { return nil }
        let text = LogTime.text(time, offsetSeconds: fileZones[stamp.file] ?? displayZone)
        return stamp.dated ? text : String(text.dropFirst(11))
    }

    /// `10:11:12.123` for the table, in the zone of the file the line is in, or `line 123` for a line with no time.
    /// When the inputs write more than one zone, the zone is said: `10:11:12.123 -0800`.
    public func clock(_ stamp: Stamp) -> String {
        guard let time = stamp.time else { return "line \(stamp.line)" }
        let zone = fileZones[stamp.file] ?? displayZone
        let text = LogTime.text(time, offsetSeconds: zone)
        let clock = String(text.dropFirst(11).prefix(12))
        return zonesMixed && zone != nil ? clock + " " + text.suffix(5) : clock
    }

    /// The inputs' times are written in more than one zone.
    public var zonesMixed: Bool { Set(fileZones.values).count > 1 }

    // MARK: - JSON

    public var json: JSON {
        var fields: [(String, JSON)] = [
            ("files", .array(files.map { .string($0) })), ("linesRead", .int(linesRead)),
            ("linesSkipped", .int(linesSkipped)), ("linesNotUnderstood", .int(linesNotUnderstood)),
            ("formats", .object(LogFormat.allCases.compactMap { format in
                formatLines[format].map { (format.rawValue, .int($0)) }
            })),
            ("incidents", .array(incidents.map(json))),
        ]
        if omitted > 0 { fields.append(("incidentsOmitted", .int(omitted))) }
        if unexplainedErrors > 0 { fields.append(("unexplainedErrors", .int(unexplainedErrors))) }
        if !assumedZones.isEmpty {
            fields.append(("zonesAssumed", .object(assumedZones.sorted { $0.key < $1.key }.map { (files[$0.key], .string($0.value.description)) })))
        }
        fields.append(("found", .object(IncidentKind.allCases.compactMap { kind in
            count(kind) == 0 ? nil : (kind.rawValue, .object(Incident.Confidence.allCases.map { confidence in
                (confidence.rawValue, .int(found[kind]?[confidence] ?? 0))
            }))
        })))
        return .object(fields)
    }

    /// An incident's fields; `bandAtDeath` only when the input says.
    public func json(_ incident: Incident) -> JSON {
        .object([
            ("pid", incident.pid.map { .int(Int($0)) } ?? .null), ("kind", .string(incident.kind.rawValue)),
            ("confidence", .string(incident.confidence.rawValue)), ("rule", .string(incident.rule.rawValue)),
            ("firstSeen", time(incident.firstSeen).map(JSON.string) ?? .null),
            ("lastSeen", time(incident.lastSeen).map(JSON.string) ?? .null),
            ("evidence", .array(incident.evidence.map { .string(place($0.stamp)) })),
            ("userSaw", .string(incident.userSaw)), ("detail", .string(incident.detail)),
            ("recovery", .string(incident.advice)),
        ] + (incident.bandAtDeath.map { [("bandAtDeath", JSON.string($0))] } ?? []))
    }
}

/// One step of a process's story, for `--timeline`.
public struct StoryStep {
    package let observation: Observation
    package let stamp: Stamp
    /// The line as written, cut at 400 bytes.
    package let text: String
    /// A crash or JetsamEvent report's word on the death, in place of the observation's.
    package var reported: String? = nil

    /// The step in words.
    package var words: String { reported ?? observation.words }
}
