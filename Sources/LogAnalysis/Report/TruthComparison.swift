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
    /// Processes whose reason for ending the truth gives, as WebKit prints it, and how many of them the logs gave
    /// the same reason: one row a reason.
    public let reasons: [(reason: String, truth: Int, matched: Int)]
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
        var given: [Int32: [TerminationCause]] = [:]
        for (pid, cause) in found.endings { given[pid, default: []].append(cause) }
        var reasons: [String: (truth: Int, matched: Int)] = [:]
        for (pid, cause) in truth.endings {
            var row = reasons[cause.description, default: (0, 0)]
            row.truth += 1
            if let i = given[pid]?.firstIndex(of: cause) {
                given[pid]?.remove(at: i)
                row.matched += 1
            }
            reasons[cause.description] = row
        }
        self.reasons = reasons.sorted { $0.key < $1.key }.map { ($0.key, $0.value.truth, $0.value.matched) }
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
        if !reasons.isEmpty {
            lines += [""] + table([["REASON", "TRUTH", "MATCHED", "RECALL"]] + reasons.map { row in
                [row.reason, "\(row.truth)", "\(row.matched)", percent(Double(row.matched) / Double(row.truth))]
            }, width: lineWidth)
        }
        if !missed.isEmpty { lines += wrapped("Missed: " + list(missed), indent: 2) }
        if !extra.isEmpty { lines += wrapped("Not in the truth: " + list(extra), indent: 2) }
        return lines.joined(separator: "\n")
    }

    /// Each reason's row, as `--json` writes it beside the kinds' (`truthReasons`).
    public var reasonsJSON: JSON {
        .array(reasons.map { row in
            .object([
                ("reason", .string(row.reason)), ("truth", .int(row.truth)), ("matched", .int(row.matched)),
                ("recall", .double(Double(row.matched) / Double(row.truth))),
            ])
        })
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
