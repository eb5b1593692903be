import Events
import System

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
    /// The clock events are stamped by: the supervisor's, once one runs on this log.
    package var now: () -> Int = Sys.monotonicNanoseconds

    /// What `run --log` writes: JSON Lines in the envelope of `Event.json`, `{"time":"…","mono":…,"event":…`,
    /// whatever the event and the schema's version.
    public static let outputKind = OutputKind(role: "the event log", name: "an event log", isLog: true) { head in
        let line = String(decoding: head.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        return line.hasPrefix(#"{"time":""#) && line.contains(#"","mono":"#) && line.contains(#","event":""#)
    }

    /// A log that writes JSON Lines to `output`, or only informs observers when it is nil.
    public init(output: OutputFile? = nil) {
        self.output = output
    }

    deinit {
        flush()
    }

    public func emit(_ kind: SupervisorEvent, view: Int? = nil, pid: Int32? = nil) {
        let event = Event(kind, monotonic: now(), wall: Sys.wallNanoseconds(), view: view, pid: pid)
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
