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
        ValueKind<String>(placeholder: "<pid|name>", read: { name, text throws(UsageError) in
            guard !text.isEmpty, !text.hasPrefix("-") else { throw UsageError("'\(name)' takes a pid or a process name, not '\(text)'") }
            return text
        }, show: { $0 }),
        help: "Only entries of this process, by pid or executable name (repeatable: any of them).")

    public let stats = Flag("--stats", help: "Add the time taken and the peak memory to the summary on standard error.")

    public var table: OptionTable { OptionTable([subsystem, process, stats], arguments: true) }

    public var help: CommandHelp {
        CommandHelp(
            name: "log", abstract: "Print the entries of Apple's binary unified log (tracev3), as 'log show' does.",
            overview: """
                Print the entries of Apple's binary unified log, read on Linux by our own reader: a
                .tracev3 file, or a folder (a .logarchive, a sysdiagnose's system_logs.logarchive) whose .tracev3
                files are all read.

                Each entry is one JSON object a line, time-sorted, with the field names of Apple's
                'log show --style ndjson': timestamp (UTC), machTimestamp, processID, threadID, eventType,
                messageType, subsystem, category, activityIdentifier, processImagePath, senderImagePath,
                senderImageUUID, formatString, eventMessage. Messages are made from the archive's uuidtext and dsc
                files, with <private> where the log hid a value; without them, eventMessage is empty and standard
                error says how many. Log and state entries are printed; activities, traces, signposts and losses
                are counted on standard error. The filters are applied before a message is made. A part that
                cannot be read is one line on standard error, and the rest is read on.
                """,
            usage: "supervisor log show <file.tracev3|folder> [--subsystem <name>]... [--process <pid|name>]... [--stats]",
            tables: [("SHOW OPTIONS", table)])
    }
}
