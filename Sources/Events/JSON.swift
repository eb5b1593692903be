/// A JSON value, written by hand: the event log is on the hot path and must not go through reflection.
public enum JSON: Sendable, Equatable {
    case int(Int)
    case double(Double)
    case string(String)
    case bool(Bool)
    case array([JSON])
    case object([(String, JSON)])
    case null

    public static func == (lhs: JSON, rhs: JSON) -> Bool { lhs.text == rhs.text }

    /// The value if it is a whole number.
    public var integer: Int? {
        if case .int(let value) = self { value } else { nil }
    }

    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    public func write(to out: inout String) {
        switch self {
        case .int(let value): out += String(value)
        case .double(let value): out += value.isFinite ? String(value) : "null"
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        case .string(let value): JSON.quote(value, into: &out)
        case .array(let values):
            out += "["
            for (i, value) in values.enumerated() {
                if i > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                JSON.quote(key, into: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    package static func quote(_ string: String, into out: inout String) {
        out += "\""
        // Most strings (URLs, reasons) are printable ASCII with nothing to escape: copied whole.
        if string.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out += string
            out += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // JSON requires only C0 escaped; DEL, C1 and the marks that reorder text around them (what `visible`
            // shows) are too, so that text printed raw acts on no terminal and reads in its order.
            case let c where c.value < 0x20 || (0x7F...0x9F).contains(c.value) || Self.reorders(c.value):
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// The bidirectional marks, embeddings, overrides and isolates.
    private static func reorders(_ value: UInt32) -> Bool {
        value >= 0x061C && (value == 0x061C || value == 0x200E || value == 0x200F || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value))
    }
}

/// Milliseconds from nanoseconds, rounded to the microsecond: how every duration is written.
package func milliseconds(_ nanoseconds: Int) -> Double {
    Double(nanoseconds / 1000) / 1000
}
