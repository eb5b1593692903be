import Glibc

/// One thing that happened, as it is written to the log.
public struct Event: Sendable {
    public let name: String
    /// CLOCK_MONOTONIC nanoseconds: the clock for every latency.
    public let monotonic: Int
    public let wall: Int
    public let view: Int?
    public let pid: Int32?
    public let fields: [(String, JSON)]

    public subscript(key: String) -> JSON? { fields.first { $0.0 == key }?.1 }

    /// The JSON Lines record: time, mono, event, view, pid, then the fields.
    public var json: JSON {
        var members: [(String, JSON)] = [
            ("time", .string(isoTime(wall))), ("mono", .int(monotonic)), ("event", .string(name)),
        ]
        if let view { members.append(("view", .int(view))) }
        if let pid { members.append(("pid", .int(Int(pid)))) }
        return .object(members + fields)
    }
}

/// The single record of a run. Counters and summaries are computed from these events by observers, not kept on
/// the side, so the log and the summary cannot disagree.
///
/// Lines are buffered and written once per event-loop wake-up, so a burst of events costs one write(2).
public final class EventLog {
    private let output: OutputFile?
    private var pending = ""
    /// Called for every event, on the event loop's thread, in order.
    public var observers: [(Event) -> Void] = []
    /// Called with every flush, for observers that buffer output of their own; each returns the error of a
    /// write that failed.
    public var flushers: [() -> FileError?] = []
    /// The first write that failed, here or in a flusher: from then on events are being lost, and the run must
    /// stop and say so.
    public private(set) var writeError: FileError?

    /// A log that writes JSON Lines to `output`, or only informs observers when it is nil.
    public init(output: OutputFile? = nil) {
        self.output = output
    }

    deinit {
        flush()
    }

    public func emit(_ name: String, view: Int? = nil, pid: Int32? = nil, _ fields: [(String, JSON)] = []) {
        let event = Event(
            name: name, monotonic: Sys.monotonicNanoseconds(), wall: Sys.wallNanoseconds(), view: view, pid: pid,
            fields: fields)
        if output != nil {
            event.json.write(to: &pending)
            pending += "\n"
        }
        for observer in observers { observer(event) }
    }

    public func flush() {
        for flusher in flushers {
            if let error = flusher(), writeError == nil { writeError = error }
        }
        guard let output, !pending.isEmpty else { return }
        let text = pending
        pending = ""
        // Once a write failed, nothing more is written: lines after a hole would pass for a whole log.
        guard writeError == nil else { return }
        do {
            try output.write(text)
        } catch {
            if writeError == nil { writeError = error }
        }
    }
}

/// `2026-11-22T06:19:13.123456Z` from CLOCK_REALTIME nanoseconds.
func isoTime(_ nanoseconds: Int) -> String {
    let (date, time, _) = calendarParts(nanoseconds, local: false)
    return "\(date)T\(time)Z"
}

/// `2026-11-22`, `06:19:13.123456` and the zone offset in minutes, in UTC or local time.
func calendarParts(_ nanoseconds: Int, local: Bool) -> (date: String, time: String, offsetMinutes: Int) {
    var seconds = time_t(nanoseconds / 1_000_000_000)
    var parts = tm()
    if local { localtime_r(&seconds, &parts) } else { gmtime_r(&seconds, &parts) }
    let p = zeroPadded
    return (
        "\(p(Int(parts.tm_year) + 1900, 4))-\(p(Int(parts.tm_mon) + 1, 2))-\(p(Int(parts.tm_mday), 2))",
        "\(p(Int(parts.tm_hour), 2)):\(p(Int(parts.tm_min), 2)):\(p(Int(parts.tm_sec), 2)).\(p((nanoseconds % 1_000_000_000) / 1000, 6))",
        parts.tm_gmtoff / 60
    )
}

func zeroPadded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
