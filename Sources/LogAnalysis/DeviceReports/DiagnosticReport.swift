import Events
import System
import Text

/// Crash reports, JetsamEvent reports and the other diagnostic reports Apple's systems write: told from a file's
/// first bytes (never its name), read whole up to `sizeLimit`, and turned into `ReportFact`s.
///
/// A report is read whole rather than line by line because its facts are spread over it in any order (a JSON
/// report's keys), and it is small: a crash report is tens to hundreds of KB, a JetsamEvent report less.
package enum DiagnosticReport {
    /// How much of a file is looked at to tell what it is.
    package static let headLimit = 64 << 10
    /// A report is read up to here; past it, its lines are counted and its bytes dropped, as if it were cut short.
    package static let sizeLimit = 16 << 20

    package enum Shape: Equatable {
        /// `.ips`: a one-line JSON object with `bug_type`, then the report (or, from a copy, the report alone).
        case ips
        /// The text form: `.crash`, Console's "Translated Report", an iOS 14 `.ips` body pasted alone.
        case text
        /// A sysdiagnose's `ps.txt`.
        case processListing
        /// A sysdiagnose's `summaries/crashes_and_spins.log`.
        case collectionSummary
    }

    /// What one report gave.
    package struct Reading {
        /// `crash-report`, `jetsam-report` or `diagnostic-report`: what the report's lines are counted as.
        package var format: LogFormat
        package var facts: [ReportFact] = []
        package var listing: ProcessListing?
        /// What the user should know of it, beside facts.
        package var note: String?
        /// Entries of a JetsamEvent report without `reason`: processes that were alive when it was taken.
        package var aliveProcesses = 0
        package var lines = 0
        package var bytes = 0
        /// A JSON report's body ended before its closing brace: the report was cut short.
        package var cutShort = false

        /// Whether anything was read from the report: a fact, or the whole report with the processes alive it lists
        /// or of a kind that tells nothing the analyzer uses. A crash or JetsamEvent report that names no process
        /// (its metadata line alone, from a cut-short archive) places no line, nor does a part of one.
        package var understood: Bool {
            !facts.isEmpty || listing != nil || (!cutShort && (aliveProcesses > 0 || format == .diagnosticReport))
        }
    }

    // MARK: - Telling a report from a log

    /// Whether `head`, a file's first bytes, begins a report: an object on the first line naming `bug_type`, a lone
    /// `{` opening an object whose top level names it, or the fields of a text crash report near the top.
    package static func shape(of head: [UInt8]) -> Shape? {
        if let unquoted = unquoted(head) { return shape(of: unquoted) }
        if ProcessListing.looksLike(head) { return .processListing }
        if CrashCollectionSummary.looksLike(head) { return .collectionSummary }
        let start = contentStart(of: head)
        if start < head.count, head[start] == 123, bugType(in: head, from: start) != nil { return .ips }
        return TextCrashReport.looksLike(head) || TextCrashReport.looksHeadless(head) ? .text : nil
    }

    /// Where the text starts, past a byte-order mark and blank space.
    package static func contentStart(of bytes: [UInt8]) -> Int {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 13 { i += 1 }
        return i
    }

    /// The `bug_type` of the object at `start`: from its first line when that holds the whole metadata object, else
    /// from the object's top-level members as far as `bytes` goes.
    package static func bugType(in bytes: [UInt8], from start: Int) -> Int? {
        let lineEnd = firstNewline(in: bytes, from: start)
        for end in [lineEnd, bytes.count] {
            var reader = JSONReader(bytes, from: start, to: end)
            guard reader.beginObject() else { continue }
            while let key = reader.nextMember() {
                if reader.key(key, is: Key.bugType) { return reader.integer() }
            }
        }
        return nil
    }

    // MARK: - Reading one

    /// Reads the report `source` holds to its end: its first `sizeLimit` bytes parsed, the rest counted.
    package static func read(_ source: inout some ByteSource, as shape: Shape) throws(SystemError) -> Reading {
        var bytes = [UInt8](repeating: 0, count: 256 << 10)
        var count = 0
        var lines = 0
        var last: UInt8 = 10
        while true {
            if count == bytes.count {
                guard count < sizeLimit else { break }
                bytes += [UInt8](repeating: 0, count: min(count, sizeLimit - count))
            }
            let n = try source.read(into: &bytes, from: count)
            if n == 0 { break }
            count += n
        }
        bytes.removeSubrange(count...)
        lines = newlines(in: bytes, 0..<count)
        if let end = bytes.last { last = end }
        var total = count
        if count == sizeLimit {
            var rest = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let n = try source.read(into: &rest, from: 0)
                if n == 0 { break }
                total += n
                lines += newlines(in: rest, 0..<n)
                last = rest[n - 1]
            }
        }
        var reading = parse(bytes, as: shape)
        reading.lines = lines + (last == 10 ? 0 : 1)
        reading.bytes = total
        return reading
    }

    /// A report quoted in an e-mail reply, every line behind `> ` (or `>`, at one level or more): its lines
    /// without the quoting, as many as before. Nil unless the first line that is not blank is quoted.
    package static func unquoted(_ bytes: [UInt8]) -> [UInt8]? {
        let start = contentStart(of: bytes)
        guard start < bytes.count, bytes[start] == 62 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var atLineStart = true
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            i += 1
            if atLineStart, byte == 62 {
                if i < bytes.count, bytes[i] == 32 { i += 1 }
                continue
            }
            atLineStart = byte == 10
            out.append(byte)
        }
        return out
    }

    /// The facts in a whole report (or as much of it as there is).
    package static func parse(_ bytes: [UInt8], as shape: Shape) -> Reading {
        if let unquoted = unquoted(bytes) { return parse(unquoted, as: shape) }
        switch shape {
        case .text:
            return Reading(format: .crashReport, facts: TextCrashReport.facts(in: bytes, from: 0))
        case .processListing:
            return Reading(format: .processListing, listing: ProcessListing(bytes))
        case .collectionSummary:
            return Reading(format: .diagnosticReport, note: CrashCollectionSummary.note(bytes))
        case .ips:
            return IPSReport.read(bytes)
        }
    }

    /// A report's time as it writes it, `2026-03-02 10:11:13.0912 -0800` (the zone may be missing, or written
    /// `-08:00` or `Z`; a `T` may stand for the space): microseconds since 1970 UTC, and the zone if it names one.
    package static func time(_ text: String) -> (micros: Int, zoneSeconds: Int?)? {
        let bytes = Array(text.utf8)
        let line = bytes.span
        var i = line.skippingBlanks(from: 0)
        guard let (days, dateEnd) = LogTime.date(line, at: i) else { return nil }
        i = line.byte(dateEnd) == 84 ? dateEnd + 1 : line.skippingBlanks(from: dateEnd)
        guard let (micros, timeEnd, _) = LogTime.timeOfDay(line, at: i) else { return nil }
        let local = days * LogTime.microsecondsPerDay + micros
        i = line.skippingBlanks(from: timeEnd)
        if line.byte(i) == 90 { return (local, 0) }
        guard let (zone, _) = LogTime.zone(line, at: i) else { return (local, nil) }
        return (local - zone * 1_000_000, zone)
    }

    // MARK: - Bytes

    package static func firstNewline(in bytes: [UInt8], from start: Int) -> Int {
        guard start < bytes.count else { return bytes.count }
        return Sys.firstIndex(of: 10, in: bytes, start..<bytes.count) ?? bytes.count
    }

    private static func newlines(in bytes: [UInt8], _ range: Range<Int>) -> Int {
        var count = 0
        var start = range.lowerBound
        while let newline = Sys.firstIndex(of: 10, in: bytes, start..<range.upperBound) {
            count += 1
            start = newline + 1
        }
        return count
    }

    package enum Key {
        package static let bugType = bytes("bug_type")
    }
}

