/// What `supervisor analyze` found: the input read, the incidents, and what the swim-lane chart and `--timeline`
/// draw from.
public struct AnalysisReport {
    public internal(set) var files: [String] = []
    public internal(set) var bytesRead = 0
    public internal(set) var linesRead = 0
    /// Lines in no record read: blank, in no envelope the analyzer knows, in a record that names nothing it reads,
    /// or never looked at (a large file is looked at only around the words it reads). With the lines per format
    /// they add up to `linesRead`.
    public internal(set) var linesSkipped = 0
    /// Lines in the records read (a record's first line and its continuations), per envelope.
    public internal(set) var formatLines: [LogFormat: Int] = [:]
    public internal(set) var incidents: [Incident] = []
    /// Incidents beyond the report's limit, counted only.
    public internal(set) var omitted = 0
    /// WebContent processes that were no incident, for the chart.
    public internal(set) var lanes: [Lane] = []
    /// Every step of the pid asked for with `--timeline`.
    public internal(set) var story: [StoryStep] = []
    /// The zone of the first timed line: times are shown as the log wrote them.
    var displayZone: Int?

    /// One process's steps, drawn as a swim lane.
    public struct Lane {
        public let pid: Int32
        let marks: [Timeline.Mark]
    }

    /// A step in a swim lane, at a time in microseconds, or at a record number when some line has no time.
    public struct LaneMark {
        public enum Step { case launch, taken, foregroundTaken, failed, render, end, told, other }
        public let step: Step
        public let at: Double
    }

    public var incidentLanes: [(pid: Int32, kind: Incident.Kind, detail: String, marks: [LaneMark])] {
        let timed = lanesTimed
        return incidents.compactMap { incident in
            incident.pid.map { ($0, incident.kind, incident.detail, laneMarks(incident.marks, timed: timed)) }
        }
    }

    public var otherLanes: [(pid: Int32, marks: [LaneMark])] {
        let timed = lanesTimed
        return lanes.map { ($0.pid, laneMarks($0.marks, timed: timed)) }
    }

    /// Lanes share one axis: time when every step has one, record order otherwise.
    private var lanesTimed: Bool {
        incidents.allSatisfy { $0.marks.allSatisfy { $0.stamp.time != nil } }
            && lanes.allSatisfy { $0.marks.allSatisfy { $0.stamp.time != nil } }
    }

    private func laneMarks(_ marks: [Timeline.Mark], timed: Bool) -> [LaneMark] {
        marks.map { mark in
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

    public func count(_ kind: Incident.Kind) -> Int { incidents.count { $0.kind == kind } }

    // MARK: - Places and times

    /// `run.log:123`.
    func place(_ stamp: Stamp) -> String { "\(files[stamp.file]):\(stamp.line)" }

    /// The time as the log wrote it, or nil for a line with none.
    func time(_ stamp: Stamp) -> String? {
        guard let time = stamp.time else { return nil }
        let text = LogTime.text(time, offsetSeconds: displayZone)
        return stamp.dated ? text : String(text.dropFirst(11))
    }

    /// `10:11:12.123` for the table, or `line 123` for a line with no time.
    func clock(_ stamp: Stamp) -> String {
        guard let text = time(stamp) else { return "line \(stamp.line)" }
        let clock = text.dropFirst(text.count > 20 ? 11 : 0)
        return String(clock.prefix(12))
    }

    // MARK: - JSON

    public var json: JSON {
        var fields: [(String, JSON)] = [
            ("files", .array(files.map { .string($0) })), ("linesRead", .int(linesRead)),
            ("linesSkipped", .int(linesSkipped)),
            ("formats", .object(LogFormat.allCases.compactMap { format in
                formatLines[format].map { (format.rawValue, .int($0)) }
            })),
            ("incidents", .array(incidents.map(json))),
        ]
        if omitted > 0 { fields.append(("incidentsOmitted", .int(omitted))) }
        return .object(fields)
    }

    public func json(_ incident: Incident) -> JSON {
        .object([
            ("pid", incident.pid.map { .int(Int($0)) } ?? .null), ("kind", .string(incident.kind.rawValue)),
            ("confidence", .string(incident.confidence.rawValue)), ("rule", .string(incident.rule.rawValue)),
            ("firstSeen", time(incident.firstSeen).map(JSON.string) ?? .null),
            ("lastSeen", time(incident.lastSeen).map(JSON.string) ?? .null),
            ("evidence", .array(incident.evidence.map { .string(place($0.stamp)) })),
            ("userSaw", .string(incident.seen.rawValue)), ("detail", .string(incident.detail)),
        ])
    }

    // MARK: - Text

    /// What was read, one line per incident, and the verdict.
    public var text: String {
        var lines = wrapped(summary) + [""]
        if incidents.isEmpty {
            lines.append("No incidents.")
        } else {
            let rows = [["PID", "KIND", "CONFIDENCE", "AT", "USER SAW", "WHAT HAPPENED"]] + incidents.map { incident in
                [incident.pid.map(String.init) ?? "-", incident.kind.rawValue, incident.confidence.rawValue,
                 clock(incident.firstSeen), incident.seen.rawValue, incident.detail]
            }
            lines += table(rows, width: lineWidth)
            if omitted > 0 {
                lines += wrapped("… and \(grouped(omitted)) more \(omitted == 1 ? "incident" : "incidents"), not listed "
                    + "(the report keeps 10,000).")
            }
        }
        lines += [""] + wrapped(verdict)
        return lines.joined(separator: "\n")
    }

    /// `Read 1,234 lines in 2 files: 1,200 in records read (xcode-console 800, syslog 400), 34 skipped.`
    public var summary: String {
        let formats = LogFormat.allCases.compactMap { format in formatLines[format].map { "\(format.rawValue) \(grouped($0))" } }
        let read = "Read \(grouped(linesRead)) line\(linesRead == 1 ? "" : "s") in \(counted(files.count, "file"))"
        guard !formats.isEmpty else { return read + ", none in a record read." }
        return read + ": \(grouped(linesRead - linesSkipped)) in records read (" + formats.joined(separator: ", ")
            + "), \(grouped(linesSkipped)) skipped."
    }

    /// The one line a person reads first.
    public var verdict: String {
        let blank = incidents.filter { $0.kind == .killedBeforeRender }
        let others = Incident.Kind.allCases.dropFirst().compactMap { kind -> String? in
            let n = count(kind)
            return n == 0 ? nil : "\(kind.rawValue): \(n)"
        }
        guard !blank.isEmpty else {
            return "No kill-before-render incident" + (others.isEmpty ? "." : "; " + others.joined(separator: ", ") + ".")
        }
        let pids = blank.compactMap(\.pid)
        let named = pids.prefix(8).map(String.init).joined(separator: ", ") + (pids.count > 8 ? " and \(pids.count - 8) more" : "")
        let noun = blank.count == 1 ? "kill-before-render incident" : "kill-before-render incidents"
        var text = "\(blank.count) \(noun)"
        if !pids.isEmpty { text += ": pid\(pids.count == 1 ? "" : "s") \(named)" }
        text += " — the view stayed blank"
        if let first = pids.first { text += "; see --timeline \(first)" }
        return text + (others.isEmpty ? "." : ". Also " + others.joined(separator: ", ") + ".")
    }
}

/// One step of a process's story, for `--timeline`.
public struct StoryStep {
    let observation: Observation
    let stamp: Stamp
    /// The line as written, cut at 400 bytes.
    let text: String
}
