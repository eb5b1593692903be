import Events
import Vocabulary

extension ReplaySchedule {
    /// The largest schedule file read. `analyze` writes at most 10,000 incidents, each quoting at most 8 lines of
    /// at most 400 bytes: about 50 MB at the very most, and a real one is far smaller.
    public static let fileLimit = 64 << 20
    /// The most incidents a schedule holds: as many as `analyze` reports.
    public static let incidentLimit = 10_000
    /// The most lines an incident quotes as evidence (`analyze` quotes 8).
    public static let evidenceLimit = 100
    /// The most sources a schedule names: the files of an analysis.
    public static let sourceLimit = 1_000_000

    /// Reads a schedule strictly, a value at a time: a missing, mistyped, unknown or repeated key is one error naming
    /// the incident and the key, and a wrong key or type is refused before its value is read. Past the limits above
    /// it is refused too, so that what the reader holds stays within a small multiple of the file's size, whatever
    /// the file spells (a tree of every value first took fifteen times the size of a file of empty strings).
    public init(json bytes: [UInt8]) throws(ReplayError) {
        var reader = ScheduleReader(bytes)
        self = try reader.schedule()
    }

    static let keys = ["format", "version", "sources", "incidents"]
}

extension ReplayIncident {
    static let keys = ["id", "kind", "attachMs", "deathMs", "band", "rendered", "cause", "detail", "evidence"]
}

/// A schedule's bytes read through a `JSONCursor`, each value checked as it comes.
private struct ScheduleReader {
    var cursor: JSONCursor

    init(_ bytes: [UInt8]) { cursor = JSONCursor(bytes) }

    mutating func schedule() throws(ReplayError) -> ReplaySchedule {
        guard cursor.peek() == UInt8(ascii: "{") else { throw ReplayError("not a JSON object") }
        try beginObject()
        let notSchedule = ReplayError("not a replay schedule: 'format' must be \"\(ReplaySchedule.format)\"")
        var seen: Set<String> = []
        var sources: [String] = []
        var incidents: [ReplayIncident] = []
        while let key = try key(of: ReplaySchedule.keys, seen: &seen, at: nil) {
            switch key {
            case "format":
                guard try scalar(or: notSchedule) == .string(ReplaySchedule.format) else { throw notSchedule }
            case "version":
                guard let version = try scalar(or: ReplayError("'version' must be a whole number")).integer else {
                    throw ReplayError("'version' must be a whole number")
                }
                guard version == ReplaySchedule.version else {
                    throw ReplayError("version \(version); this supervisor reads version \(ReplaySchedule.version)")
                }
            case "sources":
                let wrong = ReplayError("'sources' must be a list of names")
                let over = ReplayError("'sources' names over a million files; a schedule names at most a million")
                sources = try strings(or: wrong, limit: ReplaySchedule.sourceLimit, over: over)
            default:
                guard cursor.peek() == UInt8(ascii: "[") else { throw ReplayError("'incidents' must be a list") }
                try beginArray()
                while try nextElement() {
                    guard incidents.count < ReplaySchedule.incidentLimit else {
                        throw ReplayError("over 10,000 incidents; a schedule holds at most 10,000, as many as analyze reports")
                    }
                    incidents.append(try incident(number: incidents.count + 1))
                }
            }
        }
        try end()
        guard seen.contains("format") else { throw notSchedule }
        guard seen.contains("version") else { throw ReplayError("'version' must be a whole number") }
        guard seen.contains("sources") else { throw ReplayError("'sources' must be a list of names") }
        guard seen.contains("incidents") else { throw ReplayError("'incidents' must be a list") }
        return ReplaySchedule(sources: sources, incidents: incidents)
    }

    mutating func incident(number: Int) throws(ReplayError) -> ReplayIncident {
        let at = "incident \(number)"
        guard cursor.peek() == UInt8(ascii: "{") else { throw ReplayError("\(at) must be an object") }
        try beginObject()
        var seen: Set<String> = []
        var (id, detail) = ("", "")
        var kind = IncidentKind.killed
        var (attach, death) = (ReplayIncident.Span(0), ReplayIncident.Span(0))
        var band: PriorityBand?
        var rendered: Bool?
        var cause = ReplayIncident.Cause.unknown
        var evidence: [String] = []
        while let key = try key(of: ReplayIncident.keys, seen: &seen, at: at) {
            let mistyped = ReplayError("\(at): '\(key)' must be a string")
            switch key {
            case "id": id = try string(or: mistyped)
            case "kind":
                let replayable = IncidentKind.allCases.filter(\.isReplayable)
                guard let named = IncidentKind(rawValue: try string(or: mistyped)), named.isReplayable else {
                    throw ReplayError("\(at): 'kind' must be \(spelled(replayable.map(\.rawValue)))")
                }
                kind = named
            case "attachMs", "deathMs":
                let span = try self.span(or: ReplayError(
                    "\(at): '\(key)' must be milliseconds after launch (at most an hour), or [low, high]"))
                if key == "attachMs" { attach = span } else { death = span }
            case "band":
                let wrong = ReplayError("\(at): 'band' must be \(spelled(ReplayIncident.bands.map(\.rawValue) + ["null"]))")
                switch try scalar(or: wrong) {
                case .null: band = nil
                case .string(let name) where PriorityBand(rawValue: name) != nil: band = PriorityBand(rawValue: name)
                default: throw wrong
                }
            case "rendered":
                let wrong = ReplayError("\(at): 'rendered' must be true, false or null")
                switch try scalar(or: wrong) {
                case .null: rendered = nil
                case .bool(let value): rendered = value
                default: throw wrong
                }
            case "cause":
                let causes = ReplayIncident.Cause.allCases.map(\.rawValue)
                guard let named = ReplayIncident.Cause(rawValue: try string(or: mistyped)) else {
                    throw ReplayError("\(at): 'cause' must be \(spelled(causes))")
                }
                cause = named
            case "detail": detail = try string(or: mistyped)
            default:
                evidence = try strings(
                    or: ReplayError("\(at): 'evidence' must be a list of strings"), limit: ReplaySchedule.evidenceLimit,
                    over: ReplayError("\(at) quotes over 100 lines of evidence; an incident quotes at most 100"))
            }
        }
        if let missing = ReplayIncident.keys.first(where: { !seen.contains($0) }) {
            throw ReplayError("\(at) has no '\(missing)'")
        }
        return ReplayIncident(
            id: id, kind: kind, attach: attach, death: death, band: band, rendered: rendered, cause: cause,
            detail: detail, evidence: evidence)
    }

