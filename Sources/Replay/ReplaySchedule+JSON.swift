import Events
import Vocabulary

extension ReplaySchedule {
    public var json: JSON {
        .object([
            ("format", .string(Self.format)), ("version", .int(Self.version)),
            ("sources", .array(sources.map(JSON.string))), ("incidents", .array(incidents.map(\.json))),
        ])
    }
}

extension ReplayIncident {
    /// In the order a schedule's errors list them.
    public static let bands: [PriorityBand] = [.foreground, .boosted, .background, .hidden]

    public var json: JSON {
        .object([
            ("id", .string(id)), ("kind", .string(kind.rawValue)), ("attachMs", attach.json), ("deathMs", death.json),
            ("band", band.map { .string($0.rawValue) } ?? .null), ("rendered", rendered.map(JSON.bool) ?? .null),
            ("cause", .string(cause.rawValue)), ("detail", .string(detail)), ("evidence", .array(evidence.map(JSON.string))),
        ])
    }
}

extension ReplayIncident.Span {
    var json: JSON { exact ? .double(lowMs) : .array([.double(lowMs), .double(highMs)]) }
}

/// Why a replay schedule cannot be read, in one line.
public struct ReplayError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) { self.description = description }
}
