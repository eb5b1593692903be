import Core
import Glibc
import Scenario
import Text

/// The comparison as a picture: time-to-visible CDFs, one line per policy, and the blank loads of each policy
/// with the injected faults it met (delivered) and escaped (spared), and under them the cost of each policy
/// (`Chart+Frontier`). An interrupted comparison says so, and shows each policy over the loads it ran.
package struct Chart {
    let comparison: Comparison

    package init(comparison: Comparison) { self.comparison = comparison }
    var summaries: [RunSummary] { comparison.summaries }

    static let colors = ["#7f7f7f", "#d62728", "#ff7f0e", "#9467bd", "#1f77b4", "#2ca02c", "#8c564b", "#e377c2"]

    package var svg: String {
        let interruption = comparison.interruption
        let width = 1000.0
        let costPanel = costPanel(top: interruption == nil ? 460.0 : 476.0)
        let height = (interruption == nil ? 460.0 : 476.0) + costPanel.height
        // The CDF panel, below the interruption's line if there is one.
        let (left, top, plotWidth, plotHeight) = (70.0, interruption == nil ? 60.0 : 76.0, 560.0, 320.0)
        let samples = summaries.flatMap(\.timeToVisibleMs).filter { $0 > 0 && $0.isFinite }
        let low = pow(10, floor(log10(samples.min() ?? 1)))
        let high = pow(10, ceil(log10(max(samples.max() ?? 10, low * 10))))
        func x(_ ms: Double) -> Double { left + (log10(max(ms, low)) - log10(low)) / (log10(high) - log10(low)) * plotWidth }
        func y(_ fraction: Double) -> Double { top + plotHeight - fraction * plotHeight }

        var out = DocumentKinds.chartSignature + """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="24" font-size="16" font-weight="bold">Recovery policies: time to visible and blank loads</text>
            <text x="\(left)" y="42" fill="#555">\(escape(comparison.workload))</text>

            """
        if let interruption { out += text(left, 58, interruption, color: "#d62728", bold: true) }
        // Grid and axes.
        var decade = low
        while decade <= high * 1.0001 {
            out += line(x(decade), top, x(decade), top + plotHeight, "#ddd")
            out += text(x(decade), top + plotHeight + 16, label(decade), anchor: "middle")
            decade *= 10
        }
        for step in 0...4 {
            let fraction = Double(step) / 4
            out += line(left, y(fraction), left + plotWidth, y(fraction), "#ddd")
            out += text(left - 6, y(fraction) + 4, "\(Int(fraction * 100))%", anchor: "end")
        }
        out += line(left, top + plotHeight, left + plotWidth, top + plotHeight, "#333")
        out += line(left, top, left, top + plotHeight, "#333")
        out += text(left + plotWidth / 2, top + plotHeight + 36, "time to visible (ms, log scale)", anchor: "middle")
        out += "<text transform=\"translate(22 \(top + plotHeight / 2)) rotate(-90)\" text-anchor=\"middle\">loads visible</text>\n"

        for (i, summary) in summaries.enumerated() {
            let color = Self.colors[i % Self.colors.count]
            let sorted = summary.timeToVisibleMs.filter(\.isFinite).sorted()
            guard summary.loads > 0, !sorted.isEmpty else { continue }
            var points = "\(x(sorted[0])),\(y(0))"
            for (rank, ms) in sorted.enumerated() {
                points += " \(fmt(x(ms))),\(fmt(y(Double(rank) / Double(summary.loads))))"
                points += " \(fmt(x(ms))),\(fmt(y(Double(rank + 1) / Double(summary.loads))))"
            }
            points += " \(fmt(left + plotWidth)),\(fmt(y(Double(sorted.count) / Double(summary.loads))))"
            out += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(points)\"/>\n"
        }

        // The blank panel.
        let barLeft = 760.0
        let barWidth = 150.0
        let maxBlank = Double(max(1, summaries.map(\.blank).max() ?? 1))
        out += "<text x=\"\(barLeft - 90)\" y=\"\(top - 8)\" font-weight=\"bold\">blank loads, injected faults</text>\n"
        let rowHeight = min(40.0, plotHeight / Double(max(1, summaries.count)))
        for (i, summary) in summaries.enumerated() {
            let color = Self.colors[i % Self.colors.count]
            let rowY = top + Double(i) * rowHeight
            let length = Double(summary.blank) / maxBlank * barWidth
            let barHeight = max(2, rowHeight - 22)
            out += "<rect x=\"\(barLeft)\" y=\"\(fmt(rowY + 4))\" width=\"\(fmt(max(length, 1)))\" height=\"\(fmt(barHeight))\" fill=\"\(color)\"/>\n"
            out += text(barLeft - 8, rowY + 4 + barHeight / 2 + 4, summary.policy, anchor: "end", color: color, bold: true)
            let ran = summary.interrupted ? " (interrupted)" : ""
            out += text(barLeft + max(length, 1) + 6, rowY + 4 + barHeight / 2 + 4, "\(summary.blank) of \(summary.loads)\(ran)")
            out += text(barLeft, rowY + barHeight + 17, "faults: \(summary.faultsDelivered) delivered, \(summary.faultsSpared) spared",
                        color: "#555", size: 10)
        }
        out += costPanel.svg
        out += "</svg>\n"
        return out
    }

    func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ color: String) -> String {
        "<line x1=\"\(fmt(x1))\" y1=\"\(fmt(y1))\" x2=\"\(fmt(x2))\" y2=\"\(fmt(y2))\" stroke=\"\(color)\"/>\n"
    }

    func text(
        _ x: Double, _ y: Double, _ content: String, anchor: String = "start", color: String = "#222", bold: Bool = false,
        size: Int? = nil
    ) -> String {
        let style = (bold ? " font-weight=\"bold\"" : "") + (size.map { " font-size=\"\($0)\"" } ?? "")
        return "<text x=\"\(fmt(x))\" y=\"\(fmt(y))\" text-anchor=\"\(anchor)\" fill=\"\(color)\"\(style)>\(escape(content))</text>\n"
    }

    private func label(_ ms: Double) -> String {
        ms >= 1000 ? "\(Int(ms / 1000)) s" : ms >= 1 ? "\(Int(ms)) ms" : "\(ms) ms"
    }

    func fmt(_ value: Double) -> String { svgNumber(value) }

    func escape(_ text: String) -> String { markupText(text) }
}

/// A coordinate as the charts write it: one decimal.
func svgNumber(_ value: Double) -> String { String((value * 10).rounded() / 10) }
