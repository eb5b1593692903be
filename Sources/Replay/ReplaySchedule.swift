import Events
import Vocabulary

/// What `analyze --replay` writes and `compare --replay` runs: for each incident a user's logs showed, the moments
/// of its worker's life that reproduce it. A person can write one by hand; the format is JSON, versioned:
///
/// ```
/// {"format": "supervisor-replay", "version": 1, "sources": ["device.log"],
///  "incidents": [
///   {"id": "pid 4107", "kind": "killed-before-render",
///    "attachMs": [2, 6],          // launch → the raise (the view attaching): a number, or the [low, high] it lies in
///    "deathMs": 3.1,              // launch → death, the same way
///    "band": "background",        // the band at death: foreground, boosted, background, hidden, suspended, or null
///    "rendered": false,           // whether it had rendered; or null, unknown
///    "cause": "kill",             // kill (from outside: jetsam, a signal), crash, hang, or unknown
///    "detail": "jetsam: per-process-limit",
///    "evidence": ["device.log:1412 ... Specified target process does not exist"]}]}
/// ```
/// Every key of an incident is required (null where the format says so), and no key may be given twice; `detail` and
/// `evidence` may be empty. A schedule holds at most 10,000 incidents, each quoting at most 100 lines, in at most
/// 64 MiB (`fileLimit` and the limits beside it).
public struct ReplaySchedule: Equatable, Sendable {
    public static let format = "supervisor-replay"
    public static let version = 1

    public var sources: [String]
    public var incidents: [ReplayIncident]

    public init(sources: [String], incidents: [ReplayIncident]) {
        self.sources = sources
        self.incidents = incidents
    }

    /// Whether `head`, a file's first bytes, begins as a schedule does: an object whose first key is `format`,
    /// naming this format (as `analyze --replay` writes it, and as the example above is laid out by hand).
    public static func begins(_ head: some Collection<UInt8>) -> Bool {
        let blank = Set(" \n\t\r".utf8)
        var rest = head[...]
        for token in ["{", #""format""#, ":", "\"\(format)\""] {
            rest = rest.drop { blank.contains($0) }
            guard rest.starts(with: token.utf8) else { return false }
            rest = rest.dropFirst(token.utf8.count)
        }
        return true
    }
}

/// One incident, as moments of its worker's life measured from its launch.
public struct ReplayIncident: Equatable, Sendable {
    /// A moment known exactly, or only the interval it lies in; milliseconds after the worker's launch.
    public struct Span: Equatable, Sendable {
        public let lowMs: Double
        public let highMs: Double

        public init(_ ms: Double) { (lowMs, highMs) = (ms, ms) }

        /// The latest moment a schedule may name: an hour after launch.
        public static let limitMs = 3_600_000.0

        /// Nil unless `0 <= low <= high <= limitMs`.
        public init?(lowMs: Double, highMs: Double) {
            guard lowMs >= 0, lowMs <= highMs, highMs <= Self.limitMs else { return nil }
            (self.lowMs, self.highMs) = (lowMs, highMs)
        }

        public var exact: Bool { lowMs == highMs }

        /// The moment `fraction` (0…1) of the way through the span.
        public func at(_ fraction: Double) -> Double { lowMs + (highMs - lowMs) * fraction }
    }

    public enum Cause: String, Sendable, CaseIterable {
        /// Killed from outside: Jetsam, the OOM killer, a signal nobody in the app sent.
        case kill
        case crash
        /// Stopped answering, and killed for it.
        case hang
        case unknown
    }

    public var id: String
    /// The analyzer's incident kind: a WebContent death (`IncidentKind.isReplayable`).
    public var kind: IncidentKind
    /// Whether the incident is a death before the view attached: that is what a replay must reproduce.
    public var diesBeforeAttach: Bool { kind.diesBeforeAttach }
    /// Whether the kill was for the process's own memory limit (Jetsam's reason `per-process-limit`, which the
    /// analyzer writes into `detail` as the killer gave it): it takes the process whatever its band.
    public var killedForItsOwnLimit: Bool { detail.contains(Self.ownLimitReason) }
    public static let ownLimitReason = "per-process-limit"
    public var attach: Span
    public var death: Span
    public var band: PriorityBand?
    public var rendered: Bool?
    public var cause: Cause
    /// What else the evidence said of the death: for a kill, the killer's reason as written (`jetsam:
    /// per-process-limit`).
    public var detail: String
    public var evidence: [String]

    public init(
        id: String, kind: IncidentKind, attach: Span, death: Span, band: PriorityBand?, rendered: Bool?, cause: Cause,
        detail: String = "", evidence: [String] = []
    ) {
        self.id = id
        self.kind = kind
        self.attach = attach
        self.death = death
        self.band = band
        self.rendered = rendered
        self.cause = cause
        self.detail = detail
        self.evidence = evidence
    }
}
