import LogAnalysis
import Text
import Vocabulary

/// `analyze --svg`: one swim lane per WebContent pid on a shared time axis, each step marked, each lane coloured by
/// what became of it, so that a kill-before-render race shows at a glance: launched, gone, then the failed raise, and
/// no render in between.
package struct SwimLanes {
    let report: AnalysisReport
    let title: String
    /// The verdict and what was read, above the legend; the HTML page says them in its own words.
    var heading = true

    package init(report: AnalysisReport, title: String, heading: Bool = true) {
        (self.report, self.title, self.heading) = (report, title, heading)
    }

    static let laneLimit = 60
    static let width = 1000.0
    /// Nothing is drawn right of this.
    private static let edge = 990.0
    private static let laneHeight = 22.0

    /// One colour per incident kind, the same in the lanes and on the HTML page; grey for a process with none.
    static func color(_ kind: IncidentKind?) -> String {
        switch kind {
        case .killedBeforeRender?: "#d62728"
        case .killedAfterRender?: "#e6700a"
        case .goneWhenRaised?: "#8a8a14"
        case .killed?: "#00796b"
        case .crash?: "#9467bd"
        case .launchFailed?: "#8c564b"
        case .gpuProcessCrash?: "#e377c2"
        case .hostAppCrash?: "#1f3a68"
        case .terminatedDuringNavigation?: "#17becf"
        case nil: "#7f7f7f"
        }
    }

    package var svg: String {
        let (lanes, hidden) = chosenLanes()
        var body = ""
        var y = 10.0
        if heading {
            for line in fitted(report.verdict, size: 16, bold: true) {
                y += 20
                body += text(line, x: 20, y: y, size: 16, bold: true)
            }
            for line in fitted("\(visible(title)): \(report.summary)", size: 12) {
                y += 18
                body += text(line, x: 20, y: y, color: "#555")
            }
            y += 8
        }
        body += legend(y: &y, kinds: lanes.map(\.kind))
        let top = y + 14
        let height = top + Double(max(lanes.count, 1)) * Self.laneHeight + (hidden > 0 ? 80 : 60)
        let svg = DocumentKinds.chartSignature + """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(Self.width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(Self.width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>

            """
        guard !lanes.isEmpty else {
            return svg + body + text("No WebContent process in the input.", x: 20, y: top + 16) + "</svg>\n"
        }
        return svg + body + draw(lanes, top: top, hidden: hidden) + "</svg>\n"
    }

    // MARK: - Lanes

    struct Lane {
        let pid: Int32
        let kind: IncidentKind?
        var detail: String? = nil
        let steps: [Step]

        var name: String { "pid \(pid)" + (kind.map { "  \($0.rawValue)" } ?? "") }
    }

    struct Step {
        let at: Double
        let glyph: Glyph
    }

    enum Glyph: CaseIterable {
        case launch, taken, foregroundTaken, failed, render, end, told

        var name: String {
            switch self {
            case .launch: "launched"
            case .taken: "background assertion"
            case .foregroundTaken: "raised to foreground"
            case .failed: "raise failed: process gone"
            case .render: "rendered"
            case .end: "died"
            case .told: "page told"
            }
        }
    }

    /// Incidents first (up to the limit), then other WebContent processes, drawn in the order they started; and how
    /// many were left out.
    private func chosenLanes() -> (lanes: [Lane], hidden: Int) {
        let incidents = report.incidentLanes.map { Lane(pid: $0.pid, kind: $0.kind, detail: visible($0.detail), steps: steps($0.marks)) }
        let others = report.otherLanes.map { Lane(pid: $0.pid, kind: nil, steps: steps($0.marks)) }
        let all = (incidents + others).filter { !$0.steps.isEmpty }
        let chosen = all.prefix(Self.laneLimit).sorted { ($0.steps.map(\.at).min() ?? 0) < ($1.steps.map(\.at).min() ?? 0) }
        return (chosen, all.count - chosen.count + report.lanesOmitted + report.omitted)
    }

    private func steps(_ marks: [AnalysisReport.LaneMark]) -> [Step] {
        marks.compactMap { mark in
            let glyph: Glyph? =
                switch mark.step {
                case .launch: .launch
                case .taken: .taken
                case .foregroundTaken: .foregroundTaken
                case .failed: .failed
                case .render: .render
                case .end: .end
                case .told: .told
                case .other: nil
                }
            return glyph.map { Step(at: mark.at, glyph: $0) }
        }
    }

    // MARK: - Drawing

    /// The lanes below `top`: names in a column as wide as the widest, the plot right of it, the axis under it.
    private func draw(_ lanes: [Lane], top: Double, hidden: Int) -> String {
        let namesEnd = 20 + (lanes.map { TextWidth.of($0.name, size: 12, bold: $0.kind != nil) }.max() ?? 0)
        let left = namesEnd + 20
        let plotWidth = Self.edge - 10 - left
        let axis = TimeAxis(lanes.flatMap { $0.steps.map(\.at) }, width: plotWidth, scale: report.lanesTimed ? .time : .lineOrder)
        var out = ""
        for (i, lane) in lanes.enumerated() {
            let y = top + Double(i) * Self.laneHeight + Self.laneHeight / 2
            let color = Self.color(lane.kind)
            if i % 2 == 0 {
                out += "<rect x=\"10\" y=\"\(f(y - Self.laneHeight / 2))\" width=\"\(f(Self.edge - 10))\" height=\"\(f(Self.laneHeight))\" fill=\"#f6f6f6\"/>\n"
            }
            out += text(lane.name, x: 20, y: y + 4, bold: lane.kind != nil, color: color)
            let xs = lane.steps.map { left + axis.x($0.at) }
            guard let first = xs.min(), let last = xs.max() else { continue }
            out += "<line x1=\"\(f(first))\" y1=\"\(f(y))\" x2=\"\(f(last))\" y2=\"\(f(y))\" stroke=\"\(color)\" stroke-width=\"2\" opacity=\"0.5\"/>\n"
            for (step, x) in zip(lane.steps, xs) { out += glyph(step.glyph, x: x, y: y) }
            if let detail = lane.detail {
                out += label(detail, first: first, last: last, floor: namesEnd + 8, y: y + 4, color: color)
            }
        }
        let bottom = top + Double(lanes.count) * Self.laneHeight
        out += "<line x1=\"\(f(left))\" y1=\"\(f(bottom + 4))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(bottom + 4))\" stroke=\"#333\"/>\n"
        for tick in axis.ticks {
            let x = left + tick.x
            out += "<line x1=\"\(f(x))\" y1=\"\(f(top - 4))\" x2=\"\(f(x))\" y2=\"\(f(bottom + 8))\" stroke=\"#ccc\" stroke-dasharray=\"2,3\"/>\n"
            out += text(tick.label, x: x, y: bottom + 22, size: 10, color: "#555", anchor: "middle")
        }
        out += text(axis.caption, x: left, y: bottom + 42, color: "#555")
        if hidden > 0 {
            out += text("\(hidden) more not shown: the chart keeps \(Self.laneLimit) lanes, incidents first.",
                        x: left, y: bottom + 62, bold: true)
        }
        return out
    }

    /// A lane's detail after its last step, or else before its first (right of the names' column), whichever holds it
    /// whole; when neither does, cut between words to fit the roomier side, the whole of it in a tooltip, or left to
    /// the table when not six characters fit.
    private func label(_ detail: String, first: Double, last: Double, floor: Double, y: Double, color: String) -> String {
        let size = 10.0
        let after = (x: last + 12, room: Self.edge - last - 12, anchor: "start")
        let before = (x: first - 12, room: first - 12 - floor, anchor: "end")
        let whole = TextWidth.of(detail, size: size)
        let side = whole <= after.room ? after : whole <= before.room ? before : after.room >= before.room ? after : before
        var shown = detail
        if whole > side.room {
            guard let cut = stride(from: detail.count - 1, through: 6, by: -1).lazy.map({ clipped(detail, width: $0) })
                .first(where: { TextWidth.of($0, size: size) <= side.room })
            else { return "" }
            shown = cut
        }
        return text(shown, x: side.x, y: y, size: size, color: color, anchor: side.anchor,
                    tooltip: shown == detail ? nil : detail)
    }

    private func glyph(_ glyph: Glyph, x: Double, y: Double) -> String {
        switch glyph {
        case .launch:
            "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"4.5\" fill=\"white\" stroke=\"#333\" stroke-width=\"1.5\"/>\n"
        case .taken:
            "<path d=\"M\(f(x - 4)) \(f(y + 4)) L\(f(x + 4)) \(f(y + 4)) L\(f(x)) \(f(y - 4)) Z\" fill=\"#98df8a\" stroke=\"#2ca02c\"/>\n"
        case .foregroundTaken:
            "<path d=\"M\(f(x - 5)) \(f(y + 5)) L\(f(x + 5)) \(f(y + 5)) L\(f(x)) \(f(y - 6)) Z\" fill=\"#2ca02c\"/>\n"
        case .failed:
            "<path d=\"M\(f(x - 5)) \(f(y - 5)) L\(f(x + 5)) \(f(y + 5)) M\(f(x - 5)) \(f(y + 5)) L\(f(x + 5)) \(f(y - 5))\" stroke=\"#d62728\" stroke-width=\"3\"/>\n"
        case .render:
            "<rect x=\"\(f(x - 4))\" y=\"\(f(y - 4))\" width=\"8\" height=\"8\" fill=\"#1f77b4\"/>\n"
        case .end:
            "<rect x=\"\(f(x - 1.5))\" y=\"\(f(y - 8))\" width=\"3\" height=\"16\" fill=\"#111\"/>\n"
        case .told:
            "<path d=\"M\(f(x)) \(f(y - 5)) L\(f(x + 5)) \(f(y)) L\(f(x)) \(f(y + 5)) L\(f(x - 5)) \(f(y)) Z\" fill=\"#17becf\"/>\n"
        }
    }

    /// The glyphs, then the colours of the kinds drawn, each row wrapping at the edge; `y` moves below it.
    private func legend(y: inout Double, kinds: [IncidentKind?]) -> String {
        var out = ""
        var x = 20.0
        y += 14
        func place(_ width: Double) {
            if x > 20, x + width > Self.edge {
                x = 20
                y += 20
            }
        }
        for glyph in Glyph.allCases {
            let width = 16 + TextWidth.of(glyph.name, size: 12)
            place(width)
            out += self.glyph(glyph, x: x + 6, y: y) + text(glyph.name, x: x + 16, y: y + 4)
            x += width + 16
        }
        x = 20
        y += 22
        let drawn = IncidentKind.allCases.filter { kinds.contains($0) }
        for kind in drawn {
            let width = 16 + TextWidth.of(kind.rawValue, size: 12, bold: true)
            place(width)
            out += "<rect x=\"\(f(x))\" y=\"\(f(y - 4))\" width=\"12\" height=\"4\" fill=\"\(Self.color(kind))\"/>\n"
            out += text(kind.rawValue, x: x + 16, y: y + 2, bold: true, color: Self.color(kind))
            x += width + 16
        }
        if kinds.contains(nil) {
            let note = "grey: no incident"
            place(TextWidth.of(note, size: 12))
            out += text(note, x: x, y: y + 2, color: Self.color(nil))
        }
        return out
    }

    /// `content` in lines that fit between the left margin and the edge.
    private func fitted(_ content: String, size: Double, bold: Bool = false) -> [String] {
        var lines: [String] = []
        for word in content.split(separator: " ", omittingEmptySubsequences: false) {
            if let last = lines.last, TextWidth.of(last + " " + word, size: size, bold: bold) <= Self.edge - 20 {
                lines[lines.count - 1] = last + " " + word
            } else {
                lines.append(String(word))
            }
        }
        return lines
    }

    /// A `<text>` pinned to the width `TextWidth` gives it, so that where it ends is known.
    private func text(
        _ content: String, x: Double, y: Double, size: Double = 12, bold: Bool = false, color: String? = nil,
        anchor: String = "start", tooltip: String? = nil
    ) -> String {
        var attributes = "x=\"\(f(x))\" y=\"\(f(y))\""
        if size != 12 { attributes += " font-size=\"\(f(size))\"" }
        if bold { attributes += " font-weight=\"bold\"" }
        if let color { attributes += " fill=\"\(color)\"" }
        if anchor != "start" { attributes += " text-anchor=\"\(anchor)\"" }
        let width = TextWidth.of(content, size: size, bold: bold)
        attributes += " textLength=\"\(f(width))\" lengthAdjust=\"spacingAndGlyphs\""
        return "<text \(attributes)>\(tooltip.map { "<title>\(markupText($0))</title>" } ?? "")\(markupText(content))</text>\n"
    }

    private func f(_ value: Double) -> String { svgNumber(value) }
}
