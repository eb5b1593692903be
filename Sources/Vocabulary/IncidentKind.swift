/// What the analyzer finds a process death to have been: its verdict, as reports and replay schedules name it.
public enum IncidentKind: String, CaseIterable, Sendable {
    /// New, never rendered, and gone when WebKit raised it to foreground: the blank view no callback reports.
    case killedBeforeRender = "killed-before-render"
    /// Rendered or in use, then killed from outside (jetsam, a memory limit).
    case killedAfterRender = "killed-after-render"
    /// Gone when WebKit raised it (a background or suspended assertion, or a raise with no launch in the input):
    /// when it died, and whether it had rendered, the input does not say.
    case goneWhenRaised = "gone-when-raised"
    /// Killed from outside (a JetsamEvent report names it, or a crash report of its SIGKILL), with nothing in the
    /// input on whether it had rendered.
    case killed
    /// Reported as a crash with no evidence of an outside kill (WebKit cannot tell the two apart).
    case crash
    case launchFailed = "launch-failed"
    /// The app was told a navigation failed because its WebContent process ended (`WKErrorDomain Code=2`,
    /// `WKErrorWebContentProcessTerminated`), and nothing else in the input tells of that end: no pid, and whether it
    /// was killed or crashed is unknown.
    case terminatedDuringNavigation = "terminated-during-navigation"
    /// The GPU process, not WebContent.
    case gpuProcessCrash = "gpu-process-crash"
    /// The host app itself crashed: not a WebContent incident, but the view went with it.
    case hostAppCrash = "host-app-crash"

    /// A WebContent death a replay can deal again.
    public var isReplayable: Bool {
        switch self {
        case .killedBeforeRender, .killedAfterRender, .goneWhenRaised, .killed, .crash: true
        case .launchFailed, .gpuProcessCrash, .hostAppCrash, .terminatedDuringNavigation: false
        }
    }

    /// A death before the view attached: what a replay must reproduce.
    public var diesBeforeAttach: Bool { self == .killedBeforeRender || self == .goneWhenRaised }
}
