/// The editor's audit as its `editor` event tells it at the end of a run. Every count is required: a field that is
/// missing or renamed is an error the summary reports, never a zero that would read as "nothing lost".
public struct EditorAudit: Sendable {
    public let typed: Int
    public let restored: Int
    /// Nil when the run kept no journal.
    public let saved: Int?
    public let replayed: Int
    public let lost: Int
    public let duplicate: Int
    /// Typing ticks that waited for the worker.
    public let deferred: Int

    /// A field the summary needs that an event lacks.
    public struct MissingField: Error, CustomStringConvertible {
        public let event: String
        public let field: String
        public var description: String { "the '\(event)' event has no '\(field)'" }
    }

    init(_ event: Event) throws(MissingField) {
        func count(_ field: String) throws(MissingField) -> Int {
            guard let value = event[field]?.integer else { throw MissingField(event: event.name, field: field) }
            return value
        }
        typed = try count("typed")
        restored = try count("restored")
        guard let saved = event["saved"] else { throw MissingField(event: event.name, field: "saved") }
        self.saved = saved.integer
        replayed = try count("replayed")
        lost = try count("lostInputs")
        duplicate = try count("duplicateInputs")
        deferred = try count("deferred")
    }
}
