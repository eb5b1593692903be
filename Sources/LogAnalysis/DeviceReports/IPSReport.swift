import Events

/// A JSON diagnostic report (`.ips`): a one-line metadata object, then the report as one pretty-printed object
/// whose keys come in any order. Crash reports (`bug_type` 309) and JetsamEvent reports (298) give facts; other
/// types are reports that say nothing the analyzer uses. iOS 14 and older wrote a crash's body as text after the
/// metadata line, and that is read as a text report.
package enum IPSReport {
    package static let crash = 309
    package static let jetsam = 298

    /// What the metadata line says, for a body that is cut short before it says the same.
    package struct Metadata {
        package var bugType: Int?
        package var time: String?
        package var name: String?
        /// `iPhone OS 18.1 (22B83)`: which WebKit the device ran.
        package var os: String?
    }

    package static func read(_ bytes: [UInt8]) -> DiagnosticReport.Reading {
        let start = DiagnosticReport.contentStart(of: bytes)
        var reader = JSONReader(bytes, from: start, to: DiagnosticReport.firstNewline(in: bytes, from: start))
        var metadata = Metadata()
        var bodyStart = start
        if reader.beginObject() {
            while let key = reader.nextMember() {
                if reader.key(key, is: DiagnosticReport.Key.bugType) {
                    metadata.bugType = reader.integer()
                } else if reader.key(key, is: Key.timestamp) {
                    metadata.time = reader.string()
                } else if reader.key(key, is: Key.osVersion) {
                    metadata.os = reader.string()
                } else if reader.key(key, is: Key.appName) || (reader.key(key, is: Key.name) && metadata.name == nil) {
                    metadata.name = reader.string()
                }
            }
            // A metadata line: the body follows it. A lone `{` (a report copied without its metadata) stops short, and
            // a line with nothing after it is a report written on one line.
            let rest = bytes[reader.position...].contains { $0 != 32 && $0 != 9 && $0 != 10 && $0 != 13 }
            if !reader.stopped, rest { bodyStart = reader.position }
        }
        var body = JSONReader(bytes, from: bodyStart)
        guard body.beginObject() else {
            let facts = TextCrashReport.facts(in: bytes, from: bodyStart)
            return DiagnosticReport.Reading(format: facts.isEmpty ? .diagnosticReport : .crashReport, facts: facts)
        }
        var crash = CrashFields()
        var jetsam = JetsamFields()
        while let key = body.nextMember() {
            if body.key(key, is: DiagnosticReport.Key.bugType) {
                let type = body.integer()
                if metadata.bugType == nil { metadata.bugType = type }
            } else if !crash.take(key, from: &body) {
                jetsam.take(key, from: &body)
            }
        }
        var lines = ReportLines(bytes)
        var reading = switch metadata.bugType ?? (jetsam.entries.isEmpty ? (crash.pid == nil ? nil : Self.crash) : Self.jetsam) {
        case Self.crash:
            DiagnosticReport.Reading(format: .crashReport, facts: crash.fact(metadata, &lines).map { [$0] } ?? [])
        case Self.jetsam:
            DiagnosticReport.Reading(format: .jetsamReport, facts: jetsam.facts(metadata, &lines), aliveProcesses: jetsam.alive)
        default:
            DiagnosticReport.Reading(format: .diagnosticReport)
        }
        reading.cutShort = body.stopped
        return reading
    }

    /// Where the report starts: after a UTF-8 byte-order mark and blank lines.
    private enum Key {
        package static let timestamp = bytes("timestamp")
        package static let appName = bytes("app_name")
        package static let osVersion = bytes("os_version")
        package static let name = bytes("name")
    }
}
