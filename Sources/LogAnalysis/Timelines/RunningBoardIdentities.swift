/// runningboardd names a process by its identity and pid on most lines (`[<identity>:<pid>] Set jetsam priority…`)
/// and by its identity alone on its `Calculated state for` line, which follows within a millisecond: that line's pid
/// is the one its identity last came with.
struct RunningBoardIdentities {
    static let limit = 4096
    private var pids: [[UInt8]: Int32] = [:]

    /// `o` with its pid, learning the pair when it has one; nil when neither it nor an earlier line names the pid.
    mutating func resolve(_ o: Observation) -> Observation? {
        guard let identity = o.identity else { return o.pid == nil ? nil : o }
        if let pid = o.pid {
            if pids.count >= Self.limit, pids[identity] == nil { pids.removeAll(keepingCapacity: true) }
            pids[identity] = pid
            return o
        }
        guard let pid = pids[identity] else { return nil }
        var resolved = o
        resolved.pid = pid
        return resolved
    }
}
