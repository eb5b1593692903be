/// What a document asks of the worker that renders it, read from its markup.
///
/// Faults are declared by documents because web content is what crashes real content processes:
/// `<meta name="x-fault" content="segv; when=rendered">`. Work is declared the same way:
/// `<meta name="x-render" content="memory=64MB; cpu=20ms">`.
struct Document {
    enum Fault: Equatable {
        case segv, abort, exit(Int32), hang, malformedFrame, oversizedFrame
    }

    enum Moment: Equatable {
        case load, rendered
    }

    var title = ""
    var memoryBytes = 0
    var cpuNanoseconds = 0
    var fault: (kind: Fault, when: Moment)?

    init(_ html: [UInt8]) {
        var lower = html
        for i in lower.indices where lower[i] >= 65 && lower[i] <= 90 { lower[i] += 32 }
        if let open = lower.find("<title", from: 0), let gt = lower.find(">", from: open),
            let close = lower.find("</title", from: gt + 1)
        {
            title = String(decoding: Document.trimmed(html[(gt + 1)..<close]), as: UTF8.self)
        }
        var cursor = 0
        while let meta = lower.find("<meta", from: cursor) {
            let end = lower.find(">", from: meta) ?? lower.count
            cursor = end
            let name = Document.attribute("name", in: lower[meta..<end])
            let content = Document.attribute("content", in: lower[meta..<end])
            guard let name, let content else { continue }
            if name.matches("x-render") { applyRender(content) }
            if name.matches("x-fault") { applyFault(content) }
        }
    }

    // Markup is read as bytes, never as Strings: comparing Strings by canonical equivalence would link the Unicode
    // tables into the worker, whose start-up is the point of its being small.

    private mutating func applyRender(_ content: [UInt8]) {
        for (key, value) in Document.settings(content) {
            if key.matches("memory") {
                memoryBytes = Document.quantity(value, units: [("kb", 1 << 10), ("mb", 1 << 20), ("gb", 1 << 30), ("b", 1)])
            } else if key.matches("cpu") {
                cpuNanoseconds = Document.quantity(value, units: [("ms", 1_000_000), ("us", 1_000), ("s", 1_000_000_000)])
            }
        }
    }

    private mutating func applyFault(_ content: [UInt8]) {
        var kind: Fault?
        var when = Moment.load
        for (key, value) in Document.settings(content) {
            if key.matches("segv") { kind = .segv }
            if key.matches("abort") { kind = .abort }
            if key.matches("exit") { kind = .exit(Int32(truncatingIfNeeded: Document.number(value[...]) ?? 1)) }
            if key.matches("hang") { kind = .hang }
            if key.matches("malformed-frame") { kind = .malformedFrame }
            if key.matches("oversized-frame") { kind = .oversizedFrame }
            if key.matches("when") { when = value.matches("rendered") ? .rendered : .load }
        }
        if let kind { fault = (kind, when) }
    }

    /// `a=1; b; c=2` as pairs; a bare word has an empty value.
    private static func settings(_ content: [UInt8]) -> [([UInt8], [UInt8])] {
        content.split(separator: UInt8(ascii: ";")).map { part in
            let pieces = part.split(separator: UInt8(ascii: "="), maxSplits: 1)
            let key = pieces.first.map { trimmed($0) } ?? []
            let value = pieces.count > 1 ? trimmed(pieces[1]) : []
            return (key, value)
        }
    }

    private static func quantity(_ text: [UInt8], units: [(String, Int)]) -> Int {
        for (suffix, scale) in units {
            let suffix = Array(suffix.utf8)
            if text.count >= suffix.count, Array(text.suffix(suffix.count)) == suffix {
                return (number(text.dropLast(suffix.count).filter { $0 != 32 }[...]) ?? 0) * scale
            }
        }
        return number(text[...]) ?? 0
    }

    /// A decimal integer, optionally negative, and nothing else.
    private static func number(_ text: ArraySlice<UInt8>) -> Int? {
        var digits = text
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= 48 && byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return negative ? -value : value
    }

    private static func attribute(_ name: String, in tag: ArraySlice<UInt8>) -> [UInt8]? {
        let tag = Array(tag)
        guard let at = tag.find(name + "=", from: 0), at + name.utf8.count + 1 < tag.count else { return nil }
        var start = at + name.utf8.count + 1
        let quote = tag[start]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        start += 1
        guard let end = tag[start...].firstIndex(of: quote) else { return nil }
        return Array(tag[start..<end])
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        let isSpace = { (b: UInt8) in b == 32 || (b >= 9 && b <= 13) }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return [] }
        return Array(bytes[first...last])
    }
}

extension [UInt8] {
    /// Whether these bytes are `text`'s UTF-8.
    func matches(_ text: StaticString) -> Bool {
        count == text.utf8CodeUnitCount && elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: count))
    }

    func find(_ needle: String, from: Int) -> Int? {
        let needle = Array(needle.utf8)
        guard !needle.isEmpty, count >= needle.count, from <= count - needle.count else { return nil }
        for i in from...(count - needle.count) where self[i] == needle[0] {
            var j = 1
            while j < needle.count && self[i + j] == needle[j] { j += 1 }
            if j == needle.count { return i }
        }
        return nil
    }
}
