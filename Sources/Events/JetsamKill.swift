import Vocabulary

/// One line of Jetsam's kill log: whom it killed, that worker's standing and memory then, and why. `time` is
/// seconds since 1970 (Jetsam has no calendar), `mono` CLOCK_MONOTONIC nanoseconds. Every key is required.
public struct JetsamKill: Equatable, Sendable {
    /// CLOCK_REALTIME nanoseconds.
    public var wall: Int
    public var monotonic: Int
    public var pid: Int32
    public var band: PriorityBand
    /// Its rank in its band, read from its oom_score_adj (`OOMScores`): 0 the most recent; nil in a log written
    /// before Jetsam said.
    public var rank: Int?
    public var oomScoreAdj: Int
    public var nice: Int
    public var rssBytes: Int
    public var totalRSSBytes: Int
    public var budgetBytes: Int
    public var reason: JetsamLog.Reason

    /// The kill one line of the log holds.
    public init(line: some Collection<UInt8>) throws(EventDecodingError) {
        guard case .object(let members)? = JSON.parse(Array(line)),
            case .string(let name)? = members.first(where: { $0.0 == "event" })?.1
        else { throw .notJSON }
        guard name == JetsamLog.killEvent else { throw .unknownEvent(name) }
        let r = FieldReader(event: name, members: members)
        let seconds = try r.double("time")
        // Seconds outside what a date holds are no time: 1970 to 2262 in nanoseconds.
        guard seconds >= 0, seconds < Double(Int.max / 1_000_000_000) else {
            throw .badValue(event: name, field: "time", value: "\(seconds)")
        }
        wall = Int(seconds * 1e9)
        monotonic = try r.int("mono")
        let pid = try r.int("pid")
        guard let narrow = Int32(exactly: pid), narrow > 0 else { throw .badValue(event: name, field: "pid", value: "\(pid)") }
        self.pid = narrow
        band = try r.spelled("band")
        rank = try r.optionalInt("rank")
        oomScoreAdj = try r.int("oomScoreAdj")
        nice = try r.int("nice")
        rssBytes = try r.int("rssBytes")
        totalRSSBytes = try r.int("totalRSSBytes")
        budgetBytes = try r.int("budgetBytes")
        reason = try r.spelled("reason")
    }
}
