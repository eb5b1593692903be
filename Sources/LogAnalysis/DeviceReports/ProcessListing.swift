import Events
import Text

/// A sysdiagnose's `ps.txt`: the processes alive when it was captured, as `ps axwww -o user,uid,prsna,pid,ppid,
/// flags,%cpu,%mem,pri,ni,vsz,rss,wchan,tt,stat,start,time,command` prints them: a header naming the columns, then a
/// row each, its last column (COMMAND, the executable's path and arguments) the rest of the line. Which WebContent
/// pids were alive, at what priority and size, says which "gone" processes were not.
package struct ProcessListing {
    package struct Row: Equatable {
        package var pid: Int32
        package var priority: Int?
        package var residentKiB: Int?
        package var command: String
    }

    /// The WebContent processes listed, and every pid listed.
    package private(set) var webContent: [Row] = []
    package private(set) var pids: Set<Int32> = []
    /// When it was captured: from the sysdiagnose's name, when the listing came in one.
    package var captured: Int?

    /// Whether `head` starts a listing: its first line the header, `USER` first, `COMMAND` last, `PID` between.
    package static func looksLike(_ head: [UInt8]) -> Bool {
        let start = DiagnosticReport.contentStart(of: head)
        let words = head[start..<DiagnosticReport.firstNewline(in: head, from: start)].split(whereSeparator: { $0 == 32 || $0 == 9 || $0 == 13 })
        // Every word a column's name: capitals, digits and `%`.
        let names = words.allSatisfy { $0.allSatisfy { (65...90).contains($0) || (48...57).contains($0) || $0 == 37 } }
        return names && words.first?.elementsEqual("USER".utf8) == true && words.last?.elementsEqual("COMMAND".utf8) == true
            && words.contains { $0.elementsEqual("PID".utf8) }
    }

    /// The rows of `bytes`; a row too short for its columns, or without a number for its pid, is left out.
    package init(_ bytes: [UInt8]) {
        var lines = bytes.split(separator: 10, omittingEmptySubsequences: true).makeIterator()
        guard let header = lines.next() else { return }
        let columns = header.split(whereSeparator: { $0 == 32 || $0 == 9 || $0 == 13 }).map { String(decoding: $0, as: UTF8.self) }
        guard let pidColumn = columns.firstIndex(of: "PID") else { return }
        let (priorityColumn, rssColumn) = (columns.firstIndex(of: "PRI"), columns.firstIndex(of: "RSS"))
        while let line = lines.next() {
            // The fields before COMMAND hold no space; COMMAND is the rest of the line, spaces and all.
            let fields = line.split(maxSplits: columns.count - 1, whereSeparator: { $0 == 32 || $0 == 9 })
            guard fields.count == columns.count, let pid = Int32(String(decoding: fields[pidColumn], as: UTF8.self)) else { continue }
            pids.insert(pid)
            let commandBytes = Array(fields[columns.count - 1].filter { $0 != 13 })
            let executable = Array(commandBytes.prefix { $0 != 32 })
            guard Marker.namesWebContent(executable.span) else { continue }
            let command = String(decoding: commandBytes, as: UTF8.self)
            webContent.append(Row(
                pid: pid, priority: priorityColumn.flatMap { Int(String(decoding: fields[$0], as: UTF8.self)) },
                residentKiB: rssColumn.flatMap { Int(String(decoding: fields[$0], as: UTF8.self)) }, command: command))
        }
    }

    /// `4120 (priority 4, 28.1 MiB)`.
    package static func words(_ row: Row) -> String {
        var facts: [String] = []
        if let priority = row.priority { facts.append("priority \(priority)") }
        if let kib = row.residentKiB { facts.append("\((Double(kib) / 102.4).rounded() / 10) MiB") }
        return "\(row.pid)" + (facts.isEmpty ? "" : " (" + facts.joined(separator: ", ") + ")")
    }
}

/// What a sysdiagnose's name says: `sysdiagnose_2026.01.02_03-04-05-0500_iPhone-OS_iPhone_23A000`, the moment it
/// was captured (with its zone) and the device's build.
package enum SysdiagnoseName {
    /// The capture time in microseconds since 1970 UTC and the build, from the first path component so named.
    package static func parse(_ path: String) -> (time: Int?, build: String?)? {
        guard let component = path.split(whereSeparator: { $0 == "/" || $0 == ":" }).first(where: { $0.hasPrefix("sysdiagnose_") })
        else { return nil }
        let parts = component.split(separator: "_")
        let build = parts.count >= 5 ? String(parts[parts.count - 1]) : nil
        guard parts.count >= 3 else { return (nil, build) }
        let date = parts[1].split(separator: ".").compactMap { Int($0) }
        // `03-04-05-0500`: the time, then the zone with its sign.
        let clock = parts[2]
        guard date.count == 3, clock.count >= 13 else { return (nil, build) }
        let time = clock.prefix(8).split(separator: "-").compactMap { Int($0) }
        let sign = clock.dropFirst(8).first == "-" ? -1 : 1
        guard time.count == 3, let zone = Int(clock.dropFirst(9).prefix(4)) else { return (nil, build) }
        let days = LogTime.days(year: date[0], month: date[1], day: date[2])
        let local = days * LogTime.microsecondsPerDay + ((time[0] * 60 + time[1]) * 60 + time[2]) * 1_000_000
        return (local - sign * ((zone / 100) * 60 + zone % 100) * 60_000_000, build)
    }
}
