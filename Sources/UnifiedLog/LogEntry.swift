/// One entry of the log, as `log show` names its fields: when, which process and thread, what kind, from which
/// subsystem, category and image, and its message, made from its format string and arguments.
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
    /// The process's executable, from its uuidtext file; empty when the archive lacks it.
    public var processImagePath = ""
    /// The image that wrote the entry, and its path; nil and empty when its strings file is not in the archive.
    public var senderImageUUID: LogUUID?
    public var senderImagePath = ""
    /// Empty when its strings file is not in the archive (then `message` is empty too).
    public var formatString = ""
    /// The message: a log entry's formatted, a state entry's title.
    public var message: String

    public init(
        continuousTime: UInt64, wallNanoseconds: Int, pid: UInt32, thread: UInt64, eventType: EventType,
        messageType: MessageType?, subsystem: String, category: String, activityID: UInt64, message: String
    ) {
        self.continuousTime = continuousTime
        self.wallNanoseconds = wallNanoseconds
        self.pid = pid
        self.thread = thread
        self.eventType = eventType
        self.messageType = messageType
        self.subsystem = subsystem
        self.category = category
        self.activityID = activityID
        self.message = message
    }
}

/// Who wrote an entry, all a reader needs to keep it or pass it over before its message is made.
public struct EntryWriter: Sendable {
    public let pid: UInt32
    /// The process's executable; empty when the archive lacks its uuidtext file.
    public let processImagePath: String
    public let subsystem: String
    public let category: String
}
