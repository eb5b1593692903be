import Events

/// One record of `log show --style json` or `--style ndjson`, or of the open-source unified-log parser's JSON
/// Lines, read without a JSON library: the envelope's fields, keys in any order, nested values skipped, a record
/// cut short read as far as it goes. There is no process-name field: the process is the last component of its
/// image path.
package enum JSONLogRecord {
    package static func read(_ record: Span<UInt8>, into envelope: inout Envelope, day: inout Int?, assuming zone: ZoneAssumption) {
        guard var i = record.index(of: 123, from: 0) else { return }
        i += 1
        var nanoseconds: Range<Int>?
        while true {
            i = JSONText.skippingSpace(record, from: i)
            guard record.byte(i) == 34, let keyEnd = JSONText.stringEnd(record, at: i) else { return }
            let key = i + 1..<keyEnd - 1
            i = JSONText.skippingSpace(record, from: keyEnd)
            guard record.byte(i) == 58 else { return }
            i = JSONText.skippingSpace(record, from: i + 1)
            guard let end = JSONText.valueEnd(record, at: i) else { return }
            let isString = record.byte(i) == 34
            let body = isString ? i + 1..<end - 1 : i..<end
            switch Field(record, key) {
            case .time? where isString:
                _ = Envelope.readDatedTime(record, at: body.lowerBound, into: &envelope, day: &day, assuming: zone)
            case .time? where envelope.time == nil:
                nanoseconds = body
            case .pid?:
                envelope.hostPID = record.number(at: i).map { Int32(truncatingIfNeeded: $0.value) }
            case .thread?:
                envelope.thread = record.number(at: i).map { UInt64($0.value) }
            case .process? where isString:
                let slash = (body.lowerBound..<body.upperBound).last { record[$0] == 47 }
                envelope.process = (slash.map { $0 + 1 } ?? body.lowerBound)..<body.upperBound
            case .message? where isString:
                envelope.jsonMessage = body
            default:
                break
            }
            i = JSONText.skippingSpace(record, from: end)
            guard record.byte(i) == 44 else { break }
            i += 1
        }
        if envelope.time == nil, let nanoseconds, let value = Double(record.string(nanoseconds)), value.isFinite,
            abs(value) < 1e19, case let micros = Int((value / 1000).rounded()), LogTime.readableMicros.contains(micros)
        {
            envelope.time = micros
            envelope.zone = .written(0)
        }
    }

    /// The keys read, under `log show`'s names and the unified-log parser's.
    private enum Field {
        case time, pid, thread, process, message

        package init?(_ record: Span<UInt8>, _ key: Range<Int>) {
            for (field, names) in Self.names where names.contains(where: { $0.count == key.count && record.matches($0, at: key.lowerBound) }) {
                self = field
                return
            }
            return nil
        }

        /// `timestamp` is a dated string with its zone (UTC in the parser's output); the parser's `time` is
        /// nanoseconds since 1970 and read only when no `timestamp` is.
        package static let names: [(Field, [[UInt8]])] = [
            (.time, [bytes("timestamp"), bytes("time")]), (.pid, [bytes("processID"), bytes("pid")]),
            (.thread, [bytes("threadID"), bytes("thread_id")]), (.process, [bytes("processImagePath"), bytes("process")]),
            (.message, [bytes("eventMessage"), bytes("message")]),
        ]
    }
}

/// The bytes of JSON text: strings, values skipped whole, escapes resolved.
package enum JSONText {
    package static func skippingSpace(_ text: Span<UInt8>, from i: Int) -> Int {
        var j = i
        while j < text.count, text[j] == 32 || text[j] == 10 || text[j] == 9 || text[j] == 13 { j += 1 }
        return j
    }

    /// The index after the string that opens at `i`, or nil when it does not close.
    package static func stringEnd(_ text: Span<UInt8>, at i: Int) -> Int? {
        var j = i + 1
        while j < text.count {
            if text[j] == 92 {
                j += 2
            } else if text[j] == 34 {
                return j + 1
            } else {
                j += 1
            }
        }
        return nil
    }

    /// The index after the value at `i`: a string, a number or word, or an object or array skipped whole.
    package static func valueEnd(_ text: Span<UInt8>, at i: Int) -> Int? {
        switch text.byte(i) {
        case 34:
            return stringEnd(text, at: i)
        case 123, 91:
            var depth = 0
            var j = i
            while j < text.count {
                switch text[j] {
                case 34:
                    guard let end = stringEnd(text, at: j) else { return nil }
                    j = end
                    continue
                case 123, 91:
                    depth += 1
                case 125, 93:
                    depth -= 1
                    if depth == 0 { return j + 1 }
                default:
                    break
                }
                j += 1
            }
            return nil
        default:
            var j = i
            while j < text.count, ![44, 125, 93, 32, 10, 9, 13].contains(text[j]) { j += 1 }
            return j > i ? j : nil
        }
    }

    /// A string's body with `\/`, `\"`, `\\`, `\n`, `\t`, `\uXXXX` (surrogate pairs joined) and the rest resolved
    /// into UTF-8; an escape that makes no sense is kept as written.
    package static func unescape(_ body: Span<UInt8>, into out: inout [UInt8]) {
        out.reserveCapacity(body.count)
        var i = 0
        while i < body.count {
            let byte = body[i]
            guard byte == 92, i + 1 < body.count else {
                out.append(byte)
                i += 1
                continue
            }
            let escaped = body[i + 1]
            i += 2
            switch escaped {
            case 110: out.append(10)
            case 116: out.append(9)
            case 114: out.append(13)
            case 98: out.append(8)
            case 102: out.append(12)
            case 117:
                guard var scalar = hex4(body, at: i) else {
                    out += [92, 117]
                    continue
                }
                i += 4
                if (0xD800..<0xDC00).contains(scalar), body.byte(i) == 92, body.byte(i + 1) == 117,
                    let low = hex4(body, at: i + 2), (0xDC00..<0xE000).contains(low)
                {
                    scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
                    i += 6
                }
                out += Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
            default: out.append(escaped)
            }
        }
    }

    private static func hex4(_ text: Span<UInt8>, at i: Int) -> UInt32? {
        var value: UInt32 = 0
        for j in i..<i + 4 {
            guard text.isHexDigit(j) else { return nil }
            let byte = text[j] | 0x20
            value = value << 4 | UInt32(byte <= 57 ? byte - 48 : byte - 87)
        }
        return value
    }
}
