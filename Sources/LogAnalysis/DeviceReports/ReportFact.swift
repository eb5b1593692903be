import Events

/// What a crash report or a JetsamEvent report says about one process: the facts the analyzer joins to that pid's
/// story in the console log, or reports on their own.
package struct ReportFact {
    package enum Event {
        /// A crash report (`bug_type` 309, or the text form): the exception and signal, and the termination reason,
        /// each as written (`EXC_BAD_ACCESS`, `SIGSEGV`, `Namespace SIGNAL, Code 11`).
        case crashed(exception: String?, signal: String?, termination: String?)
        /// An entry of a JetsamEvent report (`bug_type` 298) that carries a `reason`: killed for it, holding `pages`
        /// resident pages of `pageSize` bytes.
        case jetsamKilled(reason: String, pages: Int?, pageSize: Int?)
    }

    package var event: Event
    package var pid: Int32
    /// `procName`, the name in `Process:`, or a Jetsam entry's `name`: `com.apple.WebKit.WebContent`, `MyApp`.
    package var name: String
    /// `procPath` or `Path:`, when the report gives one.
    package var path: String?
    /// The process responsible for this one (`Responsible:`, `parentProc`): a WebContent process's host app.
    package var responsible: (name: String?, pid: Int32?)
    /// Jetsam's coalition: the WebContent processes of one app share it.
    package var coalition: Int?
    /// When it happened, in microseconds since 1970 UTC: the crash's capture time, or the Jetsam report's date.
    package var time: Int?
    /// The zone the report wrote its time in, in seconds east of UTC.
    package var zoneSeconds: Int?
    /// The report's line that says it (1-based), and that line's text, for the evidence a person is shown.
    package var line: Int
    package var text: String
    /// The device's OS as the report names it (`iPhone OS 15.4.1 (19E258)`), when it does.
    package var os: String? = nil

    /// A WebKit content process: `com.apple.WebKit.WebContent`, perhaps with a suffix such as `.Extension`, or WebKit2's
    /// `WebProcess` (`com.apple.WebProcess`, OS X 10.8 and before).
    package var isWebContent: Bool { Marker.namesWebContent(Array(name.utf8).span) }
}

extension ReportFact {
    /// The process a crashed one was working for: the responsible process the report names, else its parent,
    /// unless that is launchd (pid 1), every app's parent and no one's host.
    package static func host(responsible: (name: String?, pid: Int?), parent: (name: String?, pid: Int?)) -> (name: String?, pid: Int32?) {
        let host = responsible.name != nil || responsible.pid != nil || parent.pid == 1 ? responsible : parent
        return (host.name, host.pid.flatMap(Int32.init(exactly:)))
    }
}
