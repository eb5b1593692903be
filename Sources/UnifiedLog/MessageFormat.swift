import Glibc

/// A message made from its format string and its arguments, as `os_log` does: printf's conversions, with `os_log`'s
/// `%{…}` annotations before them (`public`, `private`, `bool`, `BOOL`, `uuid_t`; others print the plain value), and
/// `%@` as a string. A value the log hid prints `<private>`, one it lacks `<decode: missing data>`.
enum MessageFormat {
    static func format(_ format: String, _ arguments: [Argument]) -> String {
        let format = Array(format.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(format.count + 32)
        var next = 0
        func take() -> Argument? {
            guard next < arguments.count else { return nil }
            defer { next += 1 }
            return arguments[next]
        }
        var i = 0
        while i < format.count {
            let byte = format[i]
            guard byte == UInt8(ascii: "%"), i + 1 < format.count else {
                out.append(byte)
                i += 1
                continue
            }
            guard var spec = Specifier(format, at: i + 1) else {
                out.append(byte)
                i += 1
                continue
            }
            i = spec.end
            if spec.conversion == UInt8(ascii: "%") {
                out.append(spec.conversion)
                continue
            }
            var width = spec.width, precision = spec.precision
            if spec.starWidth, case .scalar(let value, _)? = take() { width = Int(Int32(truncatingIfNeeded: value)) }
            if case .precision(let value)? = next < arguments.count ? arguments[next] : nil {
                precision = value
                next += 1
            } else if spec.starPrecision, case .scalar(let value, _)? = take() {
                precision = Int(Int32(truncatingIfNeeded: value))
            }
            // As printf: a negative precision is none, a negative width left-justifies; both are kept to a page.
            if let value = precision { precision = value < 0 ? nil : min(value, 4096) }
            if let value = width, value < 0 { spec.flags.append(UInt8(ascii: "-")) }
            width = width.map { min(abs($0), 4096) }
            guard let argument = take() else {
                out += Array("<decode: missing data>".utf8)
                continue
            }
            out += render(argument, spec, width: width, precision: precision)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// One `%…` conversion, read from just after its `%`.
    struct Specifier {
        var annotation: [UInt8] = []
        var flags: [UInt8] = []
        var width: Int?
        var starWidth = false
        var precision: Int?
        var starPrecision = false
        var conversion: UInt8 = 0
        var end = 0

        init?(_ format: [UInt8], at start: Int) {
            var i = start
            func digits() -> Int? {
                var value: Int?
                while i < format.count, format[i] &- 48 < 10, (value ?? 0) < 100_000 {
                    value = (value ?? 0) * 10 + Int(format[i] - 48)
                    i += 1
                }
                return value
            }
            if i < format.count, format[i] == UInt8(ascii: "{") {
                guard let close = format[i...].firstIndex(of: UInt8(ascii: "}")) else { return nil }
                annotation = Array(format[(i + 1)..<close])
                i = close + 1
            }
            while i < format.count, Array("-+ #0'".utf8).contains(format[i]) {
                flags.append(format[i])
                i += 1
            }
            if i < format.count, format[i] == UInt8(ascii: "*") {
                starWidth = true
                i += 1
            } else {
                width = digits()
            }
            if i < format.count, format[i] == UInt8(ascii: ".") {
                i += 1
                if i < format.count, format[i] == UInt8(ascii: "*") {
                    starPrecision = true
                    i += 1
                } else {
                    precision = digits() ?? 0
                }
            }
            while i < format.count, Array("hlqjztL".utf8).contains(format[i]) { i += 1 }
            guard i < format.count else { return nil }
            conversion = format[i]
            end = i + 1
            guard Array("%diouxXcCsS@pPfFeEgGaA".utf8).contains(conversion) else { return nil }
        }

        func annotated(_ word: String) -> Bool {
            annotation.split(separator: UInt8(ascii: ",")).contains { String(decoding: $0.filter { $0 != 32 }, as: UTF8.self) == word }
        }
    }

    private static func render(_ argument: Argument, _ spec: Specifier, width: Int?, precision: Int?) -> [UInt8] {
        switch argument {
        case .hidden: return Array("<private>".utf8)
        case .unknown(let type): return Array("<decode: item type \(type)>".utf8)
        case .precision(let value): return Array(String(value).utf8)
        case .data(let bytes):
            if spec.annotated("uuid_t"), bytes.count == 16 { return Array(LogUUID(bytes[...]).description.utf8) }
            return bytes.flatMap { Array(hex2($0).utf8) }
        case .string(let text):
            var bytes = Array((text ?? "(null)").utf8)
            if let precision, spec.conversion != UInt8(ascii: "@"), precision < bytes.count { bytes = Array(bytes.prefix(precision)) }
            return padded(bytes, width: width, left: spec.flags.contains(UInt8(ascii: "-")))
        case .scalar(let value, let size):
            return number(value, size: size, spec, width: width, precision: precision)
        }
    }

    private static func number(_ raw: UInt64, size: Int, _ spec: Specifier, width: Int?, precision: Int?) -> [UInt8] {
        let bits = size >= 8 || size <= 0 ? 64 : size * 8
        let signed = Int64(bitPattern: raw << (64 - bits)) >> (64 - bits)
        let unsigned = bits == 64 ? raw : raw & ((1 << bits) - 1)
        if spec.annotated("bool") { return Array((unsigned != 0 ? "true" : "false").utf8) }
        if spec.annotated("BOOL") { return Array((unsigned != 0 ? "YES" : "NO").utf8) }
        var c = "%" + String(decoding: spec.flags.filter { $0 != UInt8(ascii: "'") }, as: UTF8.self)
        if let width { c += String(width) }
        if let precision { c += "." + String(precision) }
        let conversion = Character(Unicode.Scalar(spec.conversion))
        switch conversion {
        case "d", "i": return printf(c + "lld", Int64(signed))
        case "o", "u", "x", "X": return printf(c + "ll" + String(conversion), unsigned)
        case "c", "C": return printf(c + "c", Int32(truncatingIfNeeded: unsigned))
        case "p": return printf(c + "#llx", unsigned)
        case "f", "F", "e", "E", "g", "G", "a", "A":
            let double = bits == 32 ? Double(Float(bitPattern: UInt32(unsigned))) : Double(bitPattern: raw)
            return printf(c + String(conversion), double)
        default: return printf(c + "lld", Int64(signed))  // %s or %@ given a number: its value
        }
    }

    private static func printf(_ format: String, _ value: any CVarArg) -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: 512)
        let count = withVaList([value]) { vsnprintf(&buffer, buffer.count, format, $0) }
        return buffer.prefix(max(0, min(Int(count), buffer.count - 1))).map { UInt8(bitPattern: $0) }
    }

    private static func padded(_ bytes: [UInt8], width: Int?, left: Bool) -> [UInt8] {
        guard let width, width > bytes.count else { return bytes }
        let pad = [UInt8](repeating: 32, count: min(width, 4096) - bytes.count)
        return left ? bytes + pad : pad + bytes
    }

    private static func hex2(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return byte < 16 ? "0" + digits : digits
    }
}
