/// The envelopes a log line comes in: those of real iOS and macOS logs (see IOS-LOG-FORMATS.md), and our own JSON
/// Lines logs. The format is told line by line, because people paste several tools' output into one file.
public enum LogFormat: String, CaseIterable, Sendable {
    /// `2025-03-02 10:11:12.123456+0100 App[4100:99001] [Category] message`; also with the time stripped, with a
    /// two-digit year, or behind a relay's own prefix.
    case xcode = "xcode-console"
    /// Xcode 15+: the message alone, perhaps behind `[WebKit] ` or ` LOG  `, or after a bare `[Category]`.
    case messageOnly = "xcode-message-only"
    /// `error<TAB>10:11:12.123456+0100<TAB>My App<TAB>message`, and its variants.
    case consoleApp = "console-app"
    /// `Mar  2 10:11:12 iPhone App(WebKit)[4100] <Notice>: message` (idevicesyslog).
    case syslog
    /// `[+2061 ms] [DEVICE LOG] 2025-03-02 ... Runner[4100]: (WebKit) [com.apple.WebKit:Cat] message`, hard-wrapped.
    case flutter = "flutter-relay"
    /// `supervisor run --log`.
    case eventLog = "supervisor-jsonl"
    /// Jetsam's kill log.
    case jetsamLog = "jetsam-jsonl"
    /// A crash report, JSON (`.ips`, `bug_type` 309) or text: read whole by `DiagnosticReport`, as are the next two.
    case crashReport = "crash-report"
    /// A JetsamEvent report (`.ips`, `bug_type` 298).
    case jetsamReport = "jetsam-report"
    /// Another of Apple's diagnostic reports (`.ips`): recognised, and saying nothing the analyzer uses.
    case diagnosticReport = "diagnostic-report"

    var index: Int {
        switch self {
        case .xcode: 0
        case .messageOnly: 1
        case .consoleApp: 2
        case .syslog: 3
        case .flutter: 4
        case .eventLog: 5
        case .jetsamLog: 6
        case .crashReport: 7
        case .jetsamReport: 8
        case .diagnosticReport: 9
        }
    }
}

/// What a line's first bytes say about it.
enum LineShape: Equatable {
    /// The first line of a record in this envelope.
    case record(LogFormat)
    /// Indented, or closing a brace: more of the record above (NSError dumps, Console.app continuations).
    case continuation
    /// No envelope: a message-only line if it names WebKit or RunningBoard, a wrapped flutter line, or unknown.
    case bare
    case blank
}

/// Where a record's message starts, and what its envelope says: when, which process, which thread.
struct Envelope {
    var format: LogFormat
    var time: Int?
    /// The zone the line was written in; nil when it names none (the time is then read as UTC).
    var zoneSeconds: Int?
    /// Only whole seconds (syslog): windows are widened by a second.
    var coarse = false
    /// The day is not in the line (Console.app): it is carried from earlier lines or unknown.
    var dated = true
    var hostPID: Int32?
    var thread: UInt64?
    var process: Range<Int>?
    var message = 0

    // MARK: - Telling the shape

    static func shape(of line: Span<UInt8>) -> LineShape {
        var i = line.byte(0) == 96 ? 1 : 0
        let first = line.byte(i)
        if first == 9 || (first == 32 && line.byte(i + 1) == 32) {
            let text = line.skippingBlanks(from: i)
            if text == line.count { return .blank }
            // A pasted block indented whole (`  <pre>2022-07-11 ...`) is still a dated record.
            return embeddedDate(line, from: text).map { $0 - text <= 8 } == true ? .record(.xcode) : .continuation
        }
        if first == 32 { i += 1 }
        guard i < line.count else { return .blank }
        switch line[i] {
        case 125:
            return .continuation
        case 123:
            if line.contains(Marker.jetsamKill) { return .record(.jetsamLog) }
            return line.contains(Marker.jsonEvent) ? .record(.eventLog) : .bare
        case 91:
            return flutterTiming(line, at: i) != nil ? .record(.flutter) : .bare
        case 48...57:
            if line.byte(i + 1) == 120 { return .bare }
            if datedTime(line, at: i) != nil { return .record(.xcode) }
            if let (_, end) = line.number(at: i), line.byte(end) == 9 || line.byte(end) == 32,
                consoleType(line, at: line.skippingBlanks(from: end)) != nil
            {
                return .record(.consoleApp)
            }
        default:
            if syslogTime(line, at: i) != nil { return .record(.syslog) }
            if consoleType(line, at: i) != nil { return .record(.consoleApp) }
            if processAndThread(line, from: i) != nil { return .record(.xcode) }
        }
        return embeddedDate(line, from: i) != nil ? .record(.xcode) : .bare
    }

    // MARK: - Reading the envelope

