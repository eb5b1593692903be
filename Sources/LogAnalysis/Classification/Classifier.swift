import System
import Text
import Vocabulary

/// What the host app did around its processes: its own pids, when it went to the background and came back, and
/// when it quit. Bounded: a long log keeps the latest `limit` of each.
package struct HostContext {
    package static let limit = 4096
    package var pids: Set<Int32> = []
    package var quits: [Stamp] = []
    package var backgrounds: [Stamp] = []

    package mutating func note(_ kind: Observation.Kind, at stamp: Stamp) {
        switch kind {
        case .hostQuit:
            if quits.count == Self.limit { quits.removeFirst() }
            quits.append(stamp)
        case .appBackground:
            if backgrounds.count == Self.limit { backgrounds.removeFirst() }
            backgrounds.append(stamp)
        default:
            break
        }
    }

    package func quit(near stamp: Stamp) -> Bool { quits.contains { Stamp.near($0, stamp, .burst) } }

    package func quit(before stamp: Stamp) -> Bool { quits.contains { $0.file == stamp.file && $0.before(stamp) } }

    package func background(after start: Stamp, before end: Stamp) -> Bool {
        backgrounds.contains { start.before($0) && $0.before(end) }
    }
}

/// Decides whether a timeline is an incident, and of which kind, from the timeline and the host app's context.
package struct Classifier {
    package var disabled: Set<Rule> = []
    /// Whether incidents keep their moments, for a replay schedule.
    package var keepsMoments = true
    package var host = HostContext()
    /// RunningBoard's "does not exist" errors that no ProcessAssertion line claimed.
    package var unattributed: [Stamp] = []
    /// When iOS 9–10's kernel took a jetsam snapshot: a kill then, of a process it does not name.
    package var jetsamSnapshots: [Stamp] = []
    /// The WebKit the device ran, and where the input says so: whose numbering `reason=<number>` is read in.
    package var webKit: (major: Int, source: String)?

    private func on(_ rule: Rule) -> Bool { !disabled.contains(rule) }

    package func classify(_ t: Timeline) -> Incident? {
        if let death = t.death { return fromEventLog(t, death) }
        if on(.otherProcess) {
            if host.pids.contains(t.pid) { return nil }
            if t.process == .gpu, let end = t.termination ?? t.crashed?.stamp ?? t.killed {
                return incident(t, .gpuProcessCrash, .confirmed, .gpuProcessExited, end: end, "the GPU process exited")
            }
            guard t.process == .webContent else { return nil }
        }
        if let failed = t.launchFailed {
            return incident(t, .launchFailed, .confirmed, .launchFailed, end: failed, "failed to launch")
        }
        // A foreground raise says the most (a hidden tab's process fails its background assertion first).
        let raise = t.failures.first { $0.role == .foreground && counts($0, of: t) } ?? t.failures.first { counts($0, of: t) }
        let ends = [raise?.stamp, t.termination, t.killed, t.crashed?.stamp, t.reported?.stamp].compactMap { $0 }
        guard let end = ends.min(by: { $0.before($1) }), !expected(t, end: end, raise: raise) else { return nil }
        if let reported = t.reported, !reported.isKill {
            return incident(t, .crash, .confirmed, .crashReport, end: end, reported.words)
        }
        if let crashed = t.crashed {
            return incident(t, .crash, .confirmed, .reportedCrash, end: end, "crashed (signal \(crashed.signal))")
        }
        if let found = killedBeforeRender(t, raise: raise, end: end) ?? afterUse(t, raise: raise, end: end) { return found }
        if let raise { return goneWhenRaised(t, raise: raise) }
        guard let reported = t.reported else { return nil }
        return incident(t, .killed, .confirmed, reported.isJetsam ? .jetsamReport : .crashReport, end: end,
                        reported.words + "; whether it had rendered is not in the input")
    }

    /// The end was expected: WebKit was tearing the process down, the app was quitting, or it was coming back from
    /// the background to a process that died there.
    private func expected(_ t: Timeline, end: Stamp, raise: Timeline.Failure?) -> Bool {
        if on(.teardown) {
            if let mark = t.teardown ?? t.cached, !end.before(mark) { return true }
            if t.cause?.isTeardown == true || t.reported?.isWebKitKill == true { return true }
        }
        if on(.watchdogAssertion), let mark = t.watchdog, !end.before(mark) { return true }
        if on(.hostQuit), host.quit(near: end) { return true }
        if on(.backFromBackground), let raise, host.background(after: t.launch ?? t.firstSeen, before: raise.stamp) {
            return true
        }
        return false
    }

    /// A kill before render, as a device logs it: a foreground raise that fails shortly after a launch, with nothing painted and the page
    /// never told before it (no callback fires); or new, unrendered, dead, with RunningBoard's error naming no pid
    /// nearby.
    private func killedBeforeRender(_ t: Timeline, raise: Timeline.Failure?, end: Stamp) -> Incident? {
        if let raise, raise.role == .foreground, let launch = t.launch, !raise.stamp.before(launch),
            Stamp.near(launch, raise.stamp, .newProcess), t.render.map({ $0.before(raise.stamp) }) != true,
            t.callback.map({ $0.before(raise.stamp) }) != true
        {
            let after = launch.gap(to: raise.stamp).map { " \($0)" } ?? ""
            // Only "does not exist" or a report of its kill says the process is gone; an ambiguous error counts only
            // with its rule off.
            let gone = raise.error?.targetGone == true || t.reported?.isKill == true
            let confidence: Incident.Confidence = gone ? .confirmed : raise.error?.notRunning == true ? .likely : .possible
            return incident(t, .killedBeforeRender, confidence, .raiseFailedAfterLaunch, end: raise.stamp,
                            "foreground raise failed\(after) after launch" + (t.killedBy.map { "; \($0)" } ?? ""))
        }
        if raise == nil, t.render == nil, let launch = t.launch, Stamp.near(launch, end, .newProcess),
            unattributed.contains(where: { Stamp.near($0, end, .burst) && !$0.before(launch) })
        {
            // A Jetsam report naming the pid makes the kill certain, and says why.
            return incident(t, .killedBeforeRender, t.reported == nil ? .likely : .confirmed, .unpairedErrorAfterLaunch,
                            end: end, t.killedBy.map { $0 + "; an RBS error naming no pid" }
                                ?? "died; an RBS error naming no pid")
        }
        return nil
    }

    /// A failed raise that says only that the process was gone: a background or suspended assertion, or a raise on
    /// a process the input never shows launching. It may have rendered long before; when it died is unknown.
    private func goneWhenRaised(_ t: Timeline, raise: Timeline.Failure) -> Incident {
        let rule: Rule = raise.role == .foreground ? .raiseFailedLaunchUnseen : .raiseFailedNotForeground
        let confidence: Incident.Confidence = raise.error?.targetGone == true ? .confirmed : .possible
        let asked =
            switch raise.role {
            case .foreground: "raised to foreground, with no launch in the input"
            case .background: "asked for a background assertion"
            case .suspended: "asked for a suspended assertion"
            case .watchdog, .other: "asked for an assertion"
            }
        return incident(t, .goneWhenRaised, confidence, rule, end: raise.stamp, "gone when \(asked); when it died is unknown")
    }

    /// Rendered or in use (bound to a page before it ended, or a page was told of its end), then killed, over a
    /// limit, or gone; otherwise a reported crash.
    private func afterUse(_ t: Timeline, raise: Timeline.Failure?, end: Stamp) -> Incident? {
        let used = t.callback != nil || [t.render, t.inUse].contains { $0.map { !end.before($0) } == true }
        let what = t.render != nil ? "rendered" : "in use"
        if let limit = t.cause?.limit {
            return incident(t, .killedAfterRender, .confirmed, .resourceLimit, end: end, "over its \(limit) limit")
        }
        if t.killed != nil {
            let how = t.killedBy ?? "SIGKILL"
            return used ? incident(t, .killedAfterRender, .confirmed, .killedAfterUse, end: end, "\(what), then \(how)") : nil
        }
        if let raise, used {
            return incident(t, .killedAfterRender, .likely, .vanishedAfterUse, end: end,
                            "\(what), then gone (\(errorText(raise.error)))")
        }
        if t.termination != nil, t.cause.map({ $0.isTeardown || $0.limit != nil }) != true, jetsamSnapshot(near: end) {
            return incident(t, used ? .killedAfterRender : .killed, .likely, .jetsamSnapshot, end: end,
                            "ended as the kernel took a jetsam snapshot")
        }
        switch t.termination == nil ? nil : t.cause {
        case .crash?: return incident(t, .crash, .likely, .reportedCrash, end: end, "reported as a crash" + numbering(t))
        case .named(.nonMainFrameWebContentProcessCrash)?:
            return incident(t, .crash, .likely, .reportedCrash, end: end, "an iframe's process crashed; the page's main frame lives on")
        case .numeric?: return incident(t, .crash, .possible, .reportedCrash, end: end, undecoded(t.causeNumber))
        default: return nil
        }
    }

    package func jetsamSnapshot(near stamp: Stamp) -> Bool { jetsamSnapshots.contains { Stamp.near($0, stamp, .burst) } }

    /// How a reason written as a number was read: ` (reason=3 in WebKit 612's numbering, iOS 15.2 in a report)`.
    private func numbering(_ t: Timeline) -> String {
        guard let number = t.causeNumber else { return "" }
        return " (reason=\(number)" + (webKit.map { " in WebKit \($0.major)'s numbering, \($0.source))" } ?? ")")
    }

    /// A number no known WebKit version decodes: what it means in the oldest and newest numbering.
    private func undecoded(_ number: Int?) -> String {
        guard let number else { return "a reason not decoded" }
        let meanings = [(612, "up to WebKit 612"), (621, "from WebKit 621")].compactMap { major, when in
            WebKitRelease.reason(number: number, webKit: major).map { "\($0.webKitName) \(when)" }
        }
        let version = webKit.map { "WebKit \($0.major)'s numbering is not known" } ?? "the input names no iOS version"
        return "reason=\(number), undecoded (\(meanings.isEmpty ? "no WebKit names it" : meanings.joined(separator: ", ")); \(version))"
    }

    /// A failure that says the target was gone when WebKit asked for an assertion on it. On macOS RunningBoard says
    /// `RBSServiceErrorDomain Code=1 "target is not running or doesn't have entitlement …"` instead: ambiguous alone
    /// (an app without the entitlement gets it for every assertion), the race's macOS form when the process's end
    /// is logged within the burst.
    private func counts(_ failure: Timeline.Failure, of t: Timeline) -> Bool {
        if failure.error?.notRunning == true, let end = t.end, Stamp.near(end, failure.stamp, .burst) { return true }
        if failure.role == .watchdog, on(.watchdogAssertion) { return false }
        if on(.otherProcess), failure.process == .gpu || failure.process == .network { return false }
        guard let error = failure.error else { return !on(.ambiguousError) }
        if error.targetGone { return true }
        switch error.reason {
        case .entitlement: return !on(.entitlement)
        case .invalidationInPast: return !on(.invalidationInPast)
        default: return !on(.ambiguousError)
        }
    }

    /// Our own event log knows: a SIGKILL the supervisor did not send is a kill, and `unobserved` says the app was
    /// not told.
    private func fromEventLog(_ t: Timeline, _ death: Timeline.Death)
        -> Incident?
    {
        guard death.hadView, !host.quit(before: death.stamp) else { return nil }
        let bySupervisor = t.teardown.map { $0.before(death.stamp) } ?? false
        let outside = death.signal == 9 && !bySupervisor
        let kind: IncidentKind
        if death.status == .launchFailed && !outside {
            kind = .launchFailed
        } else if bySupervisor {
            return nil
        } else if outside {
            kind = !death.rendered && t.unobserved ? .killedBeforeRender : .killedAfterRender
        } else if [.crashed, .abnormal, .sandboxViolation].contains(death.status) {
            kind = .crash
        } else {
            return nil
        }
        // Killed before it rendered but with the page told is a kill after the page was in use (a reload recovers it), which
        // the detail says in so many words rather than leave "after render" beside "before render".
        let detail =
            kind == .killedAfterRender && !death.rendered
            ? "in use, then SIGKILL before it rendered; the page was told"
            : (outside ? "SIGKILL" : death.status.rawValue) + (death.rendered ? " after render" : " before render")
                + (t.unobserved ? ", unobserved" : "")
        return incident(t, kind, .confirmed, .eventLog, end: death.stamp, detail)
    }

    /// What the user saw follows what the input shows of the view: "none" only for a process seen from its launch
    /// that no page ever used; one the input shows nothing of before its end (a crash report alone) is unknown.
    private func incident(
        _ t: Timeline, _ kind: IncidentKind, _ confidence: Incident.Confidence, _ rule: Rule, end: Stamp, _ detail: String
    ) -> Incident {
        let seen: Incident.Seen =
            switch kind {
            case .killedBeforeRender, .launchFailed: .blankView
            case .gpuProcessCrash: .none
            case .goneWhenRaised, .killed, .terminatedDuringNavigation: .unknown
            case .hostAppCrash: .appClosed
            case .killedAfterRender, .crash:
                t.gaveUp != nil ? .blankView : t.callback != nil ? .reload
                    : t.render != nil || t.inUse != nil ? .blankView : t.launch != nil ? .none : .unknown
            }
        // Our event log says whether the app was told; WebKit's lines say only that it was, after the end.
        let told = t.death != nil ? !t.unobserved : t.callback.map { !$0.before(end) } == true ? true : nil
        return Incident(
            pid: t.pid, kind: kind, confidence: confidence, rule: rule, seen: seen, detail: detail, firstSeen: t.firstSeen,
            lastSeen: t.lastSeen.before(end) ? end : t.lastSeen, evidence: t.evidence.sorted { $0.stamp.ordinal < $1.stamp.ordinal },
            marks: t.marks, moments: keepsMoments ? Incident.Moments(t, kind: kind, end: end) : nil, told: told,
            bandAtDeath: t.runningBoard?.words)
    }
}

extension Timeline {
    /// Who killed it and why, as the input says: a report's words, or runningboardd's explanation.
    fileprivate var killedBy: String? {
        reported?.words ?? killReason.map { "killed by RunningBoard (\($0))" }
    }
}

private func errorText(_ error: AssertionError?) -> String {
    guard let error else { return "no error text" }
    let domain =
        switch error.domain {
        case .assertion: "RBSAssertionErrorDomain"
        case .service: "RBSServiceErrorDomain"
        case .request: "RBSRequestErrorDomain"
        case .other: "error"
        }
    let reason =
        switch error.reason {
        case .doesNotExist: "target does not exist"
        case .entitlement: "entitlement"
        case .invalidationInPast: "invalidation in the past"
        case .notRunning: "not running"
        case .other: "other"
        }
    return "\(domain) \(error.code.map(String.init) ?? "?") (\(reason))"
}
