extension JSON {
    /// The value `bytes` hold, all of them, or nil if they are not one JSON value. Nesting deeper than 64 is refused
    /// rather than followed, so no input can exhaust the stack. Numbers without a fraction or exponent are `int`.
    public static func parse(_ bytes: [UInt8]) -> JSON? {
        var parser = Parser(bytes: bytes)
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipBlanks()
        return parser.at == bytes.count ? value : nil
    }
}

private struct Parser {
    let bytes: [UInt8]
    var at = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func skipBlanks() {
        while at < bytes.count, [32, 9, 10, 13].contains(bytes[at]) { at += 1 }
    }

    private mutating func take(_ literal: String, _ value: JSON) -> JSON? {
        let expected = Array(literal.utf8)
        guard bytes.count - at >= expected.count, Array(bytes[at..<at + expected.count]) == expected else { return nil }
        at += expected.count
        return value
    }

    mutating func value(depth: Int) -> JSON? {
        skipBlanks()
        guard at < bytes.count, depth < 64 else { return nil }
        switch bytes[at] {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map(JSON.string)
        case UInt8(ascii: "t"): return take("true", .bool(true))
        case UInt8(ascii: "f"): return take("false", .bool(false))
        case UInt8(ascii: "n"): return take("null", .null)
        default: return number()
        }
    }

    private mutating func object(depth: Int) -> JSON? {
        at += 1
        var members: [(String, JSON)] = []
        skipBlanks()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
            at += 1
            return .object(members)
        }
        while true {
            skipBlanks()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipBlanks()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return nil }
            at += 1
            guard let value = value(depth: depth + 1) else { return nil }
            members.append((key, value))
            skipBlanks()
            guard at < bytes.count else { return nil }
            at += 1
            if bytes[at - 1] == UInt8(ascii: "}") { return .object(members) }
            guard bytes[at - 1] == UInt8(ascii: ",") else { return nil }
        }
    }

    private mutating func array(depth: Int) -> JSON? {
        at += 1
        var values: [JSON] = []
        skipBlanks()
        if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
            at += 1
            return .array(values)
        }
        while true {
            guard let value = value(depth: depth + 1) else { return nil }
            values.append(value)
            skipBlanks()
            guard at < bytes.count else { return nil }
            at += 1
            if bytes[at - 1] == UInt8(ascii: "]") { return .array(values) }
            guard bytes[at - 1] == UInt8(ascii: ",") else { return nil }
        }
    }

    private mutating func string() -> String? {
        at += 1
        var scalars = String.UnicodeScalarView()
        var run = at
        func flush(_ end: Int) -> Bool {
            guard let text = String(validating: bytes[run..<end], as: UTF8.self) else { return false }
            scalars.append(contentsOf: text.unicodeScalars)
            return true
        }
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                guard flush(at) else { return nil }
                at += 1
                return String(scalars)
            }
            guard byte >= 0x20 else { return nil }
            guard byte == UInt8(ascii: "\\") else {
                at += 1
                continue
            }
            guard flush(at), at + 1 < bytes.count else { return nil }
            at += 2
            switch bytes[at - 1] {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{c}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                guard var code = hex4() else { return nil }
                if (0xD800..<0xDC00).contains(code) {
                    guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else { return nil }
                    at += 2
                    guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { return nil }
                scalars.append(scalar)
            default: return nil
            }
            run = at
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - at >= 4 else { return nil }
        var value: UInt32 = 0
        for byte in bytes[at..<at + 4] {
            guard let digit = Int(String(UnicodeScalar(byte)), radix: 16) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        at += 4
        return value
    }

    private mutating func number() -> JSON? {
        let start = at
        var whole = true
        while at < bytes.count, let byte = Optional(bytes[at]),
            (48...57).contains(byte) || [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(byte)
        {
            if !(48...57).contains(byte) && byte != UInt8(ascii: "-") { whole = false }
            at += 1
        }
        guard at > start, let text = String(validating: bytes[start..<at], as: UTF8.self) else { return nil }
        if whole, let value = Int(text) { return .int(value) }
        return Double(text).map(JSON.double)
    }
}
