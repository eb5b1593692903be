/// `supervisor log show`: Apple's binary unified log read on Linux, printed as `log show --style ndjson` prints it.
public struct LogOptions: Sendable {
    public let subsystem = Option(
        "--subsystem",
        ValueKind<String>(placeholder: "<name>", read: { name, text throws(UsageError) in
            guard !text.isEmpty else { throw UsageError("'\(name)' needs a subsystem name, not an empty one") }
            return text
        }, show: { $0 }),
        help: "Only entries of this subsystem (repeatable: any of them).")
    public let process = Option(
        "--process",
        ValueKind<Int>(placeholder: "<pid>", read: { name, text throws(UsageError) in
            guard let pid = Int(text), pid >= 0 else { throw UsageError("'\(name)' takes a pid, not '\(text)'") }
            return pid
        }, show: { String($0) }),
        help: "Only entries of this process id (repeatable: any of them).")

    public var table: OptionTable { OptionTable([subsystem, process], arguments: true) }

    public var help: CommandHelp {
        CommandHelp(
            name: "log", abstract: "Print the entries of Apple's binary unified log (tracev3), as 'log show' does.",
            overview: """
                Print the entries of Apple's binary unified log, read on Linux by our own reader: a
                .tracev3 file, or a folder (a .logarchive, a sysdiagnose's system_logs.logarchive) whose .tracev3
                files are all read.

                Each entry is one JSON object a line, time-sorted, with the field names of Apple's
                'log show --style ndjson': timestamp (UTC), machTimestamp, processID, threadID, eventType,
                messageType, subsystem, category, activityIdentifier, eventMessage. Log entries and state entries
                are printed; activities, traces, signposts and losses are counted on standard error. The messages
                are not formatted yet (eventMessage is empty for a log entry, and a statedump's title for a state
                entry). A part that cannot be read is one line on standard error, and the rest is read on.
                """,
            usage: "supervisor log show <file.tracev3|folder> [--subsystem <name>]... [--process <pid>]...",
            tables: [("SHOW OPTIONS", table)])
    }
}
