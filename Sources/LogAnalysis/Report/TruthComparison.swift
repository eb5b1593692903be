import Events
import Text
import Vocabulary

/// `analyze --truth`: what the logs alone yield, set against what our event log knows happened, kind by kind.
public struct TruthComparison {
    public struct Row {
        public let kind: IncidentKind
        public let truth: Int
        public let found: Int
        public let matched: Int
        public var precision: Double? { found == 0 ? nil : Double(matched) / Double(found) }
        public var recall: Double? { truth == 0 ? nil : Double(matched) / Double(truth) }
    }

    public let rows: [Row]
    /// In the truth, not found: (pid, kind).
    public let missed: [(Int32?, IncidentKind)]
    /// Found, not in the truth.
    public let extra: [(Int32?, IncidentKind)]

    /// Incidents match by kind and pid; those that name no pid match by count.
    public init(truth: AnalysisReport, found: AnalysisReport) {
        var rows: [Row] = []
        var missed: [(Int32?, IncidentKind)] = []
        var extra: [(Int32?, IncidentKind)] = []
        for kind in IncidentKind.allCases {
            let expected = truth.incidents.filter { $0.kind == kind }.map(\.pid)
            var left = found.incidents.filter { $0.kind == kind }.map(\.pid)
            var matched = 0
            for pid in expected {
                if let i = left.firstIndex(of: pid) {
                    left.remove(at: i)
                    matched += 1
                } else {
                    missed.append((pid, kind))
                }
            }
            extra += left.map { ($0, kind) }
            rows.append(Row(kind: kind, truth: expected.count, found: matched + left.count, matched: matched))
        }
        (self.rows, self.missed, self.extra) = (rows, missed, extra)
    }

    public var text: String {
        func percent(_ value: Double?) -> String {
            value.map { value in
                let tenths = Int((value * 1000).rounded())
                return "\(tenths / 10).\(tenths % 10)%"
            } ?? "—"
        }
        var lines = table([["KIND", "TRUTH", "FOUND", "MATCHED", "PRECISION", "RECALL"]] + rows.map { row in
            [row.kind.rawValue, "\(row.truth)", "\(row.found)", "\(row.matched)", percent(row.precision), percent(row.recall)]
        }, width: lineWidth)
        func list(_ items: [(Int32?, IncidentKind)]) -> String {
            items.prefix(20).map { "\($0.0.map(String.init) ?? "no pid") (\($0.1.rawValue))" }.joined(separator: ", ")
                + (items.count > 20 ? " and \(items.count - 20) more" : "")
        }
        if !missed.isEmpty { lines += wrapped("Missed: " + list(missed), indent: 2) }
        if !extra.isEmpty { lines += wrapped("Not in the truth: " + list(extra), indent: 2) }
        return lines.joined(separator: "\n")
    }

    public var json: JSON {
        .array(rows.map { row in
            .object([
                ("kind", .string(row.kind.rawValue)), ("truth", .int(row.truth)), ("found", .int(row.found)),
                ("matched", .int(row.matched)), ("precision", row.precision.map(JSON.double) ?? .null),
                ("recall", row.recall.map(JSON.double) ?? .null),
            ])
        })
    }
}
