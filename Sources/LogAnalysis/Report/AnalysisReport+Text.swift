import Text
import Vocabulary

/// The report as a person reads it: what was read, one row per incident, and the verdict, whose words claim no more
/// than the evidence.
extension AnalysisReport {
    /// What was read, one row per incident, and the verdict.
    public var text: String {
        var lines = wrapped(summary) + zoneNotes.flatMap { wrapped($0) }
        if reportFactsDropped > 0 {
            lines += wrapped("\(grouped(reportFactsDropped)) crash and Jetsam report entries past the first "
                + "\(grouped(ReportFacts.limit)) were not read.")
        }
        lines.append("")
        if incidents.isEmpty {
            lines.removeLast()  // no table: the verdict alone says there is none, not "No incidents." before it too
        } else {
            lines += table([incidentColumns] + incidents.map(incidentCells), width: lineWidth)
            if omitted > 0 {
                lines += wrapped("… and \(grouped(omitted)) more \(omitted == 1 ? "incident" : "incidents"), not listed "
                    + "(the report lists \(grouped(incidents.count))).")
            }
        }
        lines += [""] + wrapped(verdict)
        return lines.joined(separator: "\n")
    }

    /// The incidents table's columns, in the text and on the page: FILE only when there is more than one input.
    /// FIRST SEEN is the process's first line in the input (its launch, when the input shows it), not its death.
    public var incidentColumns: [String] {
        ["PID", "KIND", "CONFIDENCE", "FIRST SEEN"] + (files.count > 1 ? ["FILE"] : []) + ["USER SAW", "WHAT HAPPENED"]
    }

    /// One incident's cells, as `incidentColumns` names them, each shown `visible`: a file's name, how the view came
    /// back and the detail all quote the input.
    public func incidentCells(_ incident: Incident) -> [String] {
        ([incident.pid.map(String.init) ?? "-", incident.kind.rawValue, incident.confidence.rawValue, clock(incident.firstSeen)]
            + (files.count > 1 ? [fileColumn(incident)] : []) + [incident.userSaw, incident.shownDetail]).map(visible)
    }

    /// `Read 1,234 lines in 2 files: 1,200 in records read (xcode-console 800, syslog 400), 30 not about
    /// WebContent, 4 not understood.` A line skipped was either read and found to name nothing about WebContent, or
    /// could not be read (`linesNotUnderstood`): only the second may hide something.
    public var summary: String {
        let formats = LogFormat.allCases.compactMap { format in formatLines[format].map { "\(format.rawValue) \(grouped($0))" } }
        let read = "Read \(grouped(linesRead)) line\(linesRead == 1 ? "" : "s") in \(counted(files.count, "file"))"
        let notUnderstood = linesNotUnderstood > 0 ? ", \(grouped(linesNotUnderstood)) not understood" : ""
        guard !formats.isEmpty else {
            return read + ", none in a record read" + (notUnderstood.isEmpty ? "." : ":" + notUnderstood.dropFirst() + ".")
        }
        return read + ": \(grouped(linesRead - linesSkipped)) in records read (" + formats.joined(separator: ", ")
            + "), \(grouped(linesSkipped - linesNotUnderstood)) not about WebContent\(notUnderstood)."
    }

    /// The one line a person reads first. It leads with what the user saw for longest: views our event log shows
    /// blank to its end. Only a confirmed or likely kill before render says the view stayed blank; where the input
    /// tells how each view came back, it says that instead.
    public var verdict: String {
        guard let forGood = blankForGood else { return incidentsVerdict }
        return forGood + " " + incidentsVerdict
    }

    /// Views killed after render (or crashed) that the event log shows blank to its end, and whether a callback
    /// fired: without one, the advice to reload on it cannot work. Kills before render say so in their own words.
    private var blankForGood: String? {
        let views = incidents.filter { $0.kind != .killedBeforeRender && $0.stayedBlank }
        guard !views.isEmpty else { return nil }
        let pids = views.compactMap(\.pid)
        let named = pids.prefix(8).map(String.init).joined(separator: ", ")
            + (pids.count > 8 ? " and \(grouped(pids.count - 8)) more" : "")
        let kinds = Set(views.map(\.kind.rawValue)).sorted().joined(separator: " or ")
        var text = "\(counted(views.count, "view")) stayed blank to the end of the log ("
            + kinds + (pids.isEmpty ? "" : ": pid\(pids.count == 1 ? "" : "s") \(named)") + ")"
        let untold = views.count { $0.told == false }
        if untold == views.count {
            text += ": no termination callback fired, so nothing reloaded \(views.count == 1 ? "it" : "them"); only a "
                + "watchdog that finds the view blank and rebuilds the web view recovers \(views.count == 1 ? "it" : "them")"
        } else if untold > 0 {
            text += "; for \(grouped(untold)) of them no termination callback fired, so only a watchdog that finds the "
                + "view blank and rebuilds the web view recovers those"
        }
        return text + "."
    }