    /// The envelope of the first line of a record. `day` carries the last date seen in the file, for envelopes
    /// that print a time without one.
    static func parse(_ line: Span<UInt8>, as format: LogFormat, day: inout Int?) -> Envelope {
        var envelope = Envelope(format: format)
        var i = line.byte(0) == 96 ? 1 : 0
        i = line.skipping(32, from: i)
        switch format {
        case .xcode:
            if let at = datedTime(line, at: i) ?? embeddedDate(line, from: i) {
                i = readDatedTime(line, at: at, into: &envelope, day: &day)
            }
            readProcess(line, from: i, into: &envelope)
        case .flutter:
            guard let timing = flutterTiming(line, at: i) else { break }
            i = line.skipping(32, from: timing)
            envelope.message = i
            guard line.matches(Marker.deviceLog, at: i) else { break }
            i = line.skipping(32, from: i + Marker.deviceLog.count)
            if datedTime(line, at: i) != nil { i = readDatedTime(line, at: i, into: &envelope, day: &day) }
            // The device's host name, then `Runner[4100]: (WebKit) [com.apple.WebKit:Category] message`.
            if let space = line.index(of: 32, from: i) { i = line.skipping(32, from: space) }
            readProcess(line, from: i, into: &envelope)
        case .syslog:
            guard let (days, micros, end) = syslogTime(line, at: i) else { break }
            envelope.time = days * LogTime.microsecondsPerDay + micros
            envelope.coarse = true
            if let year = day.map({ LogTime.civil($0).year }) {
                let (_, month, date) = LogTime.civil(days)
                envelope.time = LogTime.days(year: year, month: month, day: date) * LogTime.microsecondsPerDay + micros
            } else {
                envelope.dated = false
            }
            i = line.skipping(32, from: end)
            if let space = line.index(of: 32, from: i) { i = line.skipping(32, from: space) }
            readProcess(line, from: i, into: &envelope)
        case .consoleApp:
            readConsole(line, from: i, into: &envelope, day: &day)
        case .messageOnly, .eventLog, .jetsamLog, .crashReport, .jetsamReport, .diagnosticReport:
            envelope.message = i
        }
        return envelope
    }

    /// A date and time at `at`; returns where the rest of the line starts.
    private static func readDatedTime(_ line: Span<UInt8>, at: Int, into envelope: inout Envelope, day: inout Int?) -> Int {
        guard let (days, end) = LogTime.date(line, at: at),
            let (micros, timeEnd, fraction) = LogTime.timeOfDay(line, at: end + 1)
        else { return at }
        day = days
        var i = timeEnd
        var zone = LogTime.zone(line, at: i) ?? LogTime.zone(line, at: i + 1)
        if zone != nil { i = line.skipping(32, from: i) } else if line.byte(i) == 90 { zone = (0, i + 1) }
        envelope.zoneSeconds = zone?.seconds
        envelope.time = days * LogTime.microsecondsPerDay + micros - (zone?.seconds ?? 0) * 1_000_000
        envelope.coarse = !fraction
        i = line.skipping(32, from: zone?.end ?? i)
        envelope.message = i
        return i
    }

    /// `Name[pid:tid] [Category] ` or `Name[pid]: (Library) [sub:Category] `, where the name may hold spaces.
    private static func readProcess(_ line: Span<UInt8>, from start: Int, into envelope: inout Envelope) {
        envelope.message = start
        guard let (open, pid, thread, close) = processAndThread(line, from: start) else { return }
        envelope.hostPID = Int32(truncatingIfNeeded: pid)
        envelope.thread = thread
        var end = open
        while end > start, line.byte(end - 1) == 32 { end -= 1 }
        envelope.process = start..<end
        var i = line.skipping(32, from: close + 1)
        if line.byte(i) == 58 { i = line.skipping(32, from: i + 1) }
        // `(Library)` and `[Category]`, either of which may be missing, and a category may be empty.
        for (opening, closing) in [(UInt8(40), UInt8(41)), (91, 93)] where line.byte(i) == opening {
            guard let shut = line.index(of: closing, from: i + 1, to: i + 80) else { break }
            i = line.skipping(32, from: shut + 1)
        }
        if line.byte(i) == 60, let shut = line.index(of: 62, from: i, to: i + 16), line.byte(shut + 1) == 58 {
            i = line.skipping(32, from: shut + 2)
        }
        envelope.message = i
    }

    private static func readConsole(_ line: Span<UInt8>, from start: Int, into envelope: inout Envelope, day: inout Int?) {
        var i = start
        if let (_, end) = line.number(at: i) { i = line.skippingBlanks(from: end) }
        guard let typeEnd = consoleType(line, at: i) else { return }
        i = line.skippingBlanks(from: typeEnd)
        guard let (micros, end, fraction) = LogTime.timeOfDay(line, at: i) else { return }
        i = end
        let zone = LogTime.zone(line, at: i) ?? LogTime.zone(line, at: i + 1)
        envelope.zoneSeconds = zone?.seconds
        envelope.coarse = !fraction
        envelope.dated = day != nil
        envelope.time = (day ?? 0) * LogTime.microsecondsPerDay + micros - (zone?.seconds ?? 0) * 1_000_000
        i = zone?.end ?? i
        let tabbed = line.byte(i) == 9
        i = line.skippingBlanks(from: i)
        // The process column: up to the next tab, or the next run of spaces (a single word if runs are single).
        var processEnd = i
        while processEnd < line.count, line[processEnd] != 9,
            !(line[processEnd] == 32 && (!tabbed || line.byte(processEnd + 1) == 32))
        {
            processEnd += 1
        }
        envelope.process = i..<processEnd
        i = line.skippingBlanks(from: processEnd)
        if let (pid, after) = line.number(at: i), line.byte(after) == 9 {
            envelope.hostPID = Int32(truncatingIfNeeded: pid)
            i = line.skippingBlanks(from: after)
        }
        envelope.message = i
    }

