/// A sysdiagnose's `summaries/crashes_and_spins.log`: which of the device's crash and Jetsam reports were collected
/// into the bundle, one `<path>, <status>` line each (`Added to Candidate logs`, `File past date limit`, `File did not
/// match predicate`; then `Added` under the size limit). What it says of WebContent and Jetsam reports left on the
/// device is worth a note: the evidence exists, outside the bundle.
package enum CrashCollectionSummary {
    private static let opening = bytes("APPLYING PREDICATE")

    /// Whether `head` starts such a summary: its first line that is not blank opens the predicate section.
    package static func looksLike(_ head: [UInt8]) -> Bool {
        head[DiagnosticReport.contentStart(of: head)...].starts(with: opening)
    }

    /// `crashes_and_spins.log: 2 reports of WebContent or Jetsam left on the device (past the date limit): …`; nil
    /// when every such report was collected.
    package static func note(_ bytes: [UInt8]) -> String? {
        var left: [(name: String, status: String)] = []
        var collected: Set<String> = []
        for line in bytes.split(separator: 10) where line.first == 47 {
            // `<path>, <status>`: paths hold no comma, so the line's first comma ends it.
            let text = line.filter { $0 != 13 }
            guard let comma = text.firstIndex(of: 44) else { continue }
            let path = String(decoding: text[..<comma], as: UTF8.self)
            let name = String(path.split(separator: "/").last ?? "")
            guard name.hasPrefix("JetsamEvent") || name.contains("WebContent") else { continue }
            let status = String(decoding: text[(comma + 1)...].drop { $0 == 32 }, as: UTF8.self)
            if status.hasPrefix("Added") { collected.insert(name) } else { left.append((name, status.lowercased())) }
        }
        let missing = left.filter { !collected.contains($0.name) }
        guard !missing.isEmpty else { return nil }
        let listed = missing.prefix(3).map { "\($0.name) (\($0.status))" }.joined(separator: ", ")
        return "\(missing.count) WebContent or Jetsam " + (missing.count == 1 ? "report" : "reports")
            + " left on the device, not in the bundle: " + listed + (missing.count > 3 ? ", …" : "")
    }
}
