import Events
import Text

/// What a line's first bytes say about it.
package enum LineShape: Equatable {
    /// The first line of a record in this envelope.
    case record(LogFormat)
    /// Indented, or closing a brace: more of the record above (NSError dumps, Console.app continuations, the keys of
    /// a pretty-printed JSON object).
    case continuation
    /// No envelope: a message-only line if it names WebKit or RunningBoard, a wrapped flutter line, or unknown.
    case bare
    /// Blank, or `log show`'s `Filtering the log data ...`: skipped.
    case blank
}

/// Where a record's message starts, and what its envelope says: when, which process, which thread.
package struct Envelope {
    package var format: LogFormat
    package var time: Int?
    /// The zone the time was read in: the one the line wrote, or the one assumed for a line that writes none.
    package var zone: Zone?
    /// Only whole seconds (syslog): windows are widened by a second.
    package var coarse = false
    /// The day is not in the line (Console.app): it is carried from earlier lines or unknown.
    package var dated = true
    package var hostPID: Int32?
    package var thread: UInt64?
    package var process: Range<Int>?
    /// Where the message starts; it runs to the record's end.
    package var message = 0
    /// A JSON record's message: the body of its string, escapes as written.
    package var jsonMessage: Range<Int>?

    package enum Zone: Equatable {
        case written(Int)
        case assumed(Int)

        /// Seconds east of UTC.
        package var seconds: Int {
            switch self {
            case .written(let seconds), .assumed(let seconds): seconds
            }
        }
    }

    /// Hands the message to `body`: as written, or a JSON string's with its escapes resolved, so that WebKit's
    /// words match whatever the encoder escaped.
    package func withMessage(in record: Span<UInt8>, _ body: (Span<UInt8>) -> Void) {
        guard let range = jsonMessage else { return body(record.extracting(min(message, record.count)..<record.count)) }
        var text: [UInt8] = []
        JSONText.unescape(record.extracting(range), into: &text)
        body(text.span)
    }

    /// In a JSON object written over many lines, the line that holds the message: the evidence a person is shown,
    /// rather than a brace. How many lines come before it, and its bytes past the indentation; nil when the
    /// message is on the record's first line.
    package func messageLine(in record: Span<UInt8>) -> (skipped: Int, range: Range<Int>)? {
        guard let at = jsonMessage?.lowerBound else { return nil }
        var skipped = 0
        var start = 0
        for i in 0..<at where record[i] == 10 {
            skipped += 1
            start = i + 1
        }
        guard skipped > 0 else { return nil }
        return (skipped, record.skippingBlanks(from: start)..<(record.index(of: 10, from: at) ?? record.count))
    }

    // MARK: - Telling the shape

    package static func shape(of line: Span<UInt8>) -> LineShape {
        var i = line.byte(0) == 96 ? 1 : 0
        let first = line.byte(i)
        if first == 9 || (first == 32 && line.byte(i + 1) == 32) {
            let text = line.skippingBlanks(from: i)
            if text == line.count { return .blank }
            // jq's layout of an array: each object opens on a line of its own, indented by two.
            if text - i <= 2, opensObject(line, at: text) { return .record(.logShowJSON) }
            // A file of tabbed message-only lines: each is a message of its own, not more of the one above.
            if first == 9, startsMessage(line, at: text) { return .record(.messageOnly) }
            // A pasted block indented whole (`  <pre>2022-07-11 ...`) is still a dated record.
            return embeddedDate(line, from: text).map { $0 - text <= 8 } == true ? .record(.xcode) : .continuation
        }
        if first == 32 { i += 1 }
        guard i < line.count else { return .blank }
        switch line[i] {
        case 125:
            return opensObject(line, at: i) ? .record(.logShowJSON) : .continuation
        case 123:
            return jsonShape(line, at: i)
        case 91:
            if line.byte(i + 1) == 123 { return .record(.logShowJSON) }
            return flutterTiming(line, at: i) != nil ? .record(.flutter) : .bare
        case 48...57:
            if line.byte(i + 1) == 120 { return .bare }
            if datedTime(line, at: i) != nil { return .record(datedFormat(line, at: i)) }
            if let (_, end) = line.number(at: i), line.byte(end) == 9 || line.byte(end) == 32,
                consoleType(line, at: line.skippingBlanks(from: end)) != nil
            {
                return .record(.consoleApp)
            }
        default:
            if isFurniture(line, at: i) { return .blank }
            if syslogTime(line, at: i) != nil { return .record(.syslog) }
            if consoleType(line, at: i) != nil { return .record(.consoleApp) }
            if processAndThread(line, from: i) != nil { return .record(.xcode) }
        }
        return embeddedDate(line, from: i) != nil ? .record(.xcode) : .bare
    }

    /// A line that opens with `{`: a whole JSON object, told by its keys in any order, or the first line of a
    /// pretty-printed one.
    private static func jsonShape(_ line: Span<UInt8>, at i: Int) -> LineShape {
        if opensObject(line, at: i) { return .record(.logShowJSON) }
        if line.contains(Marker.eventMessage) { return .record(.logShowNDJSON) }
        if line.contains(Marker.jetsamKill) { return .record(.jetsamLog) }
        if line.contains(Marker.jsonEvent) { return .record(.eventLog) }
        return line.contains(Marker.logType) ? .record(.unifiedLog) : .bare
    }

    // MARK: - Reading the envelope

    /// The envelope of the first line of a record. `day` carries the last date seen in the file, for envelopes
    /// that print a time without one; `zone` is how to read a time written without a zone.
    package static func parse(_ line: Span<UInt8>, as format: LogFormat, day: inout Int?, assuming zone: ZoneAssumption) -> Envelope {
        var envelope = Envelope(format: format)
        var i = line.byte(0) == 96 ? 1 : 0
        i = line.skipping(32, from: i)
        switch format {
        case .xcode:
            if let at = datedTime(line, at: i) ?? embeddedDate(line, from: i) {
                i = readDatedTime(line, at: at, into: &envelope, day: &day, assuming: zone)
            }
            readProcess(line, from: i, into: &envelope)
        case .logShow:
            i = readDatedTime(line, at: i, into: &envelope, day: &day, assuming: zone)
            readLogShowColumns(line, from: i, into: &envelope)
        case .logShowSyslog:
            i = readDatedTime(line, at: i, into: &envelope, day: &day, assuming: zone)
            // The host (`localhost`), then `MyApp[4100]: (WebKit) [sub:cat] message`.
            if let space = line.index(of: 32, from: i) { i = line.skipping(32, from: space) }
            readProcess(line, from: i, into: &envelope)
        case .logShowCompact:
            i = readDatedTime(line, at: i, into: &envelope, day: &day, assuming: zone)
            // The type in two columns (`Df`, `E `), then `MyApp[4100:2f1a3] [sub:cat] message`.
            readProcess(line, from: line.skipping(32, from: i + 2), into: &envelope)
        case .logShowNDJSON, .logShowJSON, .unifiedLog:
            JSONLogRecord.read(line, into: &envelope, day: &day, assuming: zone)
        case .flutter:
            guard let timing = flutterTiming(line, at: i) else { break }
            i = line.skipping(32, from: timing)
            envelope.message = i
            guard line.matches(Marker.deviceLog, at: i) else { break }
            i = line.skipping(32, from: i + Marker.deviceLog.count)
            if datedTime(line, at: i) != nil { i = readDatedTime(line, at: i, into: &envelope, day: &day, assuming: zone) }
            // The device's host name, then `Runner[4100]: (WebKit) [com.apple.WebKit:Category] message`.
            if let space = line.index(of: 32, from: i) { i = line.skipping(32, from: space) }
            readProcess(line, from: i, into: &envelope)
        case .syslog:
            guard let (days, micros, end) = syslogTime(line, at: i) else { break }
            envelope.coarse = true
            let (_, month, date) = LogTime.civil(days)
            let year = day.map { LogTime.civil($0).year } ?? zone.year
            envelope.dated = year != nil
            let wall = LogTime.days(year: year ?? 1970, month: month, day: date) * LogTime.microsecondsPerDay + micros
            envelope.settle(wall, written: nil, assuming: zone)
            i = line.skipping(32, from: end)
            if let space = line.index(of: 32, from: i) { i = line.skipping(32, from: space) }
            readProcess(line, from: i, into: &envelope)
        case .consoleApp:
            readConsole(line, from: i, into: &envelope, day: &day, assuming: zone)
        case .messageOnly, .eventLog, .jetsamLog, .crashReport, .jetsamReport, .diagnosticReport, .processListing:
            envelope.message = i
        }
        return envelope
    }

    /// Sets the time from a clock reading (microseconds as if it were UTC) in the zone the line wrote, else in the
    /// zone assumed.
    package mutating func settle(_ wall: Int, written: Int?, assuming assumption: ZoneAssumption) {
        let seconds = written ?? assumption.zone.secondsEast(atWall: wall)
        zone = written == nil ? .assumed(seconds) : .written(seconds)
        time = wall - seconds * 1_000_000
    }

    /// A date and time at `at`; returns where the rest of the line starts.
    package static func readDatedTime(_ line: Span<UInt8>, at: Int, into envelope: inout Envelope, day: inout Int?,
                              assuming assumption: ZoneAssumption) -> Int {
        guard let (days, end) = LogTime.date(line, at: at),
            let (micros, timeEnd, fraction) = LogTime.timeOfDay(line, at: end + 1)
        else { return at }
        day = days
        var i = timeEnd
        var zone = LogTime.zone(line, at: i) ?? LogTime.zone(line, at: i + 1)
        if zone != nil { i = line.skipping(32, from: i) } else if line.byte(i) == 90 { zone = (0, i + 1) }
        envelope.settle(days * LogTime.microsecondsPerDay + micros, written: zone?.seconds, assuming: assumption)
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
        // pymobiledevice3 writes the sender image after the name: `MyApp{WebKit}[4100]`.
        if line.byte(end - 1) == 125, let brace = line.index(of: 123, from: start, to: end) { end = brace }
        envelope.process = start..<end
        var i = line.skipping(32, from: close + 1)
        if line.byte(i) == 58 { i = line.skipping(32, from: i + 1) }
        envelope.message = skippingLibraryAndCategory(line, from: i)
    }

    /// Past `(Library)` and `[sub:Category]`, either of which may be missing, and a category may be empty; past
    /// syslog's `<Notice>:`.
    package static func skippingLibraryAndCategory(_ line: Span<UInt8>, from start: Int) -> Int {
        var i = start
        for (opening, closing) in [(UInt8(40), UInt8(41)), (91, 93)] where line.byte(i) == opening {
            guard let shut = line.index(of: closing, from: i + 1, to: i + 80) else { break }
            i = line.skipping(32, from: shut + 1)
        }
        if line.byte(i) == 60, let shut = line.index(of: 62, from: i, to: i + 16), line.byte(shut + 1) == 58 {
            i = line.skipping(32, from: shut + 2)
        }
        return i
    }

    private static func readConsole(_ line: Span<UInt8>, from start: Int, into envelope: inout Envelope, day: inout Int?,
                                    assuming assumption: ZoneAssumption) {
        var i = start
        if let (_, end) = line.number(at: i) { i = line.skippingBlanks(from: end) }
        guard let typeEnd = consoleType(line, at: i) else { return }
        i = line.skippingBlanks(from: typeEnd)
        guard let (micros, end, fraction) = LogTime.timeOfDay(line, at: i) else { return }
        i = end
        let zone = LogTime.zone(line, at: i) ?? LogTime.zone(line, at: i + 1)
        envelope.coarse = !fraction
        envelope.dated = day != nil
        envelope.settle((day ?? 0) * LogTime.microsecondsPerDay + micros, written: zone?.seconds, assuming: assumption)
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
    package static func datedTime(_ line: Span<UInt8>, at i: Int) -> Int? {
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

    /// Console's type column, then a tab or spaces and a time; returns where the type word ends. Console writes the
    /// type in the Mac's language (`默认`, `错误`), so any single word is taken when the rest keeps Console's shape:
    /// a time with a fraction, then a tab or a run of spaces. The English words need no more than a time.
    private static func consoleType(_ line: Span<UInt8>, at i: Int) -> Int? {
        var end = i
        while end - i < 32, line.byte(end) >= 0x80 || (line.byte(end) | 0x20) &- 97 < 26 { end += 1 }
        guard end > i, line.byte(end) == 9 || line.byte(end) == 32,
            let (_, timeEnd, fraction) = LogTime.timeOfDay(line, at: line.skippingBlanks(from: end))
        else { return nil }
        let english = Marker.consoleTypes.contains { word in
            word.count == end - i && word.indices.allSatisfy { line[i + $0] | 0x20 == word[$0] }
        }
        if english { return end }
        guard fraction else { return nil }
        let after = (LogTime.zone(line, at: timeEnd) ?? LogTime.zone(line, at: timeEnd + 1))?.end ?? timeEnd
        return line.byte(after) == 9 || (line.byte(after) == 32 && line.byte(after + 1) == 32) ? end : nil
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
    package static func processAndThread(_ line: Span<UInt8>, from start: Int) -> (Int, Int, UInt64?, Int)? {
        var i = start
        let limit = min(line.count, start + 200)
        while let open = line.index(of: 91, from: i, to: limit) {
            i = open + 1
            guard let (pid, end) = line.number(at: open + 1) else { continue }
            if line.byte(end) == 93 { return (open, pid, nil, end) }
            guard line.byte(end) == 58 else { continue }
            if let (thread, j) = line.hexNumber(at: end + 1), line.byte(j) == 93 { return (open, pid, thread, j) }
        }
        return nil
    }
}