/// Line numbers and texts of offsets in a report, for the evidence a person is shown: offsets are asked for in
/// increasing order, so lines are counted once.
package struct ReportLines {
    package let bytes: [UInt8]
    private var counted = 0
    private var line = 1

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The 1-based line holding `offset`.
    package mutating func line(at offset: Int) -> Int {
        let target = max(0, min(offset, bytes.count))
        if target < counted {
            counted = 0
            line = 1
        }
        while counted < target, let newline = Sys.firstIndex(of: 10, in: bytes, counted..<target) {
            line += 1
            counted = newline + 1
        }
        counted = target
        return line
    }

    /// The line holding `offset`, as written, without its indentation, cut at `Evidence.textLimit` bytes.
    package func text(at offset: Int) -> String {
        let target = max(0, min(offset, bytes.count))
        // A report may be one long line: the quote starts at most a little before the offset.
        var start = target
        while start > max(0, target - Evidence.textLimit / 4), bytes[start - 1] != 10 { start -= 1 }
        while start < target, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
        var end = DiagnosticReport.firstNewline(in: bytes, from: target)
        if end > start, bytes[end - 1] == 13 { end -= 1 }
        return String(decoding: bytes[start..<min(end, start + Evidence.textLimit)], as: UTF8.self)
    }
}
