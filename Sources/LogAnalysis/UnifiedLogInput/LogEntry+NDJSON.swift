import Glibc
import UnifiedLog

extension LogEntry {
    /// Appends the entry as `log show --style ndjson` prints it, with Apple's field names and a newline; a sender the
    /// archive cannot name is null. Written byte by byte (a full `log show` writes millions), escaped as `JSON`
    /// escapes: C0, DEL, C1 and the bidirectional marks.
    public func appendNDJSON(to out: inout [UInt8], clock: inout NDJSONClock) {
        out += #"{"timestamp":""#.utf8
        clock.append(wallNanoseconds, to: &out)
        out += #"","machTimestamp":"#.utf8
        Self.number(Int(clamping: continuousTime), &out)
        out += #","processID":"#.utf8
        Self.number(Int(pid), &out)
        out += #","threadID":"#.utf8
        Self.number(Int(clamping: thread), &out)
        out += #","eventType":""#.utf8
        out += eventType.rawValue.utf8
        out += #"","messageType":"#.utf8
        if let messageType { Self.string(messageType.rawValue, &out) } else { out += "null".utf8 }
        out += #","subsystem":"#.utf8
        Self.string(subsystem, &out)
        out += #","category":"#.utf8
        Self.string(category, &out)
        out += #","activityIdentifier":"#.utf8
        Self.number(Int(clamping: activityID), &out)
        out += #","processImagePath":"#.utf8
        Self.string(processImagePath, &out)
        out += #","senderImagePath":"#.utf8
        Self.string(senderImagePath, &out)
        out += #","senderImageUUID":"#.utf8
        if let senderImageUUID { Self.string(senderImageUUID.description, &out) } else { out += "null".utf8 }
        out += #","formatString":"#.utf8
        Self.string(formatString, &out)
        out += #","eventMessage":"#.utf8
        Self.string(message, &out)
        out += "}\n".utf8
    }

    private static func number(_ value: Int, _ out: inout [UInt8]) {
        if value < 0 { out.append(45) }
        var count = 1, rest = value.magnitude
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        rest = value.magnitude
        out.append(contentsOf: repeatElement(48, count: count))
        var at = out.count - 1
        repeat {
            out[at] = UInt8(rest % 10) + 48
            rest /= 10
            at -= 1
        } while rest > 0
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// `text` quoted: runs of bytes that need nothing copied whole, the rest escaped as `JSON.quote` does.
    private static func string(_ text: String, _ out: inout [UInt8]) {
        out.append(34)
        // Most text needs no escape: looked over without a copy, then copied whole.
        let span = text.utf8.span
        var clean = true
        for i in span.indices {
            let byte = span[i]
            if byte >= 0x80 ? byte == 0xC2 || byte == 0xD8 || byte == 0xE2 : byte < 0x20 || byte == 0x7F || byte == 34 || byte == 92 {
                clean = false
                break
            }
        }
        if clean {
            out += text.utf8
            return out.append(34)
        }
        let utf8 = Array(text.utf8)
        var run = 0, i = 0
        func escape(_ value: UInt32, through last: Int) {
            out += utf8[run..<i]
            out += "\\u".utf8
            for shift in [12, 8, 4, 0] { out.append(hex[Int(value >> UInt32(shift) & 0xF)]) }
            i = last + 1
            run = i
        }
        while i < utf8.count {
            let byte = utf8[i]
            let plain = byte >= 0x80 ? byte != 0xC2 && byte != 0xD8 && byte != 0xE2 : byte >= 0x20 && byte != 0x7F && byte != 34 && byte != 92
            if plain {
                i += 1
                continue
            }
            switch byte {
            case 34, 92, 10, 13, 9:
                out += utf8[run..<i]
                out += [92, byte == 34 ? 34 : byte == 92 ? 92 : byte == 10 ? 110 : byte == 13 ? 114 : 116]
                i += 1
                run = i
                continue
            case 0..<0x20, 0x7F:
                escape(UInt32(byte), through: i)
                continue
            default: break
            }
            // C1 (C2 80–9F), U+061C (D8 9C), U+200E/F and U+202A–E (E2 80 …), U+2066–9 (E2 81 A6–A9).
            guard i + 1 < utf8.count else { break }
            let second = utf8[i + 1]
            if byte == 0xC2, second < 0xA0 { escape(UInt32(second), through: i + 1); continue }
            if byte == 0xD8, second == 0x9C { escape(0x061C, through: i + 1); continue }
            if byte == 0xE2, second == 0x80 || second == 0x81, i + 2 < utf8.count {
                let value = 0x2000 | UInt32(second & 0x3F) << 6 | UInt32(utf8[i + 2] & 0x3F)
                if value == 0x200E || value == 0x200F || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) {
                    escape(value, through: i + 2)
                    continue
                }
            }
            i += 1
        }
        out += utf8[run...]
        out.append(34)
    }
}

/// `2022-05-30 00:38:21.053672+0000`: UTC, to the microsecond, as `log show` writes a time; the date and time of
/// the last second written kept, since entries come many to a second.
public struct NDJSONClock {
    private var second = Int.min
    private var prefix: [UInt8] = []

    public init() {}

    mutating func append(_ nanoseconds: Int, to out: inout [UInt8]) {
        let (seconds, fraction) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        let (wholeSeconds, micros) = fraction < 0 ? (seconds - 1, (fraction + 1_000_000_000) / 1000) : (seconds, fraction / 1000)
        if wholeSeconds != second {
            second = wholeSeconds
            var time = time_t(wholeSeconds)
            var parts = tm()
            gmtime_r(&time, &parts)
            prefix = []
            for (value, width, separator) in [
                (Int(parts.tm_year) + 1900, 4, 45), (Int(parts.tm_mon) + 1, 2, 45), (Int(parts.tm_mday), 2, 32),
                (Int(parts.tm_hour), 2, 58), (Int(parts.tm_min), 2, 58), (Int(parts.tm_sec), 2, 46),
            ] {
                Self.digits(value, width, &prefix)
                prefix.append(UInt8(separator))
            }
        }
        out += prefix
        Self.digits(micros, 6, &out)
        out += "+0000".utf8
    }

    private static func digits(_ value: Int, _ width: Int, _ out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = max(0, value)
        while divisor > 0 {
            out.append(UInt8(rest / divisor % 10) + 48)
            rest %= divisor
            divisor /= 10
        }
    }
}
