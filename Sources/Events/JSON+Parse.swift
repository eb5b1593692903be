extension JSON {
    /// The value `bytes` hold, all of them, or nil if they are not one JSON value. Nesting deeper than 64 is refused
    /// rather than followed, so no input can exhaust the stack. Numbers without a fraction or exponent are `int`.
    public static func parse(_ bytes: [UInt8]) -> JSON? {
        var cursor = JSONCursor(bytes)
        do throws(JSONCursor.Malformed) {
            let value = try cursor.value(depth: 0)
            try cursor.end()
            return value
        } catch {
            return nil
        }
    }
}

/// JSON read a value at a time, as strictly as `JSON.parse` reads it: for a reader that checks each value as it
/// comes, so that it holds only what it keeps and refuses a wrong key before reading its value. `JSON.parse`
/// builds the whole tree first, and a tree of small values takes many times the bytes that spell it.
package struct JSONCursor {
    /// Bytes that are not JSON, from `offset` on.
    package struct Malformed: Error {
        package let offset: Int
    }

    package let bytes: [UInt8]
    package private(set) var at = 0
    /// Just inside an object or array, before its first member or element: no comma is due.
    private var first = false

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next value's first byte, blanks skipped; nil at the end of the bytes.
    package mutating func peek() -> UInt8? {
        skipBlanks()
        return at < bytes.count ? bytes[at] : nil
    }

    /// Enters the object at the cursor; `nextKey` then reads its members.
    package mutating func beginObject() throws(Malformed) { try open(UInt8(ascii: "{")) }

    /// Enters the array at the cursor; `nextElement` then reads its elements.
    package mutating func beginArray() throws(Malformed) { try open(UInt8(ascii: "[")) }

    /// The next member's key, with the cursor on its value (which the caller reads); nil after the closing brace.
    package mutating func nextKey() throws(Malformed) -> String? {
        guard try another(closing: UInt8(ascii: "}")) else { return nil }
        guard peek() == UInt8(ascii: "\"") else { throw Malformed(offset: at) }
        let key = try string()
        guard peek() == UInt8(ascii: ":") else { throw Malformed(offset: at) }
        at += 1
        return key
    }

    /// Whether another element follows, with the cursor on it (the caller reads it); false after the closing bracket.
    package mutating func nextElement() throws(Malformed) -> Bool {
        try another(closing: UInt8(ascii: "]"))
    }

    /// The value at the cursor, whole; nested at most 64 deep counting from `depth`.
    package mutating func value(depth: Int) throws(Malformed) -> JSON {
        guard let byte = peek(), depth < 64 else { throw Malformed(offset: at) }
        switch byte {
        case UInt8(ascii: "{"):
            try beginObject()
            var members: [(String, JSON)] = []
            while let key = try nextKey() { members.append((key, try value(depth: depth + 1))) }
            return .object(members)
        case UInt8(ascii: "["):
            try beginArray()
            var values: [JSON] = []
            while try nextElement() { values.append(try value(depth: depth + 1)) }
            return .array(values)
        default:
            return try scalar()
        }
    }

    /// The string, number, `true`, `false` or `null` at the cursor; an object or array is malformed here, unread.
    package mutating func scalar() throws(Malformed) -> JSON {
        switch peek() {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try take("true", .bool(true))
        case UInt8(ascii: "f"): return try take("false", .bool(false))
        case UInt8(ascii: "n"): return try take("null", .null)
        case UInt8(ascii: "{"), UInt8(ascii: "["), nil: throw Malformed(offset: at)
        default: return try number()
        }
    }

    /// Nothing but blanks is left.
    package mutating func end() throws(Malformed) {
        guard peek() == nil else { throw Malformed(offset: at) }
    }

    // MARK: - Tokens

    private mutating func skipBlanks() {
        while at < bytes.count, [32, 9, 10, 13].contains(bytes[at]) { at += 1 }
    }

    private mutating func open(_ bracket: UInt8) throws(Malformed) {
        guard peek() == bracket else { throw Malformed(offset: at) }
        at += 1
        first = true
    }

    /// Past the comma before the next member or element, or past the closing bracket (false).
    private mutating func another(closing: UInt8) throws(Malformed) -> Bool {
        let opening = first
        first = false
        guard let byte = peek() else { throw Malformed(offset: at) }
        if byte == closing {
            at += 1
            return false
        }
        if opening { return true }
        guard byte == UInt8(ascii: ",") else { throw Malformed(offset: at) }
        at += 1
        return true
    }

    private mutating func take(_ literal: String, _ value: JSON) throws(Malformed) -> JSON {
        let expected = Array(literal.utf8)
        guard bytes.count - at >= expected.count, bytes[at..<at + expected.count].elementsEqual(expected) else {
            throw Malformed(offset: at)
        }
        at += expected.count
        return value
    }

    /// The string at the cursor (at its opening quote), its escapes decoded.
    package mutating func string() throws(Malformed) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw Malformed(offset: at) }
        let start = at
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
                guard flush(at) else { throw Malformed(offset: start) }
                at += 1
                return String(scalars)
            }
            guard byte >= 0x20 else { throw Malformed(offset: at) }
            guard byte == UInt8(ascii: "\\") else {
                at += 1
                continue
            }
            guard flush(at), at + 1 < bytes.count else { throw Malformed(offset: at) }
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
                guard var code = hex4() else { throw Malformed(offset: at) }
                if (0xD800..<0xDC00).contains(code) {
                    guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                        throw Malformed(offset: at)
                    }
                    at += 2
                    guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { throw Malformed(offset: at) }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw Malformed(offset: at) }
                scalars.append(scalar)
            default: throw Malformed(offset: at - 1)
            }
            run = at
        }
        throw Malformed(offset: at)
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

    private mutating func number() throws(Malformed) -> JSON {
        let start = at
        var whole = true
        while at < bytes.count, let byte = Optional(bytes[at]),
            (48...57).contains(byte) || [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(byte)
        {
            if !(48...57).contains(byte) && byte != UInt8(ascii: "-") { whole = false }
            at += 1
        }
        guard at > start, let text = String(validating: bytes[start..<at], as: UTF8.self) else { throw Malformed(offset: start) }
        if whole, let value = Int(text) { return .int(value) }
        guard let value = Double(text) else { throw Malformed(offset: start) }
        return .double(value)
    }
}
