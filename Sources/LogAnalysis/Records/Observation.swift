import System
import Vocabulary

/// One thing a log line says about a process: the analyzer's unit of evidence. Parsers turn lines into
/// observations; timelines collect them per pid; the classifier reads the timelines.
package struct Observation {
    package enum Kind: UInt8 {
        /// The process was just launched (didFinishLaunching, didConnectToProcess, a spawn event).
        case launch
        case launchFailed
        case assertionTaken
        /// iOS 11–13 log the attempt; only a failure is logged after it.
        case assertionAttempt
        case assertionFailed
        /// RunningBoard's own `Error acquiring assertion` line, which names no pid (except on iOS 26).
        case assertionError
        /// The page painted or finished loading: the process had rendered.
        case render
        /// A page was bound to the process (committed a load, was told of its death): it was in use.
        case pageBound
        /// A line the process wrote itself: it was alive then.
        case alive
        case terminated
        /// The page was told of the termination (processDidTerminate, WebKit's own reload).
        case callback
        case reloadGaveUp
        /// WebKit is taking the process down itself (shutDown, requestTermination, an invalid message).
        case teardown
        /// Put in WebKit's process cache: in use by no page until taken again.
        case cached
        case reused
        case unresponsive
        /// It answered after it was found unresponsive.
        case responsive
        /// Its memory footprint passed one of WebKit's notification thresholds (not a termination).
        case memoryWarning
        /// WebKit told it to prepare to suspend; then it was suspended (it answered, or its time ran out).
        case preparingToSuspend
        case suspended
        case gpuExited
        /// Evidence of a kill from outside: SIGKILL reported by launchd, memorystatus, jetsam.
        case killed
        /// Evidence of a crash: a signal other than SIGKILL reported by launchd.
        case crashed
        case exited
        case appBackground
        case appForeground
        /// The host app itself is going away.
        case hostQuit
        /// Says only what kind of process a pid is.
        case identity
        /// Names the host app's pid (runningboardd's `[app<...>:<pid>]` inside a WebKit process's identity).
        case hostIdentity
        /// Our event log's `death`: the ground truth of how a worker ended.
        case death
        /// Our event log's `unobserved`: the death above was not delivered to the app.
        case unobserved
        /// The app's own termination delegate (`webViewWebContentProcessDidTerminate`) logged: the callback fired
        /// for a process that just died. The line names no pid (`DelegateAttribution` finds it).
        case appCallback
        /// The app was told a navigation failed because the WebContent process ended (`WKErrorDomain Code=2`).
        case navigationTerminated
        /// iOS 9–10's kernel took a jetsam snapshot: a kill now, of a process the line does not name.
        case jetsamSnapshot
        /// That line says the app called `reload()` (Swift) or `[webView reload]` (Objective-C) there.
        case appReload
        /// runningboardd set its jetsam priority or calculated its role (`runningBoard`); a role's line names the
        /// process by `identity` alone.
        case role
    }

    package var kind: Kind
    package var pid: Int32?
    package var process = ProcessKind.unknown
    package var assertion: AssertionName?
    package var error: AssertionError?
    package var cause: TerminationCause?
    /// A numeric termination reason as printed, or a signal.
    package var number: Int?
    /// For `killed`: the reason the killer gave, as written (runningboardd's `jetsam: per-process-limit`).
    package var killReason: String?
    /// WebKit's `pageProxyID`: the page a process served, for telling how the page came back after it died.
    package var page: Int?
    /// Our event log's view, for telling how it came back.
    package var view: Int?
    /// For `death`: the status our event log gives, whether the worker had rendered, whether it had a view, and its
    /// priority band, if it ever had one.
    package var death: (status: TerminationKind, reason: TerminationReason, rendered: Bool, hadView: Bool, band: PriorityBand?)?
    /// For `role`: RunningBoard's role for the process, or the jetsam priority it set.
    package var runningBoard: RunningBoardStanding?
    /// runningboardd's name for a WebKit process (`xpcservice<com.apple.WebKit.WebContent([app<…>:812])(501)>`),
    /// for finding the pid of a line that names it without one.
    package var identity: [UInt8]?

    package init(_ kind: Kind, pid: Int?, process: ProcessKind = .unknown) {
        self.kind = kind
        self.pid = pid.flatMap { $0 > 0 && $0 <= Int(Int32.max) ? Int32($0) : nil }
        self.process = process
    }
}

/// What kind of process a pid is, as far as the log tells.
package enum ProcessKind: UInt8 {
    case unknown, webContent, gpu, network
}

/// An assertion's name, read for what it asks and for which kind of process.
package struct AssertionName: Equatable {
    package enum Role: UInt8 {
        /// Raising to foreground: `WebProcess Foreground Assertion`, and the older `Web content visibility`.
        case foreground
        case background
        case suspended
        /// `ConnectionTerminationWatchdog`: taken only while WebKit tears a process down.
        case watchdog
        /// Media playback, uploads and other activities.
        case other
    }

    package var role: Role
    package var process: ProcessKind
}

