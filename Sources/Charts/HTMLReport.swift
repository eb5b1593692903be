import LogAnalysis
import Browser
import Scenario
import System
import Text

/// `analyze --html`: the report as one page a person can attach to a bug or mail to a colleague. It must open
/// anywhere, offline and with scripts off, and show nothing it fetched: so one file, inline CSS and the lanes as
/// inline SVG, no script, font, image or link outside the page. The verdict comes first; then what was read, the
/// incidents, the lanes, and each incident's lines quoted as the log wrote them, so a reader can check the claim
/// against the evidence without the log.
package struct HTMLReport {
    let report: AnalysisReport
    /// What was read, as the chart names it: the file, or `3 files`.
    let title: String

    package init(report: AnalysisReport, title: String) { (self.report, self.title) = (report, title) }

    package var page: String {
        var out = DocumentKinds.reportSignature + """
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>supervisor analyze: \(markupText(title))</title>
            <style>
            \(Self.style)</style>
            </head>
            <body>
            <main>
            <header class="verdict \(tone)">
            <p class="eyebrow">Verdict</p>
            <h1>\(markupText(report.verdict))</h1>
            </header>

            """
        out += read + incidentsTable
        out += "<section id=\"lanes\">\n<h2>Swim lanes</h2>\n<div class=\"chart\">\n"
        out += SwimLanes(report: report, title: title, heading: false).svg
        out += "</div>\n</section>\n"
        if !report.incidents.isEmpty {
            out += "<section id=\"timelines\">\n<h2>Each incident, line by line</h2>\n"
            for (number, incident) in report.incidents.enumerated() { out += timeline(incident, number: number + 1) }
            out += "</section>\n"
        }
        return out + "<footer>Written by supervisor analyze. This page fetches nothing: it is the whole report.</footer>\n"
            + "</main>\n</body>\n</html>\n"
    }

    // MARK: - Sections

    /// The verdict's colour: a blank view found, another incident or an inconclusive input, or none.
    private var tone: String {
        report.count(.killedBeforeRender) > 0 ? "blank"
            : report.incidents.isEmpty && report.unexplainedErrors == 0 ? "clear" : "other"
    }

    private var read: String {
        var out = "<section id=\"read\">\n<h2>What was read</h2>\n<p>\(markupText(report.summary))</p>\n"
        let files = report.files.map { "<li><code>\(markupText($0))</code></li>" }.joined(separator: "\n")
        if report.files.count > 20 {
            out += "<details><summary>\(counted(report.files.count, "file"))</summary>\n<ul class=\"files\">\n\(files)\n</ul></details>\n"
        } else {
            out += "<ul class=\"files\">\n\(files)\n</ul>\n"
        }
        return out + "</section>\n"
    }

    /// The text report's table, each pid linked to its lines below.
    private var incidentsTable: String {
        var out = "<section id=\"incidents\">\n<h2>Incidents</h2>\n"
        guard !report.incidents.isEmpty else { return out + "<p>No incidents.</p>\n</section>\n" }
        let headers = report.incidentColumns
        out += "<table>\n<thead><tr>" + headers.map { "<th scope=\"col\">\($0)</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for (number, incident) in report.incidents.enumerated() {
            let cells = zip(headers, report.incidentCells(incident)).map { header, text in
                switch header {
                case "PID": "<a href=\"#incident-\(number + 1)\">\(markupText(text))</a>"
                case "KIND": "<span class=\"kind\" style=\"color:\(SwimLanes.color(incident.kind))\">\(markupText(text))</span>"
                case "USER SAW": "<span style=\"color:\(Self.color(incident.seen))\">\(markupText(text))</span>"
                default: markupText(text)
                }
            }
            out += "<tr>" + zip(headers, cells).map { "<td data-label=\"\($0)\">\($1)</td>" }.joined() + "</tr>\n"
        }
        out += "</tbody>\n</table>\n"
        if report.omitted > 0 {
            out += "<p>… and \(grouped(report.omitted)) more \(report.omitted == 1 ? "incident" : "incidents"), not listed "
                + "(the report lists \(grouped(report.incidents.count))).</p>\n"
        }
        return out + "</section>\n"
    }

    /// One incident: what it was, then each of its lines with its time, the gap since the line before, and where it
    /// is, quoted whole.
    private func timeline(_ incident: Incident, number: Int) -> String {
        let color = SwimLanes.color(incident.kind)
        let who = incident.pid.map { "pid \($0)" } ?? "no pid"
        var out = "<article class=\"incident\" id=\"incident-\(number)\" style=\"border-color:\(color)\">\n"
        out += "<h3><span class=\"kind\" style=\"color:\(color)\">\(incident.kind.rawValue)</span> \(who)"
            + " <span class=\"confidence\">\(incident.confidence.rawValue)</span></h3>\n"
        out += "<p>\(markupText(incident.shownDetail)). The user saw: <strong style=\"color:\(Self.color(incident.seen))\">"
            + "\(markupText(incident.userSaw))</strong>. What recovers it: \(markupText(incident.advice)). "
            + "Rule: <code>\(incident.rule.rawValue)</code>.</p>\n<ol class=\"lines\">\n"
        var previous: Evidence?
        for evidence in incident.evidence {
            let gap = previous.flatMap { $0.stamp.micros(to: evidence.stamp) }.map { "+" + duration(max(0, $0)) }
            out += "<li><p class=\"where\">"
            if let time = report.time(evidence.stamp) { out += "<time>\(markupText(time))</time> " }
            if let gap { out += "<span class=\"gap\">\(gap)</span> " }
            out += "<code>\(markupText(report.place(evidence.stamp)))</code></p>\n"
            out += "<pre>\(markupText(evidence.text))</pre></li>\n"
            previous = evidence
        }
        return out + "</ol>\n</article>\n"
    }

    // MARK: - Text

    /// What the user saw, coloured as alarming as it was.
    static func color(_ seen: Incident.Seen) -> String {
        switch seen {
        case .blankView: "#c21d1f"
        case .reload: "#b85a08"
        case .none: "#555"
        case .unknown: "#6e6e10"
        case .appClosed: "#1f3a68"
        }
    }

    /// Readable from a phone to a 1000-pixel window and on paper: the table becomes one card per incident on a
    /// narrow screen, and the chart scrolls sideways rather than shrinking its text away.
    private static let style = """
        :root { color-scheme: light; }
        body { margin: 0; background: #fff; color: #1a1a1a; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", \
        Helvetica, Arial, sans-serif; }
        main { max-width: 1040px; margin: 0 auto; padding: 16px; }
        h1 { font-size: 1.6em; line-height: 1.3; margin: 0; }
        h2 { font-size: 1.25em; margin: 1.6em 0 0.5em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
        h3 { font-size: 1.05em; margin: 0 0 0.3em; }
        code, pre, time { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace; \
        font-size: 0.85em; }
        .verdict { border-left: 8px solid #7f7f7f; background: #f4f4f4; padding: 14px 18px; border-radius: 4px; }
        .verdict.blank { border-color: #d62728; background: #fdecec; }
        .verdict.other { border-color: #e6700a; background: #fdf3e8; }
        .verdict.clear { border-color: #2ca02c; background: #edf7ec; }
        .eyebrow { margin: 0; font-size: 0.8em; text-transform: uppercase; letter-spacing: 0.08em; color: #555; }
        .files { margin: 0; padding-left: 1.2em; overflow-wrap: anywhere; }
        table { border-collapse: collapse; width: 100%; font-size: 0.9em; }
        th, td { text-align: left; vertical-align: top; padding: 5px 8px; border-bottom: 1px solid #e4e4e4; }
        th { font-size: 0.8em; letter-spacing: 0.05em; color: #555; border-bottom: 2px solid #ccc; white-space: nowrap; }
        td { overflow-wrap: break-word; }
        tbody tr:nth-child(even) { background: #f8f8f8; }
        .kind { font-weight: 600; white-space: nowrap; }
        .chart { overflow-x: auto; border: 1px solid #e4e4e4; }
        .chart svg { display: block; width: 100%; min-width: 720px; height: auto; }
        .incident { border-left: 4px solid #7f7f7f; padding: 4px 0 4px 14px; margin: 1.2em 0; }
        .incident > p { margin: 0 0 0.4em; }
        .confidence { font-weight: normal; color: #555; font-size: 0.9em; }
        .lines { list-style: none; margin: 0; padding: 0; }
        .lines li { margin: 0.5em 0; }
        .where { margin: 0; color: #555; font-size: 0.9em; overflow-wrap: anywhere; }
        .gap { color: #1a1a1a; font-weight: 600; }
        pre { margin: 2px 0 0; padding: 6px 8px; background: #f4f4f4; border-radius: 3px; white-space: pre-wrap; \
        overflow-wrap: anywhere; }
        footer { margin: 2em 0 1em; color: #777; font-size: 0.8em; }
        @media (max-width: 640px) {
          main { padding: 10px; }
          h1 { font-size: 1.3em; }
          table, thead, tbody, tr, th, td { display: block; }
          thead { display: none; }
          tbody tr { border: 1px solid #e4e4e4; border-radius: 4px; margin: 0 0 8px; padding: 4px 0; }
          td { border: none; padding: 2px 10px; }
          td::before { content: attr(data-label); display: inline-block; width: 10em; margin-right: 0.5em; \
        font-size: 0.75em; color: #555; letter-spacing: 0.05em; }
        }
        @media print {
          body { font-size: 10pt; }
          main { max-width: none; padding: 0; }
          .verdict, .kind, .incident, tbody tr, pre { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
          .chart { overflow: visible; border: none; }
          .chart svg { min-width: 0; }
          h2, h3 { break-after: avoid; }
          .lines li, tr { break-inside: avoid; }
          a { color: inherit; text-decoration: none; }
        }

        """
}
