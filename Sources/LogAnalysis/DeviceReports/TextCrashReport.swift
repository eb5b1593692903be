import System

/// The text form of a crash report: the older `.crash`, Console's "Translated Report", an iOS 14 `.ips` body. Each
/// field is `Key:`, padding, then the value; the padding differs between report versions, so a line is split at its
/// first colon and both sides trimmed. Several reports pasted into one file give a fact each: a second `Process:`
/// starts the next report.
package enum TextCrashReport {
    package enum Field: CaseIterable {
        case process, path, responsible, parentProcess, dateTime, exceptionType, terminationReason, terminationSignal
        case coalition, identifier, crashedThread, reportVersion, incidentIdentifier, hardwareModel, osVersion, codeType

        package var label: [UInt8] {
            switch self {
            case .process: bytes("Process")
            case .path: bytes("Path")
            case .responsible: bytes("Responsible")
            case .parentProcess: bytes("Parent Process")
            case .dateTime: bytes("Date/Time")
            case .exceptionType: bytes("Exception Type")
            case .terminationReason: bytes("Termination Reason")
            case .terminationSignal: bytes("Termination Signal")
            case .coalition: bytes("Coalition")
            case .identifier: bytes("Identifier")
            case .crashedThread: bytes("Crashed Thread")
            case .reportVersion: bytes("Report Version")
            case .incidentIdentifier: bytes("Incident Identifier")
            case .hardwareModel: bytes("Hardware Model")
            case .osVersion: bytes("OS Version")
            case .codeType: bytes("Code Type")
            }
        }

        package static let labels = allCases.map { ($0, $0.label) }
    }

    /// How many fields of a report are looked at when telling a report from a log: its header is shorter.
    package static let headerFields = 60
    private static let processLabel = bytes("Process:")

    /// Whether `head` starts a text crash report: its first line (after Console's "Translated Report" banner, and a
    /// few lines of an e-mail's prose) a field of a report, a `Process: name [pid]` line near the top, and at least
    /// two other fields around it. A log that quotes a report further down is a log.
    package static func looksLike(_ head: [UInt8]) -> Bool {
        guard head.span.contains(processLabel), let first = firstLine(of: head) else { return false }
        var seen = Set<Field>()
        var process = false
        var fields = 0
        var startsWithField = false
        forEachField(in: head, from: first) { field, value, lineStart in
            if fields == 0 { startsWithField = lineStart == first }
            fields += 1
            seen.insert(field)
            if field == .process, bracketed(head, value) != nil { process = true }
            return fields < headerFields
        }
        return startsWithField && process && seen.count >= 3
    }

    /// Whether `head` is a text crash report that lost its header lines: no `Process:` line, but it starts with a
    /// field of a report and has at least two of those only a report has (the exception, the termination).
    package static func looksHeadless(_ head: [UInt8]) -> Bool {
        guard !head.span.contains(processLabel), let first = firstLine(of: head) else { return false }
        var seen = Set<Field>()
        var startsWithField = false
        var fields = 0
        forEachField(in: head, from: first) { field, _, lineStart in
            if fields == 0 { startsWithField = lineStart == first }
            fields += 1
            if [.exceptionType, .terminationReason, .terminationSignal, .crashedThread].contains(field) { seen.insert(field) }
            return fields < headerFields
        }
        return startsWithField && seen.count >= 2
    }

    /// Where the first line that is not blank, a rule of dashes, the "Translated Report" banner or one of the first
    /// `proseLines` lines of prose (no field, no log record: "Here is the crash:") starts.
    private static func firstLine(of head: [UInt8]) -> Int? {
        var start = 0
        var prose = 0
        while start < head.count {
            let end = DiagnosticReport.firstNewline(in: head, from: start)
            let line = head[start..<end].drop { $0 == 32 || $0 == 9 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
            let decoration = line.allSatisfy { $0 == 45 || $0 == 13 } || line.starts(with: banner)
            if !decoration {
                guard prose < proseLines, field(of: Array(line)) == nil, Envelope.shape(of: Array(line).span) == .bare else {
                    return start
                }
                prose += 1
            }
            start = end + 1
        }
        return nil
    }

    private static let proseLines = 8

    /// The field `line` is a line of, if any.
    private static func field(of line: [UInt8]) -> Field? {
        var found: Field?
        forEachField(in: line + [10], from: 0) { field, _, _ in
            found = field
            return false
        }
        return found
    }

    private static let banner = bytes("Translated Report")

    /// One fact per report in `bytes` from `start` on that names its process and pid.
    package static func facts(in bytes: [UInt8], from start: Int) -> [ReportFact] {
        var facts: [ReportFact] = []
        var lines = ReportLines(bytes)
        var report: Pending?
        forEachField(in: bytes, from: start) { field, value, lineStart in
            if field == .process {
                if let done = report?.fact(&lines) { facts.append(done) }
                report = Pending(processAt: lineStart)
            }
            report?.take(field, bytes, value, at: lineStart)
            return true
        }
        if let done = report?.fact(&lines) { facts.append(done) }
        return facts
    }

    /// A report's fields as they are read.
    private struct Pending {
        package var processAt: Int
        package var name: String?
        package var pid: Int?
        package var path: String?
        package var responsible: (name: String?, pid: Int?)
        package var parent: (name: String?, pid: Int?)
        package var coalition: Int?
        package var time: (micros: Int, zoneSeconds: Int?)?
        package var exception: String?
        package var signal: String?
        package var termination: String?
        package var os: String?
        package var citedAt: Int?

        package mutating func take(_ field: Field, _ bytes: [UInt8], _ value: Range<Int>, at lineStart: Int) {
            let text = String(decoding: bytes[value], as: UTF8.self)
            switch field {
            case .process:
                (name, pid) = TextCrashReport.named(bytes, value)
            case .path:
                path = text
            case .responsible:
                responsible = TextCrashReport.named(bytes, value)
            case .parentProcess:
                parent = TextCrashReport.named(bytes, value)
            case .coalition:
                coalition = TextCrashReport.bracketed(bytes, value)?.value
            case .dateTime:
                time = DiagnosticReport.time(text)
            case .exceptionType:
                // `EXC_BAD_ACCESS (SIGSEGV)`: the exception, and its signal in brackets.
                let parts = text.split(separator: "(", maxSplits: 1)
                exception = parts.first.map { $0.trimmingBlanks() }
                if parts.count == 2 { signal = parts[1].split(separator: ")").first.map { $0.trimmingBlanks() } }
                citedAt = lineStart
            case .terminationReason:
                termination = text
                if citedAt == nil { citedAt = lineStart }
            case .terminationSignal:
                if signal == nil { signal = text }
            case .osVersion:
                os = text
            default:
                break
            }
        }

        package func fact(_ lines: inout ReportLines) -> ReportFact? {
            guard let name, !name.isEmpty, let pid = pid.flatMap(Int32.init(exactly:)) else { return nil }
            let cited = citedAt ?? processAt
            return ReportFact(
                event: .crashed(exception: exception, signal: signal, termination: termination), pid: pid, name: name,
                path: path, responsible: ReportFact.host(responsible: responsible, parent: parent), coalition: coalition,
                time: time?.micros, zoneSeconds: time?.zoneSeconds, line: lines.line(at: cited), text: lines.text(at: cited),
                os: os)
        }
    }

    // MARK: - Lines into fields

    /// Calls `body` with each line of a known field: the field, its value's bytes (trimmed) and where the line starts.
    /// `body` returns false to stop. Lines of no known field build nothing. A last line without its newline may have
    /// been cut short (`Date/Time: ... -08` would lose its zone), so it is left out.
    private static func forEachField(in bytes: [UInt8], from start: Int, _ body: (Field, Range<Int>, Int) -> Bool) {
        var lineStart = max(0, start)
        while lineStart < bytes.count {
            let lineEnd = DiagnosticReport.firstNewline(in: bytes, from: lineStart)
            guard lineEnd < bytes.count else { return }
            defer { lineStart = lineEnd + 1 }
            var keyStart = lineStart
            while keyStart < lineEnd, bytes[keyStart] == 32 || bytes[keyStart] == 9 { keyStart += 1 }
            let searchEnd = min(lineEnd, keyStart + 24)
            guard keyStart < searchEnd, let colon = Sys.firstIndex(of: 58, in: bytes, keyStart..<searchEnd) else { continue }
            var keyEnd = colon
            while keyEnd > keyStart, bytes[keyEnd - 1] == 32 || bytes[keyEnd - 1] == 9 { keyEnd -= 1 }
            let key = bytes[keyStart..<keyEnd]
            guard let field = Field.labels.first(where: { $0.1.count == key.count && $0.1.elementsEqual(key) })?.0 else { continue }
            var valueStart = colon + 1
            var valueEnd = lineEnd
            while valueStart < valueEnd, bytes[valueStart] == 32 || bytes[valueStart] == 9 { valueStart += 1 }
            while valueEnd > valueStart, bytes[valueEnd - 1] == 32 || bytes[valueEnd - 1] == 9 || bytes[valueEnd - 1] == 13 {
                valueEnd -= 1
            }
            if !body(field, valueStart..<valueEnd, lineStart) { return }
        }
    }

    /// `MyApp [4100]`: the name before the brackets and the number in them.
    package static func named(_ bytes: [UInt8], _ value: Range<Int>) -> (name: String?, pid: Int?) {
        guard let (number, open) = bracketed(bytes, value) else {
            return (value.isEmpty ? nil : String(decoding: bytes[value], as: UTF8.self), nil)
        }
        var end = open
        while end > value.lowerBound, bytes[end - 1] == 32 { end -= 1 }
        return (end > value.lowerBound ? String(decoding: bytes[value.lowerBound..<end], as: UTF8.self) : nil, number)
    }

    /// The number in the last `[N]` of a value, and where its `[` is.
    package static func bracketed(_ bytes: [UInt8], _ value: Range<Int>) -> (value: Int, open: Int)? {
        guard let open = bytes[value].lastIndex(of: 91) else { return nil }
        var i = open + 1
        var number = 0
        while i < value.upperBound, bytes[i] &- 48 < 10, i - open <= 10 {
            number = number * 10 + Int(bytes[i] - 48)
            i += 1
        }
        guard i > open + 1, i < value.upperBound, bytes[i] == 93 else { return nil }
        return (number, open)
    }
}

extension Substring {
    fileprivate func trimmingBlanks() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
