import UnifiedLog

/// The WebContent processes RunningBoard's statedumps name (`RBProcessManager`'s process table, its assertion
/// manager's lists): each with the app that owns it, that app's pid and, where the dump says, its role. A line reads
/// `xpcservice<com.apple.WebKit.WebContent([application<es.socialpoint.MonsterCity>:49551])>:49624="<RBProcessState|
/// … role:None>"`; in a list, `[xpcservice<…>:49670:49670],`.
package struct RunningBoardProcess: Equatable, Sendable {
    package let pid: Int
    package let app: String
    package let appPID: Int
    /// RunningBoard's role (`None`, `Background`, `UserInteractive`, `UserInteractiveFocal`, …); nil where the dump
    /// lists the process without its state.
    package let role: String?
    /// When the dump was taken, nanoseconds since 1970.
    package let at: Int

    private static let service = "xpcservice<com.apple.WebKit.WebContent([application<"

    /// Every WebContent process named in `dump`, once per dump (with its role when any line gives one).
    package static func named(in dump: StateDumpRecord) -> [RunningBoardProcess] {
        guard let text = dump.text, text.contains(service) else { return [] }
        var found: [Int: RunningBoardProcess] = [:]
        var order: [Int] = []
        for line in text.split(separator: "\n") {
            guard let process = parse(line, at: dump.wallNanoseconds) else { continue }
            if found[process.pid] == nil { order.append(process.pid) }
            if found[process.pid]?.role == nil { found[process.pid] = process }
        }
        return order.compactMap { found[$0] }
    }

    /// `…<application<APP>:APPPID])>:PID…`, and `role:ROLE` after it if the line has one.
    static func parse(_ line: Substring, at time: Int) -> RunningBoardProcess? {
        guard let start = line.firstRange(of: service) else { return nil }
        let rest = line[start.upperBound...]
        guard let appEnd = rest.firstIndex(of: ">") else { return nil }
        let app = rest[..<appEnd]
        let afterApp = rest[rest.index(after: appEnd)...]
        guard afterApp.hasPrefix(":"), let close = afterApp.firstRange(of: "])>:") else { return nil }
        let appPID = Int(afterApp[afterApp.index(after: afterApp.startIndex)..<close.lowerBound])
        let pid = Int(afterApp[close.upperBound...].prefix { $0.isNumber })
        guard let appPID, let pid, !app.isEmpty else { return nil }
        let role = line.firstRange(of: " role:").map { String(line[$0.upperBound...].prefix { $0.isLetter || $0.isNumber }) }
        return RunningBoardProcess(pid: pid, app: String(app), appPID: appPID, role: role, at: time)
    }
}
