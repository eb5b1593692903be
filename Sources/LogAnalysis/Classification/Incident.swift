import System
import Text
import Vocabulary

/// A process death a person should know about: what it was, how sure we are, which rule said so, what the user
/// would have seen, and the lines that prove it.
public struct Incident {
    public enum Confidence: String, CaseIterable, Sendable {
        case confirmed, likely, possible

        /// Higher is surer.
        package var rank: Int {
            switch self {
            case .confirmed: 2
            case .likely: 1
            case .possible: 0
            }
        }
    }

    /// What the user would have seen.
    public enum Seen: String, Sendable {
        case blankView = "blank view"
        case reload
        case none
        /// The input does not say whether the view had content.
        case unknown
        /// The whole app went away.
        case appClosed = "app closed"
    }

    /// How the input says the view came back: `rebuilt` or `reloaded`, this long after the process died.
    public struct Recovered: Sendable {
        public let how: String
        public let micros: Int
    }

    public let pid: Int32?
    public let kind: IncidentKind
    public internal(set) var confidence: Confidence
    public let rule: Rule
    public internal(set) var seen: Seen
    /// A few words on what happened, for the table.
    public internal(set) var detail: String
    public internal(set) var recovered: Recovered?
    public let firstSeen: Stamp
    public internal(set) var lastSeen: Stamp
    public internal(set) var evidence: [Evidence]
    package let marks: [Timeline.Mark]
    /// What a replay of it needs; nil for an incident no process's timeline made.
    package var moments: Moments? = nil
    /// Whether a termination callback fired for it: our event log says (`unobserved` when not); WebKit's lines say
    /// only when one did. Nil when the input does not say.
    public internal(set) var told: Bool? = nil
    /// The band RunningBoard had the process in when it died, with the role and jetsam priority it last logged
    /// (`background (RunningBoard role Background, jetsam priority 40)`); nil when runningboardd's lines are not in
    /// the input.
    public internal(set) var bandAtDeath: String? = nil

    /// What the user saw, in words: `blank view`, or `blank until rebuilt, 3.0 s` when the input tells.
    public var userSaw: String {
        guard let recovered, seen == .blankView || kind == .killedBeforeRender else { return seen.rawValue }
        return "blank until \(recovered.how), \(duration(recovered.micros))"
    }

    /// The detail, with the band at death when the input says it: what the table, the swim lanes and the HTML show.
    public var shownDetail: String { bandAtDeath.map { "\(detail); at death \($0)" } ?? detail }

    /// Whether the incident's own claim about the view holds firmly enough to say it in the verdict.
    public var firm: Bool { confidence != .possible }

    /// A view our event log shows blank to its end: the log tells every recovery, and none came.
    public var stayedBlank: Bool { rule == .eventLog && seen == .blankView && recovered == nil && firm }

    /// What would have brought the view back, as far as the input says whether a termination callback fired: the
    /// advice a kind gives when it does not say, else advice that can work with or without one.
    public var advice: String {
        switch (kind, told) {
        case (.killedBeforeRender, true?):
            "the termination callback fired: reloading the web view on it recovers it"
        case (.killedAfterRender, false?), (.crash, false?):
            "no termination callback fired, so nothing reloads it: only a watchdog that finds the view blank and "
                + "rebuilds the web view recovers it"
        default:
            kind.recovery
        }
    }
}

extension IncidentKind {
    /// What would have brought the view back.
    public var recovery: String {
        switch self {
        case .killedBeforeRender:
            "no termination callback fires and reload() does nothing: only a rebuilt web view recovers"
        case .killedAfterRender, .crash:
            "reloading the web view on its termination callback recovers it"
        case .goneWhenRaised, .killed:
            "reload() on the termination callback if it fired; if it never did, only a rebuilt web view recovers"
        case .launchFailed:
            "a rebuilt web view, which launches a new process"
        case .gpuProcessCrash:
            "none needed: WebKit relaunches the GPU process"
        case .hostAppCrash:
            "relaunching the app; the crash is the app's own"
        case .terminatedDuringNavigation:
            "loading again on the failed navigation, which launches a new process; a reload has no committed page"
        }
    }
}

/// A line that tells part of an incident: where it is, and its text as written.
public struct Evidence {
    package static let textLimit = 400
    public let stamp: Stamp
    /// Cut at `textLimit` bytes.
    public let text: String
}

/// The analyzer's rules, by the names reports cite. Those marked `quiet` keep a case that looks like an incident out
/// of the report; tests turn each off to show it is what keeps its case quiet.
public enum Rule: String, CaseIterable, Sendable {
    case raiseFailedAfterLaunch = "raise-failed-after-launch"
    case unpairedErrorAfterLaunch = "unpaired-rbs-error-after-launch"
    case raiseFailedLaunchUnseen = "raise-failed-launch-unseen"
    case raiseFailedNotForeground = "raise-failed-not-foreground"
    case killedAfterUse = "killed-after-use"
    case resourceLimit = "resource-limit"
    case vanishedAfterUse = "vanished-after-use"
    case reportedCrash = "reported-crash"
    case launchFailed = "launch-failed"
    case gpuProcessExited = "gpu-process-exited"
    case eventLog = "event-log"
    case crashReport = "crash-report"
    case jetsamReport = "jetsam-report"
    case hostAppCrashReport = "host-app-crash-report"
    /// The app logged WebKit's error for a navigation whose process ended (`WKErrorDomain Code=2`).
    case navigationError = "navigation-error"
    /// iOS 9–10's kernel took a jetsam snapshot as the process ended.
    case jetsamSnapshot = "jetsam-snapshot"

    /// Quiet: WebKit was already tearing the process down, or had parked it in its process cache.
    case teardown = "quiet-teardown"
    /// Quiet: `ConnectionTerminationWatchdog` is taken only while WebKit tears a process down: a failure on it, or
    /// any failure after it, means "already gone".
    case watchdogAssertion = "quiet-watchdog-assertion"
    /// Quiet: "Client is missing required entitlement" (debug builds, the simulator).
    case entitlement = "quiet-entitlement"
    /// Quiet: "Assertion's invalidation time is in the past".
    case invalidationInPast = "quiet-invalidation-in-past"
    /// Quiet: code 3 and RBSServiceErrorDomain ("not running or ... entitlement"): ambiguous on their own.
    case ambiguousError = "quiet-ambiguous-error"
    /// Quiet: the GPU or network process, or the host app itself, not a WebContent process.
    case otherProcess = "quiet-not-webcontent"
    /// Quiet: the host app itself was quitting.
    case hostQuit = "quiet-host-quit"
    /// Quiet: the app came back from the background and found its process had died there.
    case backFromBackground = "quiet-back-from-background"

    public var isQuiet: Bool { rawValue.hasPrefix("quiet-") }
}
