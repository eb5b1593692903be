import Events
import Glibc
import Text

/// The zone a time written without one is read in. idevicesyslog, `log show --style compact` and Console copies
/// name no zone; read as UTC, their lines land hours away from the same device's Xcode log and an incident told
/// half in each is lost. A line that names its zone is always read in that zone.
public enum LogZone: Sendable {
    /// A fixed offset, in seconds east of UTC: `+0100`, `-07:00`, `UTC`.
    case offset(Int)
    /// A zone of the tz database, with its changes of offset: `America/Los_Angeles`.
    case named(ZoneInfo)
    /// This machine's zone (TZ, else /etc/localtime), as the C library resolves it for each time.
    case local

    /// A `--tz` value: `+0100`, `-07:00`, `+05`, `UTC` or `Z`, `local`, or a tz database name.
    public init(parsing text: String) throws(ZoneError) {
        let bytes = Array(text.utf8)
        if ["utc", "z", "gmt"].contains(text.lowercased()) {
            self = .offset(0)
        } else if text == "local" {
            self = .local
        } else if bytes.first == 43 || bytes.first == 45 {
            guard let seconds = Self.signedOffset(bytes) else {
                throw ZoneError("'\(text)' is not a zone offset: write it as +HHMM, +HH:MM or +HH")
            }
            self = .offset(seconds)
        } else {
            self = .named(try ZoneInfo(named: text))
        }
    }

    /// Seconds east of UTC in force at `instant`, in seconds since 1970 UTC.
    package func secondsEast(at instant: Int) -> Int {
        switch self {
        case .offset(let seconds):
            return seconds
        case .named(let info):
            return info.secondsEast(at: instant)
        case .local:
            var seconds = time_t(instant)
            var parts = tm()
            localtime_r(&seconds, &parts)
            return parts.tm_gmtoff
        }
    }

    /// Seconds east of UTC for a clock reading of this zone, given in microseconds as if it were UTC: the offset in
    /// force at the instant that reading names. A reading inside a spring-forward gap gets the offset before it.
    package func secondsEast(atWall micros: Int) -> Int {
        let wall = micros / 1_000_000
        let first = secondsEast(at: wall)
        let second = secondsEast(at: wall - first)
        return second == first ? first : secondsEast(at: wall - second)
    }

    /// `+0100`, `UTC`, `America/Los_Angeles` or `local time`: how a person named it.
    public var name: String {
        switch self {
        case .offset(0): "UTC"
        case .offset(let seconds): Self.offsetText(seconds)
        case .named(let info): info.name
        case .local: "local time"
        }
    }

    /// `+0100` or `-0730`.
    package static func offsetText(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + zeroPadded(minutes / 60, 2) + zeroPadded(minutes % 60, 2)
    }

    /// `+HHMM`, `+HH:MM` or `+HH` (either sign), hours up to 14 as real zones have.
    private static func signedOffset(_ bytes: [UInt8]) -> Int? {
        let digits = bytes.dropFirst().filter { $0 != 58 }
        let colons = bytes.count - 1 - digits.count
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0 &- 48 < 10 }),
            colons == 0 || (colons == 1 && bytes.count == 6 && bytes[3] == 58)
        else { return nil }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
        let (hours, minutes) = digits.count == 2 ? (value, 0) : (value / 100, value % 100)
        guard hours <= 14, minutes < 60 else { return nil }
        return (bytes[0] == 45 ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}

/// A zone that cannot be read: the message names the value and says what was expected, in one line.
public struct ZoneError: Error, CustomStringConvertible {
    public let description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// The zone an analysis reads times written without one in, and why. The rule: `--tz` when given, else the zone
/// the other files of the same device write, else this machine's zone.
public struct ZoneAssumption: Sendable {
    public enum Reason: Sendable {
        /// `--tz`.
        case option
        /// The zone the other input files write in their dated lines.
        case otherFiles
        /// No file wrote a zone: this machine's.
        case machine
    }

    public let zone: LogZone
    public let reason: Reason
    /// The year of dates written without one (idevicesyslog): that of the other files' first dated line, so that its
    /// lines meet theirs. nil leaves such dates in 1970, apart from every dated file.
    public let year: Int?

    public static let machine = ZoneAssumption(zone: .local, reason: .machine, year: nil)

    public init(zone: LogZone, reason: Reason, year: Int?) {
        self.zone = zone
        self.reason = reason
        self.year = year
    }

    /// The rule, given `--tz` and what each input's first dated lines write (nil for a file that writes no zone).
    /// When the files write different zones, the one most of them write is taken, the earliest file breaking ties.
    public init(option: LogZone?, written: [WrittenClock?]) {
        let clocks = written.compactMap(\.self)
        var counts: [Int: Int] = [:]
        for clock in clocks { counts[clock.zoneSeconds, default: 0] += 1 }
        let common = clocks.first { counts[$0.zoneSeconds] == counts.values.max() }
        let year = (common ?? clocks.first).map { LogTime.civil($0.day).year }
        if let option {
            self.init(zone: option, reason: .option, year: year)
        } else if let common {
            self.init(zone: .offset(common.zoneSeconds), reason: .otherFiles, year: year)
        } else {
            self.init(zone: .local, reason: .machine, year: nil)
        }
    }

    /// `-0700 (the zone the other files write)`: for the summary's word on each file read in it.
    public var description: String {
        switch reason {
        case .option: "\(zone.name) (--tz)"
        case .otherFiles: "\(zone.name) (the zone the other files write)"
        case .machine: "this machine's \(zone.name)"
        }
    }
}

extension AnalysisReport {
    /// One line per file whose times named no zone: the zone they were read in, and why.
    public var zoneNotes: [String] {
        assumedZones.sorted { $0.key < $1.key }.map { "\(visible(files[$0.key])): times without a zone read as \($0.value.description)." }
    }
}
