/// One entry of the log, as `log show` names its fields: when, which process and thread, what kind, and from which
/// subsystem and category. The message, formatted from its format string and arguments, comes later.
public struct LogEntry: Equatable, Sendable {
    /// `eventType`, as `log show --style ndjson` spells it.
    public enum EventType: String, Sendable {
        case log = "logEvent"
        case state = "stateEvent"
    }

    /// `messageType`: a log entry's level (`log show` writes none for a state entry).
    public enum MessageType: String, Sendable {
        case `default` = "Default", info = "Info", debug = "Debug", error = "Error", fault = "Fault"

        init?(logType: UInt8) {
            switch logType {
            case 0x00: self = .default
            case 0x01: self = .info
            case 0x02: self = .debug
            case 0x10: self = .error
            case 0x11: self = .fault
            default: return nil
            }
        }
    }

    /// Mach continuous time, in ticks of the file's timebase.
    public let continuousTime: UInt64
    /// Nanoseconds since 1970, UTC.
    public let wallNanoseconds: Int
    public let pid: UInt32
    public let thread: UInt64
    public let eventType: EventType
    public let messageType: MessageType?
    /// Empty when the entry names none.
    public let subsystem: String
    public let category: String
    public let activityID: UInt64
    /// The message: a state entry's title for now; empty for a log entry until format strings are read.
    public let message: String
}
