import Glibc
import SupervisorKit

/// `analyze --svg`: one swim lane per WebContent pid on a shared time axis, each step marked, each lane coloured by
/// what became of it, so that a kill-before-render race shows at a glance: launched, gone, then the failed raise, and
/// no render in between.
struct SwimLanes {
    let report: AnalysisReport
    let title: String

    static let laneLimit = 60
    static let colors: [Incident.Kind?: String] = [
        .killedBeforeRender: "#d62728", .killedAfterRender: "#ff7f0e", .crash: "#9467bd", .launchFailed: "#8c564b",
        .gpuProcessCrash: "#e377c2", nil: "#7f7f7f",
    ]

    var svg: String {
        let lanes = chosenLanes()
        let verdict = wrapped(report.verdict, width: 110)
        let (left, top, plotWidth, laneHeight) = (190.0, 110.0 + 20 * Double(verdict.count), 770.0, 22.0)
        let height = top + Double(max(lanes.count, 1)) * laneHeight + 60
        let axis = TimeAxis(lanes.flatMap { $0.steps.map(\.at) }, width: plotWidth)
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="1000" height="\(Int(height))" viewBox="0 0 1000 \(Int(height))" \
            font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>

            """
        for (i, line) in verdict.enumerated() {
            out += "<text x=\"20\" y=\"\(26 + 20 * i)\" font-size=\"16\" font-weight=\"bold\">\(escape(line))</text>\n"
        }
        let below = 20 * Double(verdict.count)
        out += "<text x=\"20\" y=\"\(f(26 + below))\" fill=\"#555\">\(escape(title)): \(escape(report.summary))</text>\n"
        out += legend(y: 52 + below)
        if lanes.isEmpty {
            out += "<text x=\"20\" y=\"\(top + 16)\">No WebContent process in the input.</text>\n</svg>\n"
            return out
        }
        for (i, lane) in lanes.enumerated() {
            let y = top + Double(i) * laneHeight + laneHeight / 2
            let color = Self.colors[lane.kind] ?? "#7f7f7f"
            if i % 2 == 0 {
                out += "<rect x=\"10\" y=\"\(f(y - laneHeight / 2))\" width=\"980\" height=\"\(f(laneHeight))\" fill=\"#f6f6f6\"/>\n"
            }
            let label = "pid \(lane.pid)" + (lane.kind.map { "  \($0.rawValue)" } ?? "")
            out += "<text x=\"20\" y=\"\(f(y + 4))\" fill=\"\(color)\"\(lane.kind == nil ? "" : " font-weight=\"bold\"")>\(escape(label))</text>\n"
            let xs = lane.steps.map { left + axis.x($0.at) }
            if let first = xs.min(), let last = xs.max() {
                out += "<line x1=\"\(f(first))\" y1=\"\(f(y))\" x2=\"\(f(last))\" y2=\"\(f(y))\" stroke=\"\(color)\" stroke-width=\"2\" opacity=\"0.5\"/>\n"
            }
            for (step, x) in zip(lane.steps, xs) { out += glyph(step.glyph, x: x, y: y) }
            if let detail = lane.detail, let first = xs.min(), let last = xs.max() {
                // After the lane's last step, or before its first when that would run off the page.
                let after = last + 12 + Double(detail.count) * 5.5 < 990
                out += "<text x=\"\(f(after ? last + 12 : first - 12))\" y=\"\(f(y + 4))\" font-size=\"10\" fill=\"\(color)\""
                    + "\(after ? "" : " text-anchor=\"end\"")>\(escape(detail))</text>\n"
            }
        }
        let bottom = top + Double(lanes.count) * laneHeight
        out += "<line x1=\"\(f(left))\" y1=\"\(f(bottom + 4))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(bottom + 4))\" stroke=\"#333\"/>\n"
        for tick in axis.ticks {
            let x = left + tick.x
            out += "<line x1=\"\(f(x))\" y1=\"\(f(top - 4))\" x2=\"\(f(x))\" y2=\"\(f(bottom + 8))\" stroke=\"#ccc\" stroke-dasharray=\"2,3\"/>\n"
            out += "<text x=\"\(f(x))\" y=\"\(f(bottom + 22))\" text-anchor=\"middle\" fill=\"#555\" font-size=\"10\">\(escape(tick.label))</text>\n"
        }
        out += "<text x=\"\(f(left))\" y=\"\(f(bottom + 42))\" fill=\"#555\">\(escape(axis.caption))</text>\n"
        return out + "</svg>\n"
    }

    // MARK: - Lanes

    struct Lane {
        let pid: Int32
        let kind: Incident.Kind?
        var detail: String? = nil
        let steps: [Step]
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

    /// Incidents first (up to the limit), then other WebContent processes, drawn in the order they started.
    private func chosenLanes() -> [Lane] {
        let incidents = report.incidentLanes.map { Lane(pid: $0.pid, kind: $0.kind, detail: $0.detail, steps: steps($0.marks)) }
        let others = report.otherLanes.map { Lane(pid: $0.pid, kind: nil, steps: steps($0.marks)) }
        let chosen = (incidents + others).filter { !$0.steps.isEmpty }.prefix(Self.laneLimit)
        return chosen.sorted { ($0.steps.map(\.at).min() ?? 0) < ($1.steps.map(\.at).min() ?? 0) }
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

    private func legend(y: Double) -> String {
        var out = ""
        var x = 20.0
        for glyph in Glyph.allCases {
            out += self.glyph(glyph, x: x + 6, y: y)
            out += "<text x=\"\(f(x + 16))\" y=\"\(f(y + 4))\">\(glyph.name)</text>\n"
            x += 28 + Double(glyph.name.count) * 6.2
        }
        x = 20
        for kind in Incident.Kind.allCases {
            let color = Self.colors[kind] ?? "#7f7f7f"
            out += "<rect x=\"\(f(x))\" y=\"\(f(y + 18))\" width=\"12\" height=\"4\" fill=\"\(color)\"/>\n"
            out += "<text x=\"\(f(x + 16))\" y=\"\(f(y + 24))\" fill=\"\(color)\" font-weight=\"bold\">\(kind.rawValue)</text>\n"
            x += 30 + Double(kind.rawValue.count) * 6.8
        }
        out += "<text x=\"\(f(x + 6))\" y=\"\(f(y + 24))\" fill=\"#7f7f7f\">grey: no incident</text>\n"
        return out
    }

    private func f(_ value: Double) -> String { svgNumber(value) }

    private func escape(_ text: String) -> String { svgText(text) }
}

/// A shared time axis that keeps milliseconds visible beside seconds: each gap between consecutive steps is drawn in
/// proportion to the logarithm of its length, so a 3 ms race and a 3 s watchdog both fit, in order.
struct TimeAxis {
    private let times: [Double]
    private let positions: [Double]
    let ticks: [(x: Double, label: String)]
    let caption: String

    /// `times` in microseconds (or line numbers when the log has no times, then negative).
    init(_ all: [Double], width: Double) {
        times = Array(Set(all)).sorted()
        var position = 0.0
        var positions: [Double] = []
        for (i, time) in times.enumerated() {
            if i > 0 { position += log10(1 + (time - times[i - 1]) / 10) + 0.05 }
            positions.append(position)
        }
        let scale = (positions.last ?? 0) > 0 ? width / positions.last! : 0
        self.positions = positions.map { $0 * scale }
        var ticks: [(Double, String)] = []
        var lastX = -1000.0
        let origin = times.first ?? 0
        for (time, x) in zip(times, self.positions) where x - lastX >= 70 {
            ticks.append((x, x == 0 ? "0" : "+" + Self.label(time - origin)))
            lastX = x
        }
        self.ticks = ticks
        caption = "time since the first step (gaps drawn on a log scale: milliseconds and seconds both stay visible)"
    }

    func x(_ time: Double) -> Double {
        guard let i = times.firstIndex(of: time) else { return 0 }
        return positions[i]
    }

    private static func label(_ micros: Double) -> String {
        micros < 1000 ? "\(Int(micros)) µs" : micros < 1_000_000 ? "\((micros / 100).rounded() / 10) ms" : "\((micros / 100_000).rounded() / 10) s"
    }
}