    // MARK: - Field shapes

    /// `YYYY-MM-DD HH:MM:SS` (or `YY-`, or a `T`) at `i`, told by the shape of its bytes alone: this runs on
    /// every line.
    private static func datedTime(_ line: Span<UInt8>, at i: Int) -> Int? {
        let year = line.isDigit(i + 2) ? 4 : 2
        let j = i + year
        for k in [i, i + 1, j + 1, j + 2, j + 4, j + 5, j + 7, j + 8, j + 10, j + 11, j + 13, j + 14] where !line.isDigit(k) {
            return nil
        }
        let separator = line.byte(j + 6)
        guard line.byte(j) == 45, line.byte(j + 3) == 45, separator == 32 || separator == 84, line.byte(j + 9) == 58,
            line.byte(j + 12) == 58
        else { return nil }
        return i
    }

    /// A dated time behind some relay's own prefix (`dbug: [11:42:18.4274030] 2026-07-27 ...`, `<pre>2022-...`).
    private static func embeddedDate(_ line: Span<UInt8>, from start: Int) -> Int? {
        var i = start
        let limit = min(line.count, start + 64)
        while let dash = line.index(of: 45, from: i, to: limit) {
            for at in [dash - 4, dash - 2] where at >= start && (at == 0 || !line.isDigit(at - 1)) {
                if datedTime(line, at: at) != nil { return at }
            }
            i = dash + 1
        }
        return nil
    }

    /// `Mar  2 10:11:12` at `i`: the day of 1970's calendar (the year is not in the line) and the time.
    private static func syslogTime(_ line: Span<UInt8>, at i: Int) -> (days: Int, micros: Int, end: Int)? {
        guard let month = LogTime.month(line, at: i), line.byte(i + 3) == 32 else { return nil }
        let dayAt = line.byte(i + 4) == 32 ? i + 5 : i + 4
        guard let (date, end) = line.number(at: dayAt), end - dayAt <= 2, (1...31).contains(date), line.byte(end) == 32,
            let (micros, timeEnd, _) = LogTime.timeOfDay(line, at: end + 1)
        else { return nil }
        return (LogTime.days(year: 1970, month: month, day: date), micros, timeEnd)
    }

    /// `default`, `info`, `error`, `fault`, `debug` or `notice` followed by a tab or spaces and a time; returns where
    /// the type word ends.
    private static func consoleType(_ line: Span<UInt8>, at i: Int) -> Int? {
        for word in Marker.consoleTypes {
            var matched = true
            for (k, byte) in word.enumerated() where line.byte(i + k) | 0x20 != byte {
                matched = false
                break
            }
            guard matched else { continue }
            let end = i + word.count
            guard line.byte(end) == 9 || line.byte(end) == 32 else { return nil }
            return LogTime.timeOfDay(line, at: line.skippingBlanks(from: end)) != nil ? end : nil
        }
        return nil
    }

    /// flutter -v's `[+2061 ms]`, `[  +13 ms]` or `[        ]` at `i`; returns the index after it.
    private static func flutterTiming(_ line: Span<UInt8>, at i: Int) -> Int? {
        guard line.byte(i) == 91 else { return nil }
        var j = line.skipping(32, from: i + 1)
        if line.byte(j) == 43 { j = line.number(at: j + 1).map { line.skipping(32, from: $0.end) } ?? j }
        if line.matches(Marker.ms, at: j) { j += 2 }
        return line.byte(j) == 93 && j > i + 1 ? j + 1 : nil
    }

    /// `[4100:99001]` or `[4100]` within the first 200 bytes after `start`: the bracket, pid, thread and close.
    private static func processAndThread(_ line: Span<UInt8>, from start: Int) -> (Int, Int, UInt64?, Int)? {
        var i = start
        let limit = min(line.count, start + 200)
        while let open = line.index(of: 91, from: i, to: limit) {
            i = open + 1
            guard let (pid, end) = line.number(at: open + 1) else { continue }
            if line.byte(end) == 93 { return (open, pid, nil, end) }
            guard line.byte(end) == 58 else { continue }
            var j = end + 1
            var thread: UInt64 = 0
            while line.isHexDigit(j), j - end < 17 {
                let byte = line[j] | 0x20
                thread = thread &* 16 &+ UInt64(byte <= 57 ? byte - 48 : byte - 87)
                j += 1
            }
            if line.byte(j) == 93, j > end + 1 { return (open, pid, thread, j) }
        }
        return nil
    }
}
