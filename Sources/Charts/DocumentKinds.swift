import System

/// The documents this tool draws and writes, each beginning with a comment that says whose it is, so that the next
/// run may replace one and nothing else (see `OutputKind`).
package enum DocumentKinds {
    /// The first line of every SVG chart: `analyze --svg`, `compare --svg`, and the lanes inside `--html`.
    package static let chartSignature = "<!-- chart drawn by supervisor -->\n"
    /// The HTML report's first two lines: the doctype must come first.
    package static let reportSignature = "<!DOCTYPE html>\n<!-- report written by supervisor analyze -->\n"

    package static let chart = OutputKind(role: "the chart", name: "a chart drawn by supervisor", beginning: chartSignature)
    package static let report = OutputKind(
        role: "the HTML report", name: "a report written by supervisor", beginning: reportSignature)
}
