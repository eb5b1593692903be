import Events

/// A lenient pull reader of JSON bytes, for the diagnostic reports Apple writes (`.ips`): the caller walks the
/// objects it cares about member by member and skips the rest, which is scanned over without being decoded, so a
/// crash report's thousands of frames cost a byte scan and no `String`.
///
/// Reports are often cut short or damaged, so nothing here traps: bytes that are not JSON, or the end of the input
/// before a value is complete, stop the reader, and every later call finds nothing; what was read until then stands.
/// Containers nest at most `depthLimit` deep before the reader skips them instead of entering, and no string it
/// builds is longer than `stringLimit` bytes.
package struct JSONReader {
    package static let depthLimit = 64
    package static let stringLimit = 4096

    package let bytes: [UInt8]
    /// The offset of the next byte to read: after `nextElement`, where the element begins.
    package private(set) var position: Int
    private let end: Int
    private var depth = 0
    /// The value of the member or element last found has not been read: it is skipped before the next one.
    private var pending = false
    package private(set) var stopped = false

    package init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.end = min(end ?? bytes.count, bytes.count)
        position = max(0, min(start, self.end))
    }

    // MARK: - Containers

    /// Enters the object at the cursor; false (and the value skipped) when it is something else or nested too deep.
    package mutating func beginObject() -> Bool { begin(123) }

    /// Enters the array at the cursor; false (and the value skipped) when it is something else or nested too deep.
    package mutating func beginArray() -> Bool { begin(91) }

    /// The next member's key, its raw bytes between the quotes, with the cursor on its value; nil after the closing
    /// brace, or when the reader stops. A value the caller did not read is skipped first.
    package mutating func nextMember() -> Range<Int>? {
        guard startNext(closing: 125) else { return nil }
        guard byte == 34, let key = stringRange() else { return stop() }
        skipSpace()
        guard byte == 58 else { return stop() }
        position += 1
        pending = true
        return key
    }

    /// Whether another element follows, with the cursor on it; false after the closing bracket, or when the reader
    /// stops. An element the caller did not read is skipped first.
    package mutating func nextElement() -> Bool {
        guard startNext(closing: 93) else { return false }
        pending = true
        return true
    }

    package func key(_ key: Range<Int>, is literal: [UInt8]) -> Bool {
        guard key.count == literal.count else { return false }
        for (i, byte) in literal.enumerated() where bytes[key.lowerBound + i] != byte { return false }
        return true
    }

    // MARK: - Values

    /// The string at the cursor, decoded (cut at `stringLimit` bytes); nil, and the value skipped, for anything else.
    package mutating func string() -> String? {
        pending = false
        skipSpace()
        guard byte == 34 else {
            skipValue()
            return nil
        }
        return stringRange().map(decoded)
    }

    /// The integer at the cursor, a fraction dropped; a string of digits counts too (`"bug_type":"309"`). Nil, and the
    /// value skipped, for anything else or a number of more than 18 digits.
    package mutating func integer() -> Int? {
        pending = false
        skipSpace()
        if byte == 34 {
            guard let range = stringRange() else { return nil }
            return Self.integer(bytes, in: range.lowerBound..<min(range.upperBound, range.lowerBound + 20))
        }
        let start = position
        skipValue()
        return stopped ? nil : Self.integer(bytes, in: start..<position)
    }

    /// The scalar at the cursor as written: a string decoded, a number or literal as its text (`11`, `true`); nil, and
    /// the value skipped, for an object or array.
    package mutating func scalar() -> String? {
        pending = false
        skipSpace()
        switch byte {
        case 34:
            return stringRange().map(decoded)
        case 123, 91, 0:
            skipValue()
            return nil
        default:
            let start = position
            skipValue()
            return stopped ? nil : decoded(start..<position)
        }
    }

    /// Skips the value at the cursor whatever it holds, by counting brackets outside strings: no recursion, so no
    /// depth is too deep to skip.
    package mutating func skipValue() {
        pending = false
        skipSpace()
        guard position < end else {
            _ = stop()
            return
        }
        switch bytes[position] {
        case 34:
            _ = stringRange()
        case 123, 91:
            var open = 0
            while position < end {
                switch bytes[position] {
                case 34:
                    guard stringRange() != nil else { return }
                    continue
                case 123, 91:
                    open += 1
                case 125, 93:
                    open -= 1
                    if open == 0 {
                        position += 1
                        return
                    }
                default:
                    break
                }
                position += 1
            }
            _ = stop()
        default:
            while position < end, !Self.endsScalar(bytes[position]) { position += 1 }
            // A number that runs into the end may have been cut: `41` of `4107`.
            if position == end { _ = stop() }
        }
    }

    // MARK: - Bytes

    private var byte: UInt8 { position < end ? bytes[position] : 0 }

    private mutating func begin(_ opening: UInt8) -> Bool {
        pending = false
        skipSpace()
        guard byte == opening, depth < Self.depthLimit else {
            skipValue()
            return false
        }
        position += 1
        depth += 1
        return true
    }

    /// Skips the unread value and the separators before the next member or element; false at the container's end
    /// (which it consumes) or when the reader stops. Missing or doubled commas are forgiven.
    private mutating func startNext(closing: UInt8) -> Bool {
        if pending { skipValue() }
        guard !stopped else { return false }
        while position < end, bytes[position] == 44 || Self.isSpace(bytes[position]) { position += 1 }
        guard position < end else { return stop() }
        switch bytes[position] {
        case closing:
            position += 1
            depth -= 1
            return false
        case 125, 93:
            return stop()
        default:
            return true
        }
    }

    /// The raw bytes of the string at the cursor, between its quotes, with the cursor after it.
    private mutating func stringRange() -> Range<Int>? {
        let start = position + 1
        var i = start
        while i < end {
            switch bytes[i] {
            case 34:
                position = i + 1
                return start..<i
            case 92:
                i += 2
            default:
                i += 1
            }
        }
        return stop()
    }

    private mutating func skipSpace() {
        while position < end, Self.isSpace(bytes[position]) { position += 1 }
    }

    private mutating func stop<T>() -> T? {
        stopped = true
        position = end
        return nil
    }

    private mutating func stop() -> Bool {
        stopped = true
        position = end
        return false
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 10 || byte == 13 || byte == 9 }

    private static func endsScalar(_ byte: UInt8) -> Bool { byte == 44 || byte == 125 || byte == 93 || isSpace(byte) }

    private static func integer(_ bytes: [UInt8], in range: Range<Int>) -> Int? {
        var i = range.lowerBound
        let negative = i < range.upperBound && bytes[i] == 45
        if negative { i += 1 }
        var value = 0
        var digits = 0
        while i < range.upperBound, bytes[i] &- 48 < 10 {
            guard digits < 18 else { return nil }
            value = value * 10 + Int(bytes[i] - 48)
            digits += 1
            i += 1
        }
        guard digits > 0 else { return nil }
        return negative ? -value : value
    }

    /// The text of a string's raw bytes with its escapes undone; a lone surrogate becomes U+FFFD.
    private func decoded(_ range: Range<Int>) -> String {
        var out: [UInt8] = []
        JSONText.unescape(bytes.span.extracting(range.lowerBound..<min(range.upperBound, range.lowerBound + Self.stringLimit)), into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
