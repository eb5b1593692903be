import Events

extension ReplaySchedule {
    public var json: JSON {
        .object([
            ("format", .string(Self.format)), ("version", .int(Self.version)),
            ("sources", .array(sources.map(JSON.string))), ("incidents", .array(incidents.map(\.json))),
        ])
    }

    /// Reads a schedule strictly: a missing, mistyped or unknown key is one error naming the incident and the key.
    public init(json bytes: [UInt8]) throws(ReplayError) {
        guard let root = JSON.parse(bytes), case .object(let members) = root else { throw ReplayError("not a JSON object") }
        let keys = ["format", "version", "sources", "incidents"]
        if let unknown = members.first(where: { !keys.contains($0.0) }) {
            throw ReplayError("unknown key '\(unknown.0)' (the keys are \(keys.joined(separator: ", ")))")
        }
        guard root["format"] == .string(Self.format) else {
            throw ReplayError("not a replay schedule: 'format' must be \"\(Self.format)\"")
        }
        guard let version = root["version"]?.integer else { throw ReplayError("'version' must be a whole number") }
        guard version == Self.version else {
            throw ReplayError("version \(version); this supervisor reads version \(Self.version)")
        }
        guard case .array(let sources)? = root["sources"] else { throw ReplayError("'sources' must be a list of names") }
        self.sources = try sources.map { (source: JSON) throws(ReplayError) -> String in
            guard case .string(let name) = source else { throw ReplayError("'sources' must be a list of names") }
            return name
        }
        guard case .array(let incidents)? = root["incidents"] else { throw ReplayError("'incidents' must be a list") }
        self.incidents = try incidents.enumerated().map { (i, value) throws(ReplayError) in
            try ReplayIncident(json: value, number: i + 1)
        }
    }
}

extension ReplayIncident {
    static let keys = ["id", "kind", "attachMs", "deathMs", "band", "rendered", "cause", "detail", "evidence"]
    public static let bands = ["foreground", "boosted", "background", "hidden"]

    public var json: JSON {
        .object([
            ("id", .string(id)), ("kind", .string(kind)), ("attachMs", attach.json), ("deathMs", death.json),
            ("band", band.map(JSON.string) ?? .null), ("rendered", rendered.map(JSON.bool) ?? .null),
            ("cause", .string(cause.rawValue)), ("detail", .string(detail)), ("evidence", .array(evidence.map(JSON.string))),
        ])
    }

    init(json: JSON, number: Int) throws(ReplayError) {
        let at = "incident \(number)"
        guard case .object(let members) = json else { throw ReplayError("\(at) must be an object") }
        if let unknown = members.first(where: { !Self.keys.contains($0.0) }) {
            throw ReplayError("\(at): unknown key '\(unknown.0)' (the keys are \(Self.keys.joined(separator: ", ")))")
        }
        func field(_ key: String) throws(ReplayError) -> JSON {
            guard let value = json[key] else { throw ReplayError("\(at) has no '\(key)'") }
            return value
        }
        func text(_ key: String) throws(ReplayError) -> String {
            guard case .string(let value) = try field(key) else { throw ReplayError("\(at): '\(key)' must be a string") }
            return value
        }
        id = try text("id")
        kind = try text("kind")
        guard Self.kinds.contains(kind) else {
            throw ReplayError("\(at): 'kind' must be \(Self.kinds.dropLast().joined(separator: ", ")) or \(Self.kinds.last!)")
        }
        attach = try Span(json: try field("attachMs"), key: "attachMs", at: at)
        death = try Span(json: try field("deathMs"), key: "deathMs", at: at)
        switch try field("band") {
        case .null: band = nil
        case .string(let name) where Self.bands.contains(name): band = name
        default: throw ReplayError("\(at): 'band' must be \(Self.bands.joined(separator: ", ")) or null")
        }
        switch try field("rendered") {
        case .null: rendered = nil
        case .bool(let value): rendered = value
        default: throw ReplayError("\(at): 'rendered' must be true, false or null")
        }
        let causes = Cause.allCases.map(\.rawValue)
        guard let cause = Cause(rawValue: try text("cause")) else {
            throw ReplayError("\(at): 'cause' must be \(causes.dropLast().joined(separator: ", ")) or \(causes.last!)")
        }
        self.cause = cause
        detail = try text("detail")
        guard case .array(let lines) = try field("evidence") else { throw ReplayError("\(at): 'evidence' must be a list") }
        evidence = try lines.map { (line: JSON) throws(ReplayError) -> String in
            guard case .string(let text) = line else { throw ReplayError("\(at): 'evidence' must be a list of strings") }
            return text
        }
    }
}

extension ReplayIncident.Span {
    var json: JSON { exact ? .double(lowMs) : .array([.double(lowMs), .double(highMs)]) }

    init(json: JSON, key: String, at: String) throws(ReplayError) {
        let wrong = ReplayError("\(at): '\(key)' must be milliseconds after launch (at most an hour), or [low, high]")
        func number(_ value: JSON) -> Double? {
            switch value {
            case .int(let n): Double(n)
            case .double(let x): x
            default: nil
            }
        }
        switch json {
        case .array(let pair) where pair.count == 2:
            guard let low = number(pair[0]), let high = number(pair[1]), let span = Self(lowMs: low, highMs: high) else {
                throw wrong
            }
            self = span
        default:
            guard let ms = number(json), let span = Self(lowMs: ms, highMs: ms) else { throw wrong }
            self = span
        }
    }
}

/// Why a replay schedule cannot be read, in one line.
public struct ReplayError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) { self.description = description }
}
