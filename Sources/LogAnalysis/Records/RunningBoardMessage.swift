/// runningboardd's lines on a WebKit process, which it names `xpcservice<com.apple.WebKit.WebContent(…)>:<pid>`:
/// its launch, its end and why, its jetsam priority and role.
extension WebKitMessage {
    private typealias M = Words

    /// runningboardd names WebKit's processes `xpcservice<com.apple.WebKit.WebContent([app<...>:<host>])(501)>:<pid>`.
    static func runningBoard(_ m: Span<UInt8>, at: Int, _ out: inout [Observation]) {
        let start = at + M.webKitService.count
        let process: ProcessKind =
            m.matches(Marker.webContent, at: start) ? .webContent : m.matches(M.gpu, at: start) ? .gpu
            : m.matches(M.networking, at: start) ? .network : .unknown
        var end = start
        while end < m.count, m[end] != 32, m[end] != 93 || m.byte(end + 1) == 41 {
            // `{vt hash: 0}` and the like, in newer identities, hold spaces.
            if m[end] == 123, let close = m.index(of: 125, from: end, to: min(m.count, end + 256)) { end = close }
            end += 1
        }
        // `...([app<...>:<host>])(501)>:<pid>`: the first `>:` names the host app, the last (or `}:`) the process.
        var pids: [Int] = []
        for i in start..<max(start, end - 1) where (m[i] == 62 || m[i] == 125) && m[i + 1] == 58 {
            if let (value, _) = m.number(at: i + 2) { pids.append(value) }
        }
        // `Calculated state for <identity>: …` names the host inside the identity, and the process not at all.
        let named = !m.matches(M.calculatedStateFor, at: at - M.calculatedStateFor.count)
        let pid = named ? pids.last : nil
        if pids.count > 1 || !named && pids.count == 1 { out.append(Observation(.hostIdentity, pid: pids[0])) }
        if let role = standing(m, at: at, pid: pid, process: process) { return out.append(role) }
        if let report = m.index(of: M.reportedByLaunchd, from: end) {
            var numbers: [Int] = []
            var j = report + M.reportedByLaunchd.count
            while numbers.count < 3, let (value, after) = m.number(at: m.skipping(32, from: j)) {
                numbers.append(value)
                j = after + 1
            }
            let signal = numbers.last ?? 0
            var observation = Observation(signal == 9 ? .killed : signal == 0 ? .exited : .crashed, pid: pid, process: process)
            observation.number = signal
            out.append(observation)
        } else if let terminating = m.index(of: M.terminatingWith, from: end) {
            var observation = Observation(.killed, pid: pid, process: process)
            observation.killReason = terminateExplanation(m, from: terminating)
            out.append(observation)
        } else if m.contains(M.trackingProcess) {
            out.append(Observation(.launch, pid: pid, process: process))
        } else {
            out.append(Observation(.identity, pid: pid, process: process))
        }
    }

    /// runningboardd's kill: `Terminating with description: <RBSTerminateContext| explanation:"jetsam:
    /// per-process-limit" reportType:...>` (the explanation quoted or not); its `code:` when it gives no explanation.
    static func terminateExplanation(_ m: Span<UInt8>, from start: Int) -> String? {
        let close = m.index(of: 62, from: start) ?? m.count
        if let at = m.index(of: M.explanation, from: start), at < close {
            var i = at + M.explanation.count
            if m.byte(i) == 34 {
                i += 1
                return m.string(i..<(m.index(of: 34, from: i) ?? close))
            }
            // Unquoted, it runs to the next `key:` field or the context's end.
            var end = close
            for key in M.contextKeys { if let next = m.index(of: key, from: i), next < end { end = next } }
            let text = m.string(i..<end)
            return text.isEmpty ? nil : text
        }
        if let at = m.index(of: M.contextCode, from: start), at < close {
            let i = at + M.contextCode.count
            var j = i
            while j < close, m[j] != 32 { j += 1 }
            return "code " + m.string(i..<j)
        }
        return nil
    }

    /// runningboardd's line at `at` (where its identity starts) if it sets a priority or a role: an observation of the
    /// process's standing, carrying its identity (its pid is found from it when the line names none).
    static func standing(_ m: Span<UInt8>, at: Int, pid: Int?, process: ProcessKind) -> Observation? {
        var standing = RunningBoardStanding()
        if let set = m.index(of: M.setJetsamPriority, from: at) {
            standing.jetsamPriority = m.number(at: set + M.setJetsamPriority.count)?.value
        } else if let role = m.index(of: M.role, from: at) {
            var end = role + M.role.count
            while end < m.count, m[end] != 41, end - role - M.role.count < RunningBoardStanding.roleLimit { end += 1 }
            standing.role = m.string((role + M.role.count)..<end)
        } else {
            return nil
        }
        var observation = Observation(.role, pid: pid, process: process)
        observation.runningBoard = standing
        observation.identity = identity(m, at: at)
        return observation
    }

    /// The identity at `at`: up to the last `>` or `}` a colon follows (its pid's, or the `: ` after it) before the
    /// identity ends at a space or a closing `]` (spaces within `{…}` are its own).
    static func identity(_ m: Span<UInt8>, at: Int) -> [UInt8]? {
        var i = at, depth = 0
        var last: Int?
        while i + 1 < m.count, i - at < 512 {
            let byte = m[i]
            if byte == 123 { depth += 1 } else if byte == 125, depth > 0 { depth -= 1 }
            if depth == 0, byte == 32 || byte == 93 && m.byte(i + 1) != 41 { break }
            if byte == 62 || byte == 125, m[i + 1] == 58 { last = i }
            i += 1
        }
        return last.map { Array(m.string(at..<($0 + 1)).utf8) }
    }
}
