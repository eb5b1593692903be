import Events
import Text

/// `log show`'s styles, told apart from Xcode's lines by what follows the time, and the furniture around them.
extension Envelope {
    /// A dated line's envelope, told by what follows its time: `log show`'s columns (`0x2f1a3  Default  0x0 ...`),
    /// its syslog style's host before `Name[pid]:`, its compact style's two-letter type after a time in
    /// milliseconds with no zone, or else Xcode's `Name[pid:tid]`. Runs on every dated line, so it reads a few bytes.
    package static func datedFormat(_ line: Span<UInt8>, at i: Int) -> LogFormat {
        var j = i + (line.isDigit(i + 2) ? 19 : 17)
        // Xcode's `.123456+0100 ` is by far the most common: one look at what follows it settles most lines.
        if line.byte(j) == 46, line.byte(j + 12) == 32, line.byte(j + 7) == 43 || line.byte(j + 7) == 45 {
            let next = line.byte(j + 13)
            if next != 48, next != 32, next != 108 { return .xcode }
        }
        var digits = 0
        if line.byte(j) == 46 || line.byte(j) == 44 {
            j += 1
            while line.isDigit(j) {
                j += 1
                digits += 1
            }
        }
        let zone = LogTime.zone(line, at: j) ?? LogTime.zone(line, at: j + 1)
        if let zone { j = zone.end } else if line.byte(j) == 90 { j += 1 }
        guard line.byte(j) == 32 else { return .xcode }
        let k = j + 1
        if line.byte(k) == 48, line.byte(k + 1) == 120 { return logShowColumns(line, at: k) != nil ? .logShow : .xcode }
        if zone == nil, digits == 3, line.byte(k) &- 65 < 26, line.byte(k + 1) == 32 || line.byte(k + 1) &- 97 < 26,
            line.byte(k + 2) == 32
        {
            return .logShowCompact
        }
        if line.byte(k) == 32 || line.matches(Marker.localhost, at: k) {
            let host = line.skipping(32, from: k)
            if let space = line.index(of: 32, from: host, to: host + 64),
                let (_, _, thread, close) = processAndThread(line, from: space + 1), thread == nil, line.byte(close + 1) == 58
            {
                return .logShowSyslog
            }
        }
        return .xcode
    }

    /// `0x2f1a3    Default     0x0                  4100   0    ` at `i`: the thread, the pid, and where the
    /// process name starts. The type may be any word; older systems print no TTL column.
    package static func logShowColumns(_ line: Span<UInt8>, at i: Int) -> (thread: UInt64, pid: Int, end: Int)? {
        guard let (thread, threadEnd) = hexNumber(line, at: i), line.byte(threadEnd) == 32 else { return nil }
        var j = line.skipping(32, from: threadEnd)
        guard let typeEnd = line.index(of: 32, from: j, to: j + 32), typeEnd > j else { return nil }
        j = line.skipping(32, from: typeEnd)
        guard let (_, activityEnd) = hexNumber(line, at: j), line.byte(activityEnd) == 32 else { return nil }
        j = line.skipping(32, from: activityEnd)
        guard let (pid, pidEnd) = line.number(at: j), line.byte(pidEnd) == 32 else { return nil }
        j = line.skipping(32, from: pidEnd)
        if let (_, ttlEnd) = line.number(at: j), line.byte(ttlEnd) == 32 { j = line.skipping(32, from: ttlEnd) }
        return (thread, pid, j)
    }

    /// The columns after the time, then `MyApp: (WebKit) [sub:cat] message`, where the process name may hold spaces
    /// and ends at its colon.
    package static func readLogShowColumns(_ line: Span<UInt8>, from start: Int, into envelope: inout Envelope) {
        envelope.message = start
        guard let (thread, pid, i) = logShowColumns(line, at: start) else { return }
        envelope.thread = thread
        envelope.hostPID = Int32(truncatingIfNeeded: pid)
        envelope.message = i
        var colon = i
        while colon < min(line.count, i + 256), !(line[colon] == 58 && (line.byte(colon + 1) == 32 || colon + 1 == line.count)) {
            colon += 1
        }
        guard colon < line.count, line[colon] == 58 else { return }
        envelope.process = i..<colon
        envelope.message = skippingLibraryAndCategory(line, from: line.skipping(32, from: colon + 1))
    }

    /// `log show`'s and `log stream`'s first line, `Filtering the log data using "..."`, which may quote a predicate
    /// naming WebKit but tells of no event. (The rest of the preamble, the column header and the footer name
    /// nothing the analyzer looks for, so they are skipped as any such line is.)
    package static func isFurniture(_ line: Span<UInt8>, at i: Int) -> Bool {
        line.matches(Marker.filtering, at: i)
    }

    /// A line of JSON punctuation that opens an object (`{`, `[{`, `},{`, `}, {`): the first line of an object of a
    /// pretty-printed array.
    package static func opensObject(_ line: Span<UInt8>, at i: Int) -> Bool {
        var opens = false
        for k in i..<line.count {
            switch line[k] {
            case 123: opens = true
            case 91, 93, 125, 44, 32, 9: continue
            default: return false
            }
        }
        return opens
    }

    /// The start of a message with no envelope: WebKit's `0x<this> - `, RunningBoard's error, or a relay's prefix.
    package static func startsMessage(_ line: Span<UInt8>, at i: Int) -> Bool {
        if line.byte(i) == 48, line.byte(i + 1) == 120, line.isHexDigit(i + 2) { return true }
        return Marker.messageStarts.contains { line.matches($0, at: i) }
    }

    /// `0x2f1a3` at `i`: its value and the index after it.
    private static func hexNumber(_ line: Span<UInt8>, at i: Int) -> (UInt64, Int)? {
        guard line.byte(i) == 48, line.byte(i + 1) == 120 else { return nil }
        return line.hexNumber(at: i + 2).map { ($0.value, $0.end) }
    }
}

extension Marker {
    package static let eventMessage = bytes(#""eventMessage""#)
    package static let logType = bytes(#""log_type""#)
    package static let localhost = bytes("localhost ")
    package static let filtering = bytes("Filtering the log data")
    package static let messageStarts = ["[WebKit] ", "[BrowserEngineKit] ", "Error acquiring assertion", "LOG  "].map { Array($0.utf8) }
}
