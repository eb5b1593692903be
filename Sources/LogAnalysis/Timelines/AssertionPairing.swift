/// Pairs RunningBoard's `[assertion] Error acquiring assertion: <...>` line, which names no pid, with the
/// ProcessAssertion line the same thread writes 0–2 ms before or after it, which does. iOS 11–13 log only the attempt
/// (`acquiring assertion for process with PID 4107`) and then the error; later versions log both sides of a failure.
/// Either way the error line becomes evidence for the pid, and supplies the reason when the other line has none.
package struct AssertionPairing {
    private struct Line {
        package var pid: Int32?
        package var assertion: AssertionName?
        package var error: AssertionError?
        package var thread: UInt64?
        package var stamp: Stamp
        package var text: String?
        package var paired = false
    }

    /// An error line paired with an assertion line that came before it.
    package struct Claim {
        package var pid: Int32
        package var assertion: AssertionName?
        /// The assertion line said less (it was an attempt, or its error was `(null)` or cut short).
        package var supplies: Bool
    }

    /// An earlier error line paired with the assertion line just read.
    package struct Earlier {
        package var error: AssertionError
        package var stamp: Stamp
        package var text: String?
    }

    private static let depth = 8
    private static let unattributedLimit = 4096
    private var errors: [Line] = []
    private var assertions: [Line] = []
    /// "Does not exist" errors no ProcessAssertion line claimed.
    package private(set) var unattributed: [Stamp] = []

    /// RunningBoard's error line: claimed by an assertion line just before it on the same thread, or kept waiting.
    package mutating func error(_ error: AssertionError, thread: UInt64?, at stamp: Stamp, text: String?) -> Claim? {
        if let i = match(in: assertions, thread: thread, stamp: stamp), let pid = assertions[i].pid {
            assertions[i].paired = true
            return Claim(pid: pid, assertion: assertions[i].assertion, supplies: assertions[i].error?.targetGone != true)
        }
        if errors.count == Self.depth {
            let oldest = errors.removeFirst()
            if !oldest.paired { keep(oldest) }
        }
        errors.append(Line(error: error, thread: thread, stamp: stamp, text: text))
        return nil
    }

    /// A ProcessAssertion line naming a pid (an attempt or a failure): it claims an error line just before it on the
    /// same thread, or waits for one.
    package mutating func assertion(_ observation: Observation, thread: UInt64?, at stamp: Stamp) -> Earlier? {
        guard let pid = observation.pid else { return nil }
        if let i = match(in: errors, thread: thread, stamp: stamp), let error = errors[i].error {
            errors[i].paired = true
            return Earlier(error: error, stamp: errors[i].stamp, text: errors[i].text)
        }
        if assertions.count == Self.depth { assertions.removeFirst() }
        assertions.append(Line(
            pid: pid, assertion: observation.assertion, error: observation.error, thread: thread, stamp: stamp))
        return nil
    }

    /// Errors still waiting are unattributed once nothing more can pair with them.
    package mutating func finish() {
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