    // MARK: - Values

    /// The next key of the object being read, one of `keys` and not seen before in it; nil after its last.
    mutating func key(of keys: [String], seen: inout Set<String>, at: String?) throws(ReplayError) -> String? {
        let next: String?
        do throws(JSONCursor.Malformed) { next = try cursor.nextKey() } catch { throw malformed(error) }
        guard let key = next else { return nil }
        let prefix = at.map { "\($0): " } ?? ""
        guard keys.contains(key) else {
            throw ReplayError(prefix + "unknown key '\(key)' (the keys are \(keys.joined(separator: ", ")))")
        }
        guard seen.insert(key).inserted else { throw ReplayError(prefix + "'\(key)' is given twice; give it once") }
        return key
    }

    /// A string, number, boolean or null; `wrong` for an object or array, which is not read.
    mutating func scalar(or wrong: ReplayError) throws(ReplayError) -> JSON {
        guard let next = cursor.peek(), next != UInt8(ascii: "{"), next != UInt8(ascii: "[") else { throw wrong }
        do throws(JSONCursor.Malformed) { return try cursor.scalar() } catch { throw malformed(error) }
    }

    mutating func string(or wrong: ReplayError) throws(ReplayError) -> String {
        guard cursor.peek() == UInt8(ascii: "\"") else { throw wrong }
        do throws(JSONCursor.Malformed) { return try cursor.string() } catch { throw malformed(error) }
    }

    /// A list of at most `limit` strings.
    mutating func strings(or wrong: ReplayError, limit: Int, over: ReplayError) throws(ReplayError) -> [String] {
        guard cursor.peek() == UInt8(ascii: "[") else { throw wrong }
        try beginArray()
        var strings: [String] = []
        while try nextElement() {
            guard strings.count < limit else { throw over }
            strings.append(try string(or: wrong))
        }
        return strings
    }

    /// Milliseconds, or `[low, high]`, within what a span holds.
    mutating func span(or wrong: ReplayError) throws(ReplayError) -> ReplayIncident.Span {
        func ms(_ value: JSON) -> Double? {
            switch value {
            case .int(let n): Double(n)
            case .double(let x): x
            default: nil
            }
        }
        guard cursor.peek() == UInt8(ascii: "[") else {
            guard let ms = ms(try scalar(or: wrong)), let span = ReplayIncident.Span(lowMs: ms, highMs: ms) else { throw wrong }
            return span
        }
        try beginArray()
        var bounds: [Double] = []
        while try nextElement() {
            guard bounds.count < 2, let bound = ms(try scalar(or: wrong)) else { throw wrong }
            bounds.append(bound)
        }
        guard bounds.count == 2, let span = ReplayIncident.Span(lowMs: bounds[0], highMs: bounds[1]) else { throw wrong }
        return span
    }

    mutating func beginObject() throws(ReplayError) {
        do throws(JSONCursor.Malformed) { try cursor.beginObject() } catch { throw malformed(error) }
    }

    mutating func beginArray() throws(ReplayError) {
        do throws(JSONCursor.Malformed) { try cursor.beginArray() } catch { throw malformed(error) }
    }

    mutating func nextElement() throws(ReplayError) -> Bool {
        do throws(JSONCursor.Malformed) { return try cursor.nextElement() } catch { throw malformed(error) }
    }

    mutating func end() throws(ReplayError) {
        do throws(JSONCursor.Malformed) { try cursor.end() } catch { throw malformed(error) }
    }

    /// Bytes that are not JSON, said as where they are.
    func malformed(_ error: JSONCursor.Malformed) -> ReplayError {
        let before = cursor.bytes[..<min(error.offset, cursor.bytes.count)]
        let line = before.count { $0 == 10 } + 1
        let column = before.count - (before.lastIndex(of: 10).map { $0 + 1 } ?? 0) + 1
        return ReplayError("not well-formed JSON at line \(line), column \(column)")
    }

    /// `a, b or c`.
    func spelled(_ names: [String]) -> String {
        names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }
}
