import Events
import Text
import Vocabulary

/// `--timeline PID`: one process's story, step by step, with the gap before each step and the line that says it.
/// Steps wrap at words to fit the terminal; each line quoted is cut between two tokens, with `…`. What the input
/// says (a line, a file's name, a report's words, a status) is shown `visible`, and measured as shown.
extension AnalysisReport {
    public func story(of pid: Int32) -> String {
        let steps = toldSteps
        guard !steps.isEmpty else { return "No line in the input names pid \(pid)." }
        var lines: [String] = []
        for incident in incidents where incident.pid == pid {
            lines += wrapped(
                "pid \(pid): \(incident.kind.rawValue) (\(incident.confidence.rawValue), rule \(incident.rule.rawValue))"
                    + " — \(visible(incident.detail)); the user saw: \(visible(incident.userSaw)). What recovers it: "
                    + incident.advice + ".", indent: 2)
        }
        if lines.isEmpty { lines.append("pid \(pid): no incident") }
        var previous: Stamp?
        for step in steps {
            let words = visible(step.words)
            let gap = previous.flatMap { $0.micros(to: step.stamp) }.map { "+" + duration(max(0, $0)) } ?? ""
            let when = time(step.stamp) ?? "line \(step.stamp.line)"
            let head = "  \(when.padded(31)) \(gap.padded(10)) \(visible(place(step.stamp)).padded(24))"
            // A step that does not fit beside its place goes on a line of its own, whole where it can be.
            lines += head.count + 1 + words.count <= lineWidth
                ? [head + " " + words] : wrapped(head, indent: 6) + wrapped("      " + words, indent: 6)
            lines.append("      " + clipped(visible(step.text), width: lineWidth - 6))
            previous = step.stamp
        }
        return lines.joined(separator: "\n")
    }

    public func storyJSON(of pid: Int32) -> JSON {
        .array(toldSteps.map { step in
            .object([
                ("time", time(step.stamp).map(JSON.string) ?? .null), ("at", .string(place(step.stamp))),
                ("step", .string(step.words)), ("line", .string(step.text)),
            ])
        })
    }

    /// The story's steps in order, each told once: two lines that say the same thing at the same moment (WebKit's
    /// and RunningBoard's, or a run's two logs) are one step. Only the steps still within a burst of the one being
    /// looked at are compared, so a long story costs no more than a short one per step.
    private var toldSteps: [StoryStep] {
        // A report tells what the lines of its moment only noticed: it goes first among them.
        let steps = story.enumerated().sorted { a, b in
            let (x, y) = (a.element, b.element)
            if x.stamp.time != nil, x.stamp.time == y.stamp.time, (x.reported != nil) != (y.reported != nil) {
                return x.reported != nil
            }
            return x.stamp.before(y.stamp) || !y.stamp.before(x.stamp) && a.offset < b.offset
        }.map(\.element)
        var told: [StoryStep] = []
        var recent: [(words: String, stamp: Stamp)] = []
        for step in steps {
            recent.removeAll { !Stamp.near($0.stamp, step.stamp, .burst) }
            let words = step.words
            if recent.contains(where: { $0.words == words }) { continue }
            recent.append((words, step.stamp))
            told.append(step)
        }
        return told
    }
}

extension Observation {
    /// The step in words.
    package var words: String {
        let role = assertion.map { "\($0.role)" } ?? "an"
        switch kind {
        case .launch: return "launched"
        case .launchFailed: return "failed to launch"
        case .assertionTaken: return "took \(role) assertion"
        case .assertionAttempt: return "asked for \(role) assertion"
        case .assertionFailed, .assertionError:
            let reason =
                switch error?.reason {
                case .doesNotExist?: "the process does not exist"
                case .entitlement?: "entitlement"
                case .invalidationInPast?: "invalidation time in the past"
                case .notRunning?: "not running (ambiguous)"
                case .other?, nil: "no reason given"
                }
            return "\(role) assertion failed: code \(error?.code.map(String.init) ?? "?"), \(reason)"
        case .render: return "rendered"
        case .pageBound: return "in use by a page"
        case .alive: return "alive (its own line)"
        case .terminated: return "terminated (\(cause.map { "\($0)" } ?? "no reason")\(number.map { " \($0)" } ?? ""))"
        case .callback: return "the page was told"
        case .reloadGaveUp: return "WebKit gave up reloading"
        case .teardown: return "being torn down"
        case .cached: return "parked in the process cache"
        case .reused: return "taken from the process cache"
        case .unresponsive: return "unresponsive"
        case .responsive: return "responsive again"
        case .memoryWarning: return "its memory passed a footprint threshold"
        case .preparingToSuspend: return "told to prepare to suspend"
        case .suspended: return "suspended"
        case .gpuExited: return "the GPU process exited"
        case .killed: return killReason.map { "killed by RunningBoard: \($0)" } ?? "killed (SIGKILL)"
        case .crashed: return "crashed (signal \(number ?? 0))"
        case .exited: return "exited"
        case .death: return "died: \(death?.status.rawValue ?? "?")\(number.map { ", signal \($0)" } ?? "")"
        case .unobserved: return "its death was not delivered"
        case .appReload: return "the app reloaded the view"
        case .appCallback: return "the app's termination delegate was called"
        case .navigationTerminated: return "a navigation failed: its WebContent process ended"
        case .jetsamSnapshot: return "the kernel took a jetsam snapshot"
        case .role: return "RunningBoard: \(runningBoard?.words ?? "?")"
        case .appBackground, .appForeground, .hostQuit, .identity, .hostIdentity: return "\(kind)"
        }
    }
}

extension String {
    package func padded(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
