import Glibc

/// One thing that happened in a run, when, and to which view and worker: a record of the event log.
public struct Event: Sendable {
    public let kind: SupervisorEvent
    /// CLOCK_MONOTONIC nanoseconds: the clock for every latency.
    public let monotonic: Int
    /// CLOCK_REALTIME nanoseconds.
    public let wall: Int
    public let view: Int?
    public let pid: Int32?

    public init(_ kind: SupervisorEvent, monotonic: Int, wall: Int, view: Int? = nil, pid: Int32? = nil) {
        (self.kind, self.monotonic, self.wall, self.view, self.pid) = (kind, monotonic, wall, view, pid)
    }

    public var name: String { kind.name }

    /// The JSON Lines record: time, mono, event, view, pid, then the event's keys.
    public var json: JSON {
        var members: [(String, JSON)] = [
            ("time", .string(isoTime(wall))), ("mono", .int(monotonic)), ("event", .string(kind.name)),
        ]
        if let view { members.append(("view", .int(view))) }
        if let pid { members.append(("pid", .int(Int(pid)))) }
        return .object(members + kind.fields)
    }

    /// The record one line of the log holds.
    public init(line: some Collection<UInt8>) throws(EventDecodingError) {
        guard case .object(let members)? = JSON.parse(Array(line)),
            case .string(let name)? = members.first(where: { $0.0 == "event" })?.1
        else { throw .notJSON }
        func number(_ key: String) throws(EventDecodingError) -> Int? {
            guard let value = members.first(where: { $0.0 == key })?.1 else { return nil }
            guard case .int(let number) = value else { throw .wrongType(event: name, field: key, expected: "a whole number") }
            return number
        }
        guard let monotonic = try number("mono") else { throw .missingField(event: name, field: "mono") }
        guard case .string(let time)? = members.first(where: { $0.0 == "time" })?.1, let wall = parseISOTime(time) else {
            throw .missingField(event: name, field: "time")
        }
        let envelope: Set = ["time", "mono", "event", "view", "pid"]
        self.init(
            try SupervisorEvent(name: name, fields: members.filter { !envelope.contains($0.0) }), monotonic: monotonic,
            wall: wall, view: try number("view"), pid: try number("pid").map(Int32.init(truncatingIfNeeded:)))
    }
}
