import WorkerRuntime

/// What a document asks of the worker that renders it, read from its markup.
///
/// Faults are declared by documents because web content is what crashes real content processes:
/// `<meta name="x-fault" content="segv; when=rendered">`, `hang=4s` for a hang that ends, or `syscall=open` for a
/// call the sandbox forbids. Work is declared the same way: `<meta name="x-render" content="memory=64MB; cpu=20ms">`,
/// and `busy=40%` for a page whose scripts keep that share of a CPU busy once it has rendered.
/// Sub-resources are `<img src>` and `<iframe src>`; what the page does once rendered (a link the user follows, a
/// form, a redirect) is declared too: `<meta name="x-navigate" content="type=link; url=https://example.com/">`,
/// `frame=sub` for a sub-frame.
///
/// Nothing a page says can break the worker or the channel: the title is cut to `maxTitleBytes` at a character
/// boundary; a sub-resource or navigation whose URL is over `maxURLBytes` is ignored, as an address no browser
/// could load; a number that is not a plain decimal, or out of its range (memory beyond `maxMemoryBytes`, CPU
/// beyond `maxCPUNanoseconds`, an exit code outside 0…255, or a product that would overflow) leaves its setting
/// at the default: no memory, no CPU, exit code 1.
struct Document {
    enum Fault: Equatable {
        /// `fail`: the navigation fails (`didFail`); the others kill or wedge the worker. `kill` is a SIGKILL the
        /// worker sends itself: to the kernel, a kill like any other.
        case segv, abort, kill, exit(Int32), hang, malformedFrame, oversizedFrame, fail
    }

    enum Moment: Equatable {
        case load, committed, rendered
    }

    struct Navigation {
        var type: NavigationType
        var mainFrame: Bool
        var url: String
    }

    var title = ""
    var memoryBytes = 0
    var cpuNanoseconds = 0
    /// How long its memory takes to grow to `memoryBytes` (`grow=2s`), as a page that allocates as it goes; 0: at once.
    var growNanoseconds = 0
    /// The share of a CPU, in percent, the page keeps busy once rendered, for as long as it is loaded (`busy=40%`).
    var busyPercent = 0
    var fault: (kind: Fault, when: Moment)?
    /// A hang that ends (`hang=4s`): the worker reads nothing for that long at its moment, then goes on.
    var stall: (nanoseconds: Int, when: Moment)?
    /// A system call the page tries at a moment (`syscall=open`, `socket` or `exec`), as content that took over its
    /// renderer would: the sandbox kills the worker for it; without one, the call works and the page goes on.
    /// `path=` names the file `open` tries (NUL-terminated), /etc/passwd if none.
    var forbiddenCall: (call: Int32, when: Moment, path: [UInt8]?)?
    var resources: [(url: String, kind: ResourceKind)] = []
    var navigations: [Navigation] = []

    init(_ html: [UInt8]) {
        let lower = html.asciiLowercased()
        if let open = lower.find("<title", from: 0), let gt = lower.find(">", from: open),
            let close = lower.find("</title", from: gt + 1)
        {
            title = Document.capped(String(decoding: Document.trimmed(html[(gt + 1)..<close]), as: UTF8.self))
        }
        var cursor = 0
        while let meta = lower.find("<meta", from: cursor) {
            let end = lower.find(">", from: meta) ?? lower.count
            cursor = end
            let name = Document.attributeRange("name", in: lower, meta..<end).map { Array(lower[$0]) }
            let range = Document.attributeRange("content", in: lower, meta..<end)
            guard let name, let range else { continue }
            // Settings are read in small letters; a URL or a path keeps its own.
            if name.matches("x-render") { applyRender(Array(lower[range])) }
            if name.matches("x-fault") { applyFault(Array(lower[range]), path: Array(html[range])) }
            if name.matches("x-navigate") { applyNavigation(Array(html[range])) }
        }
        for (tag, kind) in [("<img", ResourceKind.image), ("<iframe", ResourceKind.subframe)] {
            cursor = 0
            while let open = lower.find(tag, from: cursor) {
                let end = lower.find(">", from: open) ?? lower.count
                cursor = end
                if let range = Document.attributeRange("src", in: lower, open..<end) {
                    let url = String(decoding: html[range], as: UTF8.self)
                    if url.utf8.count <= maxURLBytes { resources.append((url, kind)) }
                }
            }
        }
    }

    /// At most this many navigations per page: more would be a flood the supervisor cuts off.
    static let maxNavigations = 8

    private mutating func applyNavigation(_ content: [UInt8]) {
        var navigation = Navigation(type: .linkActivated, mainFrame: true, url: "")
        for (key, value) in Document.settings(content) {
            let lowered = key.asciiLowercased()
            if lowered.matches("url") { navigation.url = String(decoding: value, as: UTF8.self) }
            if lowered.matches("frame") { navigation.mainFrame = !value.matches("sub") }
            if lowered.matches("type") {
                if value.matches("form") { navigation.type = .formSubmitted }
                if value.matches("resubmit") { navigation.type = .formResubmitted }
                if value.matches("redirect") || value.matches("other") { navigation.type = .other }
            }
        }
        let fits = navigation.url.utf8.count <= maxURLBytes
        guard !navigation.url.isEmpty, fits, navigations.count < Document.maxNavigations else { return }
        navigations.append(navigation)
    }

