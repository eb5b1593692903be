import Glibc
import Scenario
import Text

/// The cost panel under the comparison chart: one point per policy, what its users waited (y, log scale) against
/// the worker time it kept protected from the killer (x), the frontier drawn through the points no other policy
/// beats on both, a verdict naming it, a table of every cost measured, and a legend defining the axes.
extension Chart {
    static let costLegend = [
        "y: ms per load that users looked at a view without content. A load that showed counts its time to visible, "
            + "a blank load the whole time it stayed blank, until the user gave up (--blank-timeout): a blank is the "
            + "slowest load, not one left out. Failed loads (an error page) have no such time and are left out.",
        "x: worker-ms per load protected from the killer (foreground or boosted band): memory the policy keeps "
            + "Jetsam from reclaiming, what always-foreground spends. Spawns and peak RSS are listed beside it, not "
            + "folded in at a made-up rate.",
        "Frontier (line, filled points): the policies no other policy matches on both axes while beating them on "
            + "one; equal points are both on it; values are compared at the 0.01 shown. Hollow points are beaten.",
    ]

    /// The panel drawn from `top` down, and how tall it is.
    func costPanel(top: Double) -> (svg: String, height: Double) {
        let costs = comparison.costs
        let frontier = comparison.frontierIndices
        let (left, plotWidth, plotHeight, textWidth) = (70.0, 560.0, 300.0, 930.0)
        let verdict = svgLines(comparison.verdict, width: textWidth, size: 14, bold: true)
        let plotTop = top + 60 + 18 * Double(verdict.count) + 14
        var out = line(left, top + 12, left + textWidth, top + 12, "#bbb")
        out += text(left, top + 38, "The cost of each policy: users' wait against worker time protected from the killer",
                    bold: true, size: 16)
        for (i, verdictLine) in verdict.enumerated() {
            out += text(left, top + 62 + 18 * Double(i), verdictLine, bold: true, size: 14)
        }

        let points = costs.map(\.point)
        let xs = points.compactMap { $0?.x }
        let ys = points.compactMap { $0?.y }.filter { $0 > 0 }
        let step = niceStep((xs.max() ?? 0) / 5)
        let xHigh = max(step, ((xs.max() ?? 0) / step).rounded(.up) * step)
        let low = pow(10, floor(log10(ys.min() ?? 1)))
        let high = max(low * 10, pow(10, ceil(log10(ys.max() ?? 10))))
        func x(_ value: Double) -> Double { left + value / xHigh * plotWidth }
        func y(_ ms: Double) -> Double {
            plotTop + plotHeight - (log10(max(ms, low)) - log10(low)) / (log10(high) - log10(low)) * plotHeight
        }

        // Grid and axes: a tick every step of protected time; a labelled line every decade of wait, faint at 2 and 5.
        let decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : 2
        for tick in 0...Int((xHigh / step).rounded()) {
            let value = Double(tick) * step
            out += line(x(value), plotTop, x(value), plotTop + plotHeight, "#ddd")
            out += text(x(value), plotTop + plotHeight + 16, fixed(value, decimals), anchor: "middle")
        }
        var decade = low
        while decade <= high * 1.0001 {
            out += line(left, y(decade), left + plotWidth, y(decade), "#ddd")
            out += text(left - 6, y(decade) + 4, decade >= 1 ? "\(Int(decade))" : "\(decade)", anchor: "end")
            for minor in [2.0, 5.0] where decade * minor < high {
                out += line(left, y(decade * minor), left + plotWidth, y(decade * minor), "#f0f0f0")
            }
            decade *= 10
        }
        out += line(left, plotTop + plotHeight, left + plotWidth, plotTop + plotHeight, "#333")
        out += line(left, plotTop, left, plotTop + plotHeight, "#333")
        out += text(left + plotWidth / 2, plotTop + plotHeight + 36,
                    "protected worker-ms per load (foreground or boosted band)", anchor: "middle")
        out += "<text transform=\"translate(22 \(fmt(plotTop + plotHeight / 2))) rotate(-90)\" text-anchor=\"middle\">"
            + "wait: ms without content per load (log scale)</text>\n"

        // The frontier under the points, then the points, then their names where they clash with nothing.
        // A path, not a polyline: the chart's polylines are its time-to-visible curves, one per policy.
        let frontierLine = frontier.compactMap { points[$0] }.map { "\(fmt(x($0.x))),\(fmt(y($0.y)))" }
        if frontierLine.count > 1 {
            out += "<path class=\"frontier\" fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\" "
                + "d=\"M\(frontierLine.joined(separator: " L"))\"/>\n"
        }
        var labels: [LabelPlacement.Label] = []
        var labelled: [Int] = []
        for (i, cost) in costs.enumerated() {
            guard let point = cost.point else { continue }
            let color = Self.colors[i % Self.colors.count]
            let fill = frontier.contains(i) ? color : "white"
            out += "<circle class=\"cost-point\" data-policy=\"\(escape(cost.policy))\" cx=\"\(fmt(x(point.x)))\" "
                + "cy=\"\(fmt(y(point.y)))\" r=\"5\" fill=\"\(fill)\" stroke=\"\(color)\" stroke-width=\"2\">"
                + "<title>\(escape(details(cost)))</title></circle>\n"
            labels.append(.init(x: x(point.x), y: y(point.y), width: TextWidth.of(cost.policy, size: 12, bold: true), height: 14))
            labelled.append(i)
        }
        let bounds = LabelPlacement.Box(minX: left + 2, minY: plotTop + 2, maxX: left + plotWidth - 2, maxY: plotTop + plotHeight - 2)
        for (label, (box, i)) in zip(labels, zip(LabelPlacement.place(labels, within: bounds, avoiding: []), labelled)) {
            let color = Self.colors[i % Self.colors.count]
            let (nearX, nearY) = (min(max(label.x, box.minX), box.maxX), min(max(label.y, box.minY), box.maxY))
            if hypot(nearX - label.x, nearY - label.y) > 10 { out += line(label.x, label.y, nearX, nearY, "#999") }
            out += "<text class=\"cost-label\" x=\"\(fmt(box.minX))\" y=\"\(fmt(box.minY + 11))\" fill=\"\(color)\" "
                + "font-weight=\"bold\" textLength=\"\(fmt(label.width))\" lengthAdjust=\"spacingAndGlyphs\">"
                + "\(escape(costs[i].policy))</text>\n"
        }

        let tableBottom = costTable(costs, frontier: frontier, left: left + plotWidth + 30, top: plotTop, into: &out)
        var legendTop = max(plotTop + plotHeight + 62, tableBottom + 10)
        for paragraph in Self.costLegend {
            for legendLine in svgLines(paragraph, width: textWidth, size: 11) {
                out += text(left, legendTop, legendLine, color: "#555", size: 11)
                legendTop += 15
            }
        }
        return (out, legendTop + 4 - top)
    }

