import Events
import UnifiedLog

extension LogEntry {
    /// The entry with Apple's field names, as `log show --style ndjson` writes it; a sender the archive cannot name
    /// is null.
    public var ndjson: JSON {
        .object([
            ("timestamp", .string(Self.timestamp(wallNanoseconds))), ("machTimestamp", .int(Int(clamping: continuousTime))),
            ("processID", .int(Int(pid))), ("threadID", .int(Int(clamping: thread))), ("eventType", .string(eventType.rawValue)),
            ("messageType", messageType.map { .string($0.rawValue) } ?? .null), ("subsystem", .string(subsystem)),
            ("category", .string(category)), ("activityIdentifier", .int(Int(clamping: activityID))),
            ("processImagePath", .string(processImagePath)), ("senderImagePath", .string(senderImagePath)),
            ("senderImageUUID", senderImageUUID.map { .string($0.description) } ?? .null),
            ("formatString", .string(formatString)), ("eventMessage", .string(message)),
        ])
    }

    /// `2022-05-30 00:38:21.053672+0000`: UTC, to the microsecond, as `log show` writes a time.
    public static func timestamp(_ nanoseconds: Int) -> String {
        let (date, time, _) = calendarParts(nanoseconds, local: false)
        return "\(date) \(time)+0000"
    }
}
