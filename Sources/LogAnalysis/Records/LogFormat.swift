import Events
import Text

/// The envelopes a log line comes in: those of real iOS and macOS logs (IOSLogFormats.md), and our own JSON
/// Lines logs. The format is told line by line, because people paste several tools' output into one file.
public enum LogFormat: String, CaseIterable, Sendable {
    /// `2025-03-02 10:11:12.123456+0100 App[4100:99001] [Category] message`; also with the time stripped, with a
    /// two-digit year, or behind a relay's own prefix.
    case xcode = "xcode-console"
    /// Xcode 15+: the message alone, perhaps behind `[WebKit] ` or ` LOG  `, or after a bare `[Category]`.
    case messageOnly = "xcode-message-only"
    /// `error<TAB>10:11:12.123456+0100<TAB>My App<TAB>message`, and its variants.
    case consoleApp = "console-app"
    /// `Mar  2 10:11:12 iPhone App(WebKit)[4100] <Notice>: message` (idevicesyslog).
    case syslog
    /// `[+2061 ms] [DEVICE LOG] 2025-03-02 ... Runner[4100]: (WebKit) [com.apple.WebKit:Cat] message`, hard-wrapped.
    case flutter = "flutter-relay"
    /// `supervisor run --log`.
    case eventLog = "supervisor-jsonl"
    /// Jetsam's kill log.
    case jetsamLog = "jetsam-jsonl"
    /// `log show`'s default style: `2026-03-02 10:11:12.123456-0800 0x2f1a3  Default  0x0  4100  0  MyApp: (WebKit)
    /// [com.apple.WebKit:Process] message`, between a preamble, a column header and a statistics footer.
    case logShow = "log-show"
    /// `log show --style syslog`: `2026-03-02 10:11:12.123456-0800  localhost MyApp[4100]: (WebKit) [sub:cat] message`.
    case logShowSyslog = "log-show-syslog"
    /// `log show --style compact`: `2026-03-02 10:11:12.123 Df MyApp[4100:2f1a3] [sub:cat] message`, with no zone.
    case logShowCompact = "log-show-compact"
    /// `log show --style ndjson` and `log stream`'s: one JSON object per line.
    case logShowNDJSON = "log-show-ndjson"
    /// `log show --style json`: the same objects in one pretty-printed array, each a record of many lines.
    case logShowJSON = "log-show-json"
    /// The JSON Lines of the open-source unified-log parser (`unifiedlog_iterator --format jsonl`), times in UTC.
    case unifiedLog = "unifiedlog-jsonl"
    /// A crash report, JSON (`.ips`, `bug_type` 309) or text: read whole by `DiagnosticReport`, as are the next two.
    case crashReport = "crash-report"
    /// A JetsamEvent report (`.ips`, `bug_type` 298).
    case jetsamReport = "jetsam-report"
    /// Another of Apple's diagnostic reports (`.ips`): recognised, and saying nothing the analyzer uses.
    case diagnosticReport = "diagnostic-report"
    /// A sysdiagnose's `ps.txt`: the processes alive at capture.
    case processListing = "ps-listing"

    package var index: Int {
        switch self {
        case .xcode: 0
        case .messageOnly: 1
        case .consoleApp: 2
        case .syslog: 3
        case .flutter: 4
        case .eventLog: 5
        case .jetsamLog: 6
        case .logShow: 7
        case .logShowSyslog: 8
        case .logShowCompact: 9
        case .logShowNDJSON: 10
        case .logShowJSON: 11
        case .unifiedLog: 12
        case .crashReport: 13
        case .jetsamReport: 14
        case .diagnosticReport: 15
        case .processListing: 16
        }
    }
}

extension LogFormat {
    /// Our own logs: every record counts, though most name no word `Marker.relevant` looks for. A file with a
    /// record of such a format is read line by line.
    package var keepsEveryRecord: Bool { self == .eventLog || self == .jetsamLog }
}
