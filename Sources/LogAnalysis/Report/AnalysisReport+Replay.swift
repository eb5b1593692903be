import Replay
import System
import Text

/// What `analyze --replay` writes: a schedule of the incidents a replay can run, and those it left out, by why.
public struct ReplayExport {
    public let schedule: ReplaySchedule
    /// Incidents left out, in the order first met: `(of the GPU process, 2)`.
    public let skipped: [(reason: String, count: Int)]
    /// Incidents past the report's limit: counted, never listed, so not written.
    public let omitted: Int

    /// What `analyze --replay` writes: a schedule, told by its first key.
    public static let outputKind = OutputKind(role: "the replay schedule", name: "a replay schedule") {
        ReplaySchedule.begins($0)
    }

    /// The schedule as written: the format's JSON, one incident a line, so that a person can read and edit it.
    public var text: String {
        let lines = schedule.incidents.map(\.json.text)
        // The head alone ends `"incidents":[]}`: the list is opened there and written a line at a time.
        let head = ReplaySchedule(sources: schedule.sources, incidents: []).json.text.dropLast(2)
        return head + (lines.isEmpty ? "" : "\n" + lines.joined(separator: ",\n") + "\n") + "]}\n"
    }

    /// `Replay schedule: 8 incidents written to S.json (2 skipped, with no WebContent life to replay: 2 of the GPU
    /// process).`
    public func summary(path: String) -> String {
        let count = skipped.reduce(0) { $0 + $1.count }
        let left = skipped.map { "\(grouped($0.count)) \($0.reason)" }.joined(separator: ", ")
        return "Replay schedule: \(counted(schedule.incidents.count, "incident")) written to \(path)"
            + (count == 0 ? "" : " (\(grouped(count)) skipped, with no WebContent life to replay: \(left))")
            + (omitted == 0 ? "" : "; \(grouped(omitted)) past the incidents the report lists were not written") + "."
    }
}

extension AnalysisReport {
    /// Each listed incident that a replay can run, as the schedule's entry; an id told twice (one pid, two lives)
    /// gets the line its incident starts at.
    public var replay: ReplayExport {
        var incidents: [ReplayIncident] = []
        var skipped: [(reason: String, count: Int)] = []
        for incident in self.incidents {
            var entry: ReplayIncident
            switch incident.replayed(files: files) {
            case .success(let replayed): entry = replayed
            case .failure(let left):
                if let i = skipped.firstIndex(where: { $0.reason == left.reason }) {
                    skipped[i].count += 1
                } else {
                    skipped.append((left.reason, 1))
                }
                continue
            }
            if incidents.contains(where: { $0.id == entry.id }) { entry.id += " at \(place(incident.firstSeen))" }
            incidents.append(entry)
        }
        return ReplayExport(schedule: ReplaySchedule(sources: files, incidents: incidents), skipped: skipped, omitted: omitted)
    }
}
