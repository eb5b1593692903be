import Events

/// One line of our own JSON Lines logs (`supervisor run --log` and Jetsam's kill log), read without a JSON library:
/// the few fields the analyzer needs, from a flat object. Anything malformed yields nil, never a trap.
package struct EventRecord {
    package var event = ""
    package var pid: Int?
    package var view: Int?
    package var load: Int?
    /// A recovery's kind (`rebuild`, `reload`), among others.
    package var kind = ""
    /// Microseconds since 1970, UTC: `"time"` is an ISO string in the event log and epoch seconds in Jetsam's.
    package var time: Int?
    package var status = ""
    package var band = ""
    package var result = ""
    package var signal: Int?
    package var rendered = false
    package var reused = false

    package init?(_ line: Span<UInt8>) {
        var i = line.skippingBlanks(from: 0)
        guard line.byte(i) == 123 else { return nil }
        i += 1
        while true {
            i = line.skippingBlanks(from: i)
            if line.byte(i) == 125 { break }
            guard let (key, afterKey) = Self.string(line, at: i) else { return nil }
            i = line.skippingBlanks(from: afterKey)
            guard line.byte(i) == 58 else { return nil }
            i = line.skippingBlanks(from: i + 1)
            guard let end = Self.valueEnd(line, at: i) else { return nil }
            read(key, line.extracting(i..<end))
            i = line.skippingBlanks(from: end)
            if line.byte(i) == 44 { i += 1 } else if line.byte(i) == 125 { break } else { return nil }
        }
        if event.isEmpty { return nil }
    }

    /// What the event says, in the terms the analyzer uses for every log.
    package var observations: [Observation] {
        func make(_ kind: Observation.Kind) -> Observation {
            var observation = Observation(kind, pid: pid, process: .webContent)
            observation.view = view
            return observation
        }
        switch event {
        case "spawn": return [make(reused ? .reused : .launch)]
        case "hello": return [make(.alive)]
        case "commit": return [make(.pageBound)]
        case "render": return [make(.render)]
        case "termination": return [make(.callback)]
        case "unobserved": return [make(.unobserved)]
        case "kill", "shutdown": return [make(.teardown)]
        case "inject", "jetsam-kill": return [make(.killed)]
        case "spare" where reused: return [make(.cached)]
        case "interrupt": return [Observation(.hostQuit, pid: nil)]
        case "priority" where result == "ok" || result == "ESRCH":
            var observation = make(result == "ok" ? .assertionTaken : .assertionFailed)
            observation.assertion = AssertionName(role: band == "foreground" ? .foreground : .background, process: .webContent)
            if result == "ESRCH" { observation.error = AssertionError(domain: .assertion, code: 2, reason: .doesNotExist) }
            return [observation]
        case "death":
            var observation = make(status == "launch-failed" && pid == nil ? .launchFailed : .death)
            observation.number = signal
            observation.death = (status, rendered, view != nil, band)
            return [observation]
        default: return []
        }
    }

    private mutating func read(_ key: String, _ value: Span<UInt8>) {
        let text = Self.string(value, at: 0)?.text
        switch key {
        case "event": event = text ?? ""
        case "pid": pid = value.number(at: 0)?.value
        case "view": view = value.number(at: 0)?.value
        case "load": load = value.number(at: 0)?.value
        case "kind": kind = text ?? ""
        case "status": status = text ?? ""
        case "band": band = text ?? ""
        case "result": result = text ?? ""
        case "signal": signal = value.number(at: 0)?.value
        case "rendered": rendered = value.matches(Self.trueWord, at: 0)
        case "reused": reused = value.matches(Self.trueWord, at: 0)
        case "time":
            if text != nil, let (days, end) = LogTime.date(value, at: 1), let clock = LogTime.timeOfDay(value, at: end + 1) {
                time = days * LogTime.microsecondsPerDay + clock.micros
            } else if let (seconds, end) = value.number(at: 0) {
                // Seconds outside what the analyzer shows (1970 to 2261) are no time: the record is read without one.
                let (micros, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
                let fraction = value.byte(end) == 46 ? Self.fraction(value, from: end + 1) : 0
                if !overflow, LogTime.readableMicros.contains(micros), LogTime.readableMicros.contains(micros + fraction) {
                    time = micros + fraction
                }
            }
        default: break
        }
    }

    /// A JSON string at `i`: its text (escapes other than `\"` and `\\` kept as written) and the index after it.
    private static func string(_ line: Span<UInt8>, at i: Int) -> (text: String, end: Int)? {
        guard line.byte(i) == 34 else { return nil }
        var bytes: [UInt8] = []
        var j = i + 1
        while j < line.count {
            let byte = line[j]
            if byte == 34 { return (String(decoding: bytes, as: UTF8.self), j + 1) }
            if byte == 92, j + 1 < line.count, line[j + 1] == 34 || line[j + 1] == 92 { j += 1 }
            if bytes.count < 4096 { bytes.append(line[j]) }
            j += 1
        }
        return nil
    }

    /// Where the value at `i` ends: a string, a number or word, or a nested object or array skipped whole.
    private static func valueEnd(_ line: Span<UInt8>, at i: Int) -> Int? {
        switch line.byte(i) {
        case 34:
            return string(line, at: i)?.end
        case 123, 91:
            var depth = 0
            var j = i
            var inString = false
            while j < line.count {
                let byte = line[j]
                if inString {
                    if byte == 92 { j += 1 } else if byte == 34 { inString = false }
                } else if byte == 34 {
                    inString = true
                } else if byte == 123 || byte == 91 {
                    depth += 1
                } else if byte == 125 || byte == 93 {
                    depth -= 1
                    if depth == 0 { return j + 1 }
                }
                j += 1
            }
            return nil
        default:
            var j = i
            while j < line.count, line[j] != 44, line[j] != 125, line[j] != 32 { j += 1 }
            return j > i ? j : nil
        }
    }

    private static func fraction(_ value: Span<UInt8>, from start: Int) -> Int {
        var micros = 0
        var scale = 100_000
        var j = start
        while value.isDigit(j), scale > 0 {
            micros += Int(value[j] - 48) * scale
            scale /= 10
            j += 1
        }
        return micros
    }

    private static let trueWord = bytes("true")
}
