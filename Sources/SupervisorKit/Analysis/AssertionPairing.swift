/// Pairs RunningBoard's `[assertion] Error acquiring assertion: <...>` line, which names no pid, with the
/// ProcessAssertion line the same thread writes 0–2 ms before or after it, which does. iOS 11–13 log only the attempt
/// (`acquiring assertion for process with PID 4107`) and then the error; later versions log both sides of a failure.
struct AssertionPairing {
    struct Line {
        var pid: Int32?
        var assertion: AssertionName?
        var error: AssertionError?
        var thread: UInt64?
        var stamp: Stamp
        var paired = false
    }

    /// What pairing found: a failure for `pid` to record, or nothing new.
    struct Failure {
        var pid: Int32
        var assertion: AssertionName?
        var error: AssertionError
        var stamp: Stamp
    }

    private static let depth = 8
    private static let unattributedLimit = 4096
    private var errors: [Line] = []
    private var attempts: [Line] = []
    /// "Does not exist" errors no ProcessAssertion line claimed.
    private(set) var unattributed: [Stamp] = []

    /// RunningBoard's error line. An attempt just before it on the same thread fails with this error; a failure
    /// line just before it that said less takes its text.
    mutating func error(_ error: AssertionError, thread: UInt64?, at stamp: Stamp) -> Failure? {
        if let i = match(in: attempts, thread: thread, stamp: stamp), let pid = attempts[i].pid {
            attempts[i].paired = true
            if attempts[i].error?.targetGone == true { return nil }
            return Failure(pid: pid, assertion: attempts[i].assertion, error: error, stamp: stamp)
        }
        if errors.count == Self.depth {
            let oldest = errors.removeFirst()
            if !oldest.paired { keep(oldest) }
        }
        errors.append(Line(error: error, thread: thread, stamp: stamp))
        return nil
    }

    /// A ProcessAssertion line naming a pid (an attempt or a failure): it pairs with an error line just before it,
    /// or waits for one. A failure takes the error line's text when its own has none (`error: (null)`, or cut short).
    mutating func assertion(_ observation: Observation, thread: UInt64?, at stamp: Stamp) -> Failure? {
        guard let pid = observation.pid else { return nil }
        if let i = match(in: errors, thread: thread, stamp: stamp), let error = errors[i].error {
            errors[i].paired = true
            if observation.kind == .assertionAttempt || observation.error?.targetGone != true {
                return Failure(pid: pid, assertion: observation.assertion, error: error, stamp: stamp)
            }
            return nil
        }
        if attempts.count == Self.depth { attempts.removeFirst() }
        attempts.append(Line(pid: pid, assertion: observation.assertion, error: observation.error, thread: thread, stamp: stamp))
        return nil
    }

    /// Errors still waiting are unattributed once nothing more can pair with them.
    mutating func finish() {
        for line in errors where !line.paired { keep(line) }
        errors = []
    }

    private func match(in lines: [Line], thread: UInt64?, stamp: Stamp) -> Int? {
        lines.indices.reversed().first { i in
            let line = lines[i]
            return !line.paired && (line.thread == nil || thread == nil || line.thread == thread)
                && Stamp.near(line.stamp, stamp, .pairing)
        }
    }

    private mutating func keep(_ line: Line) {
        guard line.error?.targetGone == true else { return }
        if unattributed.count == Self.unattributedLimit { unattributed.removeFirst() }
        unattributed.append(line.stamp)
    }
}
