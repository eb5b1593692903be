import Glibc

/// A message made from its format string and its arguments, as `os_log` does: printf's conversions, with `os_log`'s
/// `%{…}` annotations before them (`public`, `private`, `bool`, `BOOL`, `uuid_t`; others print the plain value), and
/// `%@` as a string. A value the log hid prints `<private>`, one it lacks `<decode: missing data>`.
/// A format string read once into its literal runs and its conversions, then made into messages as `os_log` makes
/// them: printf's conversions, with `os_log`'s `%{…}` annotations before them (`public`, `private`, `bool`, `BOOL`,
/// `uuid_t`; others print the plain value), and `%@` as a string. A value the log hid prints `<private>`, one it
/// lacks `<decode: missing data>`.
struct MessageFormat {
    enum Piece {
        case literal([UInt8])
        case conversion(Specifier)
    }

    let pieces: [Piece]

    init(_ format: String) {
        let format = Array(format.utf8)
        var pieces: [Piece] = []
        var literal: [UInt8] = []
        var i = 0
        while i < format.count {
            let byte = format[i]
            guard byte == UInt8(ascii: "%"), i + 1 < format.count, var spec = Specifier(format, at: i + 1) else {
                literal.append(byte)
                i += 1
                continue
            }
            i = spec.end
            if spec.conversion == UInt8(ascii: "%") {
                literal.append(byte)
                continue
            }
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = []
            spec.settle()
            pieces.append(.conversion(spec))
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        self.pieces = pieces
    }

    /// The message `arguments` make of the format.
    static func format(_ format: String, _ arguments: [Argument]) -> String { MessageFormat(format).format(arguments) }

    func format(_ arguments: [Argument]) -> String {
        var out: [UInt8] = []
        var next = 0
        func take() -> Argument? {
            guard next < arguments.count else { return nil }
            defer { next += 1 }
            return arguments[next]
        }
        for piece in pieces {
            guard case .conversion(var spec) = piece else {
                if case .literal(let bytes) = piece { out += bytes }
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
                out += "<decode: missing data>".utf8
                continue
            }
            Self.render(argument, spec, width: width, precision: precision, into: &out)
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

        /// What the annotations ask, read once: `bool`, `BOOL`, `uuid_t`; and whether nothing but the conversion is
        /// given (no flag, width or precision), which integers are written for without printf.
        private(set) var isBool = false, isObjCBool = false, isUUID = false, isPlain = false
        var isLeft: Bool { flags.contains(UInt8(ascii: "-")) }

        mutating func settle() {
            (isBool, isObjCBool, isUUID) = (annotated("bool"), annotated("BOOL"), annotated("uuid_t"))
            isPlain = flags.isEmpty && width == nil && precision == nil && !starWidth && !starPrecision
        }
    }

    private static func render(_ argument: Argument, _ spec: Specifier, width: Int?, precision: Int?, into out: inout [UInt8]) {
        switch argument {
        case .hidden: out += "<private>".utf8
        case .unknown(let type): out += "<decode: item type \(type)>".utf8
        case .precision(let value): out += String(value).utf8
        case .data(let bytes):
            if spec.isUUID, bytes.count == 16 { return out += LogUUID(bytes[...]).description.utf8 }
            for byte in bytes { out += [hex[Int(byte >> 4)], hex[Int(byte & 15)]] }
        case .string(let text):
            let utf8 = (text ?? "(null)").utf8
            if width == nil, precision == nil || spec.conversion == UInt8(ascii: "@") { return out += utf8 }
            var bytes = Array(utf8)
            if let precision, spec.conversion != UInt8(ascii: "@"), precision < bytes.count { bytes = Array(bytes.prefix(precision)) }
            out += padded(bytes, width: width, left: spec.isLeft)
        case .scalar(let value, let size):
            number(value, size: size, spec, width: width, precision: precision, into: &out)
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// `value` in decimal or hexadecimal, as printf writes it with no flag, width or precision.
    private static func digits(_ value: UInt64, radix: UInt64, uppercase: Bool = false, into out: inout [UInt8]) {
        var count = 1, rest = value
        while rest >= radix {
            rest /= radix
            count += 1
        }
        rest = value
        out.append(contentsOf: repeatElement(48, count: count))
        var at = out.count - 1
        repeat {
            let digit = hex[Int(rest % radix)]
            out[at] = uppercase && digit > 57 ? digit - 32 : digit
            rest /= radix
            at -= 1
        } while rest > 0
    }

    private static func number(_ raw: UInt64, size: Int, _ spec: Specifier, width: Int?, precision: Int?, into out: inout [UInt8]) {
        let bits = size >= 8 || size <= 0 ? 64 : size * 8
        let signed = Int64(bitPattern: raw << (64 - bits)) >> (64 - bits)
        let unsigned = bits == 64 ? raw : raw & ((1 << bits) - 1)
        if spec.isBool { return out += (unsigned != 0 ? "true" : "false").utf8 }
        if spec.isObjCBool { return out += (unsigned != 0 ? "YES" : "NO").utf8 }
        if spec.isPlain, width == nil, precision == nil {
            switch spec.conversion {
            case UInt8(ascii: "d"), UInt8(ascii: "i"):
                if signed < 0 { out.append(45) }
                return digits(signed.magnitude, radix: 10, into: &out)
            case UInt8(ascii: "u"): return digits(unsigned, radix: 10, into: &out)
            case UInt8(ascii: "x"), UInt8(ascii: "X"):
                return digits(unsigned, radix: 16, uppercase: spec.conversion == UInt8(ascii: "X"), into: &out)
            case UInt8(ascii: "p"):
                out += "0x".utf8
                return digits(unsigned, radix: 16, into: &out)
            default: break
            }
        }
        var c = "%" + String(decoding: spec.flags.filter { $0 != UInt8(ascii: "'") }, as: UTF8.self)
        if let width { c += String(width) }
        if let precision { c += "." + String(precision) }
        let conversion = Character(Unicode.Scalar(spec.conversion))
        switch conversion {
        case "d", "i": out += printf(c + "lld", Int64(signed))
        case "o", "u", "x", "X": out += printf(c + "ll" + String(conversion), unsigned)
        case "c", "C": out += printf(c + "c", Int32(truncatingIfNeeded: unsigned))
        case "p": out += printf(c + "#llx", unsigned)
        case "f", "F", "e", "E", "g", "G", "a", "A":
            let double = bits == 32 ? Double(Float(bitPattern: UInt32(unsigned))) : Double(bitPattern: raw)
            out += printf(c + String(conversion), double)
        default: out += printf(c + "lld", Int64(signed))  // %s or %@ given a number: its value
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
}