    /// Every cost of every policy, to the right of the plot, and notes on what the plot leaves out; returns the
    /// bottom of what it wrote.
    private func costTable(_ costs: [PolicyCost], frontier: [Int], left: Double, top: Double, into out: inout String) -> Double {
        let columns: [(header: String, right: Double)] = [("wait ms", 170), ("prot. ms", 225), ("spawns", 275), ("RSS MiB", 330)]
        out += text(left, top + 4, "per load (RSS: the peak of the live workers)", color: "#555", size: 11)
        for column in columns { out += text(left + column.right, top + 22, column.header, anchor: "end", bold: true, size: 11) }
        var rowY = top + 40
        for (i, cost) in costs.enumerated() {
            let color = Self.colors[i % Self.colors.count]
            out += text(left, rowY, cost.point == nil ? "–" : frontier.contains(i) ? "●" : "○", color: color, size: 11)
            out += text(left + 12, rowY, cost.policy, color: color, bold: true, size: 11)
            let cells = [cost.waitMs, cost.protectedMs, cost.spawnsPerLoad].map { $0.map { fixed($0, 2) } ?? "–" }
                + [cost.peakWorkerRSSBytes.map { fixed(Double($0) / 1_048_576, 1) } ?? "–"]
            for (column, cell) in zip(columns, cells) { out += text(left + column.right, rowY, cell, anchor: "end", size: 11) }
            rowY += 18
        }
        var notes: [String] = []
        let failed = costs.filter { $0.failed > 0 }.map { "\($0.policy) \($0.failed)" }
        if !failed.isEmpty { notes.append("Failed loads left out of the wait: " + failed.joined(separator: ", ") + ".") }
        let unmeasured = comparison.unmeasured
        if !unmeasured.isEmpty { notes.append("Not on the plot (no measured wait): " + unmeasured.joined(separator: ", ") + ".") }
        let cut = costs.filter(\.interrupted).map(\.policy)
        if !cut.isEmpty { notes.append("Interrupted, over the loads it ran: " + cut.joined(separator: ", ") + ".") }
        let cached = comparison.summaries.compactMap { s in s.cache.hitRate.map { "\(s.policy) \(fixed($0 * 100, 1))%" } }
        if !cached.isEmpty {
            notes.append("Views given a cached worker of their site (process cache hit rate): " + cached.joined(separator: ", ") + ".")
        }
        for note in notes.flatMap({ svgLines($0, width: 330, size: 10) }) {
            rowY += 2
            out += text(left, rowY, note, color: "#555", size: 10)
            rowY += 12
        }
        return rowY
    }

    /// A point's tooltip: every cost of its policy.
    private func details(_ cost: PolicyCost) -> String {
        func shown(_ value: Double?, _ unit: String) -> String { value.map { "\(fixed($0, 2)) \(unit)" } ?? "no \(unit)" }
        return "\(cost.policy): wait \(shown(cost.waitMs, "ms")), protected \(shown(cost.protectedMs, "worker-ms")), "
            + "\(shown(cost.spawnsPerLoad, "spawns")) per load; peak RSS "
            + (cost.peakWorkerRSSBytes.map { fixed(Double($0) / 1_048_576, 1) + " MiB" } ?? "not measured")
    }

    /// 1, 2 or 5 times a power of ten, the smallest at least `value`: ticks a reader can add up.
    private func niceStep(_ value: Double) -> Double {
        guard value > 0 else { return 0.2 }
        let power = pow(10, floor(log10(value)))
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= value } ?? 10 * power
    }

    /// `text` broken at spaces into lines no wider than `width` pixels, as Helvetica sets them.
    private func svgLines(_ text: String, width: Double, size: Double, bold: Bool = false) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if TextWidth.of(candidate, size: size, bold: bold) > width, !current.isEmpty {
                lines.append(current)
                current = String(word)
            } else {
                current = candidate
            }
        }
        return current.isEmpty ? lines : lines + [current]
    }
}