/// A RunningBoard error, from `Error Domain=RBSAssertionErrorDomain Code=2 "..."` or an NSError dump.
package struct AssertionError: Equatable {
    package enum Domain: UInt8 { case assertion, service, request, other }
    package enum Reason: UInt8 {
        /// "Specified target process does not exist": the target is gone. The key signal.
        case doesNotExist
        case entitlement
        case invalidationInPast
        /// "Target is not running or required target entitlement is missing" and the like: ambiguous.
        case notRunning
        case other
    }

    package var domain: Domain
    package var code: Int?
    package var reason: Reason

    /// macOS's `RBSServiceErrorDomain Code=1 "target is not running or doesn't have entitlement …"`.
    package var notRunning: Bool { domain == .service && code == 1 && reason == .notRunning }

    /// The target had already exited when the assertion was asked for.
    package var targetGone: Bool {
        reason == .doesNotExist && (domain == .assertion && code != 3 || domain == .other && code == nil)
    }
}

/// Why WebKit says a process ended: one of its reasons by name (the vocabulary's `TerminationReason`, the one our
/// own event log writes), a number, or words this reader does not know. Numeric reasons changed meaning across
/// WebKit versions; they are decoded from a sibling line of the same burst.
package enum TerminationCause: Equatable, CustomStringConvertible {
    case named(TerminationReason)
    case numeric, unknown

    /// The reason's own spelling (`exceeded-memory-limit`), or `numeric` or `unknown`.
    package var description: String {
        switch self {
        case .named(let reason): reason.rawValue
        case .numeric: "numeric"
        case .unknown: "unknown"
        }
    }

    static let crash = TerminationCause.named(.crash)

    /// WebKit ended the process itself (for the app, a swap, idleness, a hang, another of its processes' request, or
    /// a shared process's crashes), or for being one too many: not a kill or a crash.
    package var isTeardown: Bool {
        guard case .named(let reason) = self else { return false }
        return [
            .requestedByClient, .navigationSwap, .idleExit, .unresponsive, .exceededProcessCountLimit, .requestedByNetworkProcess,
            .requestedByGPUProcess, .requestedByModelProcess, .gpuProcessCrashedTooManyTimes, .modelProcessCrashedTooManyTimes,
        ].contains(reason)
    }

    /// Over a limit WebKit enforces itself: memory or CPU.
    var limit: String? {
        switch self {
        case .named(.exceededMemoryLimit): "memory"
        case .named(.exceededCPULimit): "CPU"
        default: nil
        }
    }
}

/// Byte strings the parsers look for.
package enum Marker {
    /// A record with none of these is not read: they are looked for across whole blocks first, and lines are told
    /// apart only around a hit (RecordScanner), which keeps a 1 GB log near grep's speed. WebKit's proxies and
    /// assertions, RunningBoard's errors, its `[app<...>]` and WebKit identities, forwarded WebContent lines,
    /// terminations, and the app's lifecycle.
    package static let relevant = Sys.Needles(relevantWords)
    private static let relevantWords = [
        "Proxy", "Assertion", "RBS", "Throttler", "Terminat", "WebContent", "WP[", "WebProcessCache", "WebKit",
        "EnterBackground", "EnterForeground", "BecomeActive", "[app", "Error acquiring", "WKErrorDomain",
        "termination snapshot", "now terminated", "WebProcess[", "WebProcess(",
    ].map { Array($0.utf8) }

    /// What the scanner looks for: the relevant words, what makes a line a record of our own logs (whose every
    /// record counts: `Envelope`), so that our records are found wherever in a file they start (a device log with
    /// one of ours appended), not only when the file's first block holds one; and each way flutter's timing column
    /// can start (`[+2061 ms]`, `[  +13 ms]`, `[        ]`, a bare `[ms]`): its hard wraps can cut a relevant word
    /// in two, found only in the record the wrapped lines make.
    package static let looked = Sys.Needles(relevantWords + [jsonEvent, jetsamKill] + flutterTimings)
    private static let flutterTimings = ["[+", "[ ", "[ms]"].map { Array($0.utf8) }

    package static let webContent = bytes("WebContent")
    private static let webProcess = bytes("WebProcess")

    /// A process name of WebKit's content process: `com.apple.WebKit.WebContent`, or WebKit2's `WebProcess` (OS X
    /// 10.8 and before, `com.apple.WebProcess`).
    package static func namesWebContent(_ name: Span<UInt8>) -> Bool {
        name.contains(webContent) || name.count >= webProcess.count && name.matches(webProcess, at: name.count - webProcess.count)
    }
    package static let jsonEvent = bytes(#""event":"#)
    package static let jetsamKill = bytes(#""jetsam-kill""#)
    package static let deviceLog = bytes("[DEVICE LOG]")
    package static let ms = bytes("ms")
    package static let consoleTypes = ["default", "info", "error", "fault", "debug", "notice"].map { Array($0.utf8) }
}