    /// `title` cut to `maxTitleBytes`, at the last character that fits whole. It is measured after decoding: each
    /// invalid byte of the page became a three-byte replacement character.
    private static func capped(_ title: String) -> String {
        guard title.utf8.count > maxTitleBytes else { return title }
        let bytes = Array(title.utf8)
        return String(decoding: bytes[..<utf8Boundary(in: bytes, from: 0, limit: maxTitleBytes)], as: UTF8.self)
    }

    // Markup is read as bytes, never as Strings: comparing Strings by canonical equivalence would link the Unicode
    // tables into the worker, whose start-up is the point of its being small.

    /// The most memory a page may ask for (1 TiB, more than any machine this runs on): the bound keeps the
    /// arithmetic safe, and the kernel refuses what it cannot give.
    static let maxMemoryBytes = 1 << 40
    static let timeUnits = [("ms", 1_000_000), ("us", 1_000), ("s", 1_000_000_000)]
    /// The most CPU a page may ask for, and the longest hang that ends: an hour.
    static let maxCPUNanoseconds = 3_600_000_000_000

    private mutating func applyRender(_ content: [UInt8]) {
        for (key, value) in Document.settings(content) {
            if key.matches("memory") {
                let units = [("kb", 1 << 10), ("mb", 1 << 20), ("gb", 1 << 30), ("b", 1)]
                memoryBytes = Document.quantity(value, units: units, upTo: Document.maxMemoryBytes) ?? 0
            } else if key.matches("cpu") {
                cpuNanoseconds = Document.quantity(value, units: Document.timeUnits, upTo: Document.maxCPUNanoseconds) ?? 0
            } else if key.matches("grow") {
                growNanoseconds = Document.quantity(value, units: Document.timeUnits, upTo: Document.maxCPUNanoseconds) ?? 0
            } else if key.matches("busy") {
                busyPercent = Document.quantity(value, units: [("%", 1)], upTo: 100) ?? 0
            }
        }
    }

    /// Waits out the page's hang that ends, if it has one at `moment`.
    func stall(at moment: Moment) {
        if let stall, stall.when == moment { wr_sleep(stall.nanoseconds) }
    }

    /// `content` in small letters, and as written for the `path` it may name.
    private mutating func applyFault(_ content: [UInt8], path written: [UInt8]) {
        var kind: Fault?
        var call: Int32?
        var path: [UInt8]?
        var when = Moment.load
        for (key, value) in Document.settings(written) where key.asciiLowercased().matches("path") {
            if value.count <= maxURLBytes && !value.contains(0) { path = value + [0] }
        }
        for (key, value) in Document.settings(content) {
            if key.matches("syscall") {
                call = value.matches("open") ? WR_ATTEMPT_OPEN : value.matches("socket") ? WR_ATTEMPT_SOCKET
                    : value.matches("exec") ? WR_ATTEMPT_EXEC : nil
            }
            if key.matches("segv") { kind = .segv }
            if key.matches("abort") { kind = .abort }
            if key.matches("kill") { kind = .kill }
            if key.matches("exit") { kind = .exit(Document.exitCode(value)) }
            if key.matches("hang") {
                if value.isEmpty {
                    kind = .hang
                } else if let nanoseconds = Document.quantity(value, units: Document.timeUnits, upTo: Document.maxCPUNanoseconds) {
                    stall = (nanoseconds, .load)
                }
            }
            if key.matches("fail") { kind = .fail }
            if key.matches("malformed-frame") { kind = .malformedFrame }
            if key.matches("oversized-frame") { kind = .oversizedFrame }
            if key.matches("when") { when = value.matches("rendered") ? .rendered : value.matches("committed") ? .committed : .load }
        }
        if let kind { fault = (kind, when) }
        if let nanoseconds = stall?.nanoseconds { stall = (nanoseconds, when) }
        if let call { forbiddenCall = (call, when, path) }
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

    /// An exit code, 0…255; 1 for anything else.
    private static func exitCode(_ text: [UInt8]) -> Int32 {
        guard let code = number(text[...]), (0...255).contains(code) else { return 1 }
        return Int32(code)
    }

    /// A number with an optional unit, in the smallest unit; nil when malformed, negative, over `limit`, or too
    /// large to compute.
    private static func quantity(_ text: [UInt8], units: [(String, Int)], upTo limit: Int) -> Int? {
        var digits = text[...]
        var scale = 1
        for (suffix, factor) in units {
            let suffix = Array(suffix.utf8)
            if text.count >= suffix.count, Array(text.suffix(suffix.count)) == suffix {
                digits = text.dropLast(suffix.count).filter { $0 != 32 }[...]
                scale = factor
                break
            }
        }
        guard let value = number(digits), value >= 0 else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: scale)
        return overflow || product > limit ? nil : product
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

    /// Where the value of attribute `name` lies in `bytes`, within the tag spanning `tag`.
    private static func attributeRange(_ name: String, in bytes: [UInt8], _ tag: Range<Int>) -> Range<Int>? {
        guard let at = bytes.find(name + "=", from: tag.lowerBound), at < tag.upperBound else { return nil }
        let start = at + name.utf8.count + 1
        guard start < tag.upperBound else { return nil }
        let quote = bytes[start]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        guard let end = bytes[(start + 1)..<tag.upperBound].firstIndex(of: quote) else { return nil }
        return (start + 1)..<end
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
    /// These bytes with ASCII capitals made small, and every other byte as it was.
    func asciiLowercased() -> [UInt8] {
        map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
    }

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