    /// The incidents by kind: kills before render first, with how each view came back.
    private var incidentsVerdict: String {
        let others = IncidentKind.allCases.filter { $0 != .killedBeforeRender }.compactMap { kind -> String? in
            let n = count(kind)
            return n == 0 ? nil : "\(kind.rawValue): \(grouped(n))"
        }
        let total = count(.killedBeforeRender)
        guard total > 0 else {
            if unexplainedErrors > 0 { return inconclusive + (others.isEmpty ? "" : " Also " + others.joined(separator: ", ") + ".") }
            return "No kill-before-render incident" + (others.isEmpty ? "." : "; " + others.joined(separator: ", ") + ".")
        }
        let listed = incidents.filter { $0.kind == .killedBeforeRender }
        let pids = listed.compactMap(\.pid)
        let named = pids.prefix(8).map(String.init).joined(separator: ", ")
            + (total > min(8, pids.count) && !pids.isEmpty ? " and \(grouped(total - min(8, pids.count))) more" : "")
        var text = "\(grouped(total)) kill-before-render \(total == 1 ? "incident" : "incidents")"
        if !pids.isEmpty { text += ": pid\(pids.count == 1 && total == 1 ? "" : "s") \(named)" }
        text += " — " + blankness(listed, total: total)
        if let first = pids.first { text += "; see --timeline \(first)" }
        return text + (others.isEmpty ? "." : ". Also " + others.joined(separator: ", ") + ".")
    }

    /// RunningBoard's error alone says some process was gone, not which one nor whether it had rendered: WebKit's
    /// lines around it say that (its ProcessAssertion line names the pid), and where to find them.
    private var inconclusive: String {
        let errors = unexplainedErrors == 1 ? "error" : "errors"
        return "Inconclusive: \(grouped(unexplainedErrors)) RunningBoard \"Specified target process does not exist\" "
            + "\(errors) naming no pid, and no line of WebKit's says which process. Add WebKit's lines from the same "
            + "minutes: the app's whole console in Xcode or Console, or `log show --predicate 'subsystem == "
            + "\"com.apple.WebKit\"'` over the device's log archive (a sysdiagnose's system_logs.logarchive)."
    }

    /// What the user saw, in as many words as the evidence supports.
    private func blankness(_ listed: [Incident], total: Int) -> String {
        let firm = count(.killedBeforeRender, atLeast: .likely)
        guard firm > 0 else { return "each only possible: the view may have stayed blank" }
        let recovered = listed.filter(\.firm).compactMap(\.recovered)
        var words: String
        let told = listed.filter { $0.firm && $0.kind == .killedBeforeRender && $0.told == true }.count
        if recovered.isEmpty && told > 0 {
            // The input says a callback fired: "none fires" would contradict it. Whether the view came back, it
            // does not show.
            words = "no render after the death is in the input, though the termination callback fired for "
                + "\(grouped(told)) of \(grouped(firm)): whether the view came back, the input does not show"
        } else if recovered.isEmpty {
            words = "the view stayed blank: no termination callback fires, reload() does nothing, only a rebuilt view "
                + "recovers"
        } else {
            let median = duration(recovered.map(\.micros).sorted()[recovered.count / 2])
            let ways = visible(Set(recovered.map(\.how)).sorted().joined(separator: " or "))
            words = recovered.count == firm
                ? "each view was blank until \(ways) (median \(median))"
                : "\(grouped(recovered.count)) of \(grouped(firm)) views \(recovered.count == 1 ? "was" : "were") blank until "
                    + "\(ways) (median \(median)); the rest stayed blank"
        }
        if firm < total { words += "; \(grouped(total - firm)) more only possible" }
        return words
    }

    /// The file an incident's evidence is in, or the first of them and how many more.
    private func fileColumn(_ incident: Incident) -> String {
        var seen: [Int] = []
        for evidence in incident.evidence where !seen.contains(evidence.stamp.file) { seen.append(evidence.stamp.file) }
        guard let first = seen.first else { return "-" }
        let name = files[first].split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map(String.init) ?? files[first]
        return name + (seen.count > 1 ? " +\(seen.count - 1)" : "")
    }
}
