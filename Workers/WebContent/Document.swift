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
            title = Document.trimmed(html[(gt + 1)..<close])
        }
        var cursor = 0
        while let meta = lower.find("<meta", from: cursor) {
            let end = lower.find(">", from: meta) ?? lower.count
            cursor = end
            let name = Document.attribute("name", in: lower[meta..<end])
            let content = Document.attribute("content", in: lower[meta..<end])
            guard let name, let content else { continue }
            switch name {
            case "x-render": applyRender(content)
            case "x-fault": applyFault(content)
            default: break
            }
        }
    }

    private mutating func applyRender(_ content: String) {
        for (key, value) in Document.settings(content) {
            switch key {
            case "memory": memoryBytes = Document.quantity(value, units: [("kb", 1 << 10), ("mb", 1 << 20), ("gb", 1 << 30), ("b", 1)])
            case "cpu": cpuNanoseconds = Document.quantity(value, units: [("ms", 1_000_000), ("us", 1_000), ("s", 1_000_000_000)])
            default: break
            }
        }
    }

    private mutating func applyFault(_ content: String) {
        var kind: Fault?
        var when = Moment.load
        for (key, value) in Document.settings(content) {
            switch key {
            case "segv": kind = .segv
            case "abort": kind = .abort
            case "exit": kind = .exit(Int32(value) ?? 1)
            case "hang": kind = .hang
            case "malformed-frame": kind = .malformedFrame
            case "oversized-frame": kind = .oversizedFrame
            case "when": when = value == "rendered" ? .rendered : .load
            default: break
            }
        }
        if let kind { fault = (kind, when) }
    }

    /// `"a=1; b; c=2"` as pairs; a bare word has an empty value.
    private static func settings(_ content: String) -> [(String, String)] {
        content.split(separator: ";").map { part in
            let pieces = part.split(separator: "=", maxSplits: 1)
            let key = pieces.first.map { trimmed(Array($0.utf8)[...]) } ?? ""
            let value = pieces.count > 1 ? trimmed(Array(pieces[1].utf8)[...]) : ""
            return (key, value)
        }
    }

    private static func quantity(_ text: String, units: [(String, Int)]) -> Int {
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            return (Int(text.dropLast(suffix.count).filter { $0 != " " }) ?? 0) * scale
        }
        return Int(text) ?? 0
    }

    private static func attribute(_ name: String, in tag: ArraySlice<UInt8>) -> String? {
        let tag = Array(tag)
        guard let at = tag.find(name + "=", from: 0), at + name.utf8.count + 1 < tag.count else { return nil }
        var start = at + name.utf8.count + 1
        let quote = tag[start]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        start += 1
        guard let end = tag[start...].firstIndex(of: quote) else { return nil }
        return String(decoding: tag[start..<end], as: UTF8.self)
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        let isSpace = { (b: UInt8) in b == 32 || (b >= 9 && b <= 13) }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}

extension [UInt8] {
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
