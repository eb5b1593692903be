import Glibc
import System
import Text

/// A zone of the tz database, read from its TZif file (RFC 8536) under /usr/share/zoneinfo: no package and no
/// change to this process's TZ, so analyses in other zones can run side by side. Offsets come from the file's
/// transitions, and past the last one from its footer rule (`PST8PDT,M3.2.0,M11.1.0`), which is all that "slim"
/// files carry for years to come.
public struct ZoneInfo: Sendable {
    public let name: String
    /// Transition instants (seconds since 1970 UTC), ascending, and the offset in force from each.
    private var transitions: [Int] = []
    private var offsets: [Int] = []
    /// The offset before the first transition.
    private var initial = 0
    private var rule: ZoneRule?

    package static let directory = "/usr/share/zoneinfo/"

    /// Reads `name`'s file. Names are paths below the database folder, so `..` and absolute paths are refused.
    package init(named name: String) throws(ZoneError) {
        let valid = name.utf8.allSatisfy { byte in
            byte &- 97 < 26 || byte &- 65 < 26 || byte &- 48 < 10 || byte == 95 || byte == 45 || byte == 43 || byte == 47
        }
        guard valid, !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
            throw ZoneError("'\(name)' is not a zone: give +HHMM, UTC, or a name such as America/Los_Angeles")
        }
        let bytes: [UInt8]
        do {
            let file = try Sys.open(Self.directory + name, O_RDONLY)
            bytes = try Sys.readAll(file.rawValue, limit: 1 << 20)
        } catch {
            throw ZoneError("unknown zone '\(name)' (no such file in \(Self.directory))")
        }
        guard let info = ZoneInfo(name: name, tzif: bytes) else {
            throw ZoneError("cannot read zone '\(name)': \(Self.directory)\(name) is not a TZif file")
        }
        self = info
    }

    /// Parses a TZif file: version 2 and later carry 64-bit times after a 32-bit block, which is skipped.
    package init?(name: String, tzif bytes: [UInt8]) {
        self.name = name
        guard bytes.count >= 44, bytes.starts(with: [84, 90, 105, 102]) else { return nil }
        var header = 0
        var width = 4
        if bytes[4] >= 50 {
            guard let counts = Self.counts(bytes, at: 0) else { return nil }
            header = 44 + counts.blockLength(width: 4)
            width = 8
        }
        guard let counts = Self.counts(bytes, at: header) else { return nil }
        var i = header + 44
        let end = i + counts.blockLength(width: width)
        guard end <= bytes.count, counts.types > 0 else { return nil }
        let times = (0..<counts.times).map { Self.signed(bytes, at: i + $0 * width, width: width) }
        i += counts.times * width
        let indices = bytes[i..<i + counts.times].map(Int.init)
        i += counts.times
        let types = (0..<counts.types).map { Self.signed(bytes, at: i + $0 * 6, width: 4) }
        guard indices.allSatisfy({ $0 < types.count }) else { return nil }
        transitions = times
        offsets = indices.map { types[$0] }
        initial = types[0]
        if width == 8, end < bytes.count, bytes[end] == 10, let close = bytes[(end + 1)...].firstIndex(of: 10) {
            rule = ZoneRule(Array(bytes[(end + 1)..<close]))
        }
    }

    /// Seconds east of UTC at `instant` (seconds since 1970 UTC).
    package func secondsEast(at instant: Int) -> Int {
        if let last = transitions.last, instant >= last, let rule { return rule.secondsEast(at: instant) }
        var low = 0
        var high = transitions.count
        while low < high {
            let mid = (low + high) / 2
            if transitions[mid] <= instant { low = mid + 1 } else { high = mid }
        }
        if low > 0 { return offsets[low - 1] }
        return transitions.isEmpty ? rule?.secondsEast(at: instant) ?? initial : initial
    }

    private struct Counts {
        package var utIndicators: Int, standardIndicators: Int, leaps: Int, times: Int, types: Int, characters: Int

        package func blockLength(width: Int) -> Int {
            times * (width + 1) + types * 6 + characters + leaps * (width + 4) + standardIndicators + utIndicators
        }
    }

    private static func counts(_ bytes: [UInt8], at header: Int) -> Counts? {
        guard header + 44 <= bytes.count, bytes[header..<header + 4].elementsEqual([84, 90, 105, 102]) else { return nil }
        let n = (0..<6).map { signed(bytes, at: header + 20 + $0 * 4, width: 4) }
        guard n.allSatisfy({ (0...1_000_000).contains($0) }) else { return nil }
        return Counts(utIndicators: n[0], standardIndicators: n[1], leaps: n[2], times: n[3], types: n[4], characters: n[5])
    }

    /// A big-endian two's-complement integer of 4 or 8 bytes.
    private static func signed(_ bytes: [UInt8], at i: Int, width: Int) -> Int {
        var value: UInt64 = 0
        for k in 0..<width { value = value << 8 | UInt64(bytes[i + k]) }
        return width == 4 ? Int(Int32(bitPattern: UInt32(value))) : Int(Int64(bitPattern: value))
    }
}

/// A POSIX TZ rule, as a TZif footer gives it: `EST5EDT,M3.2.0,M11.1.0`, `<+0330>-3:30`, `IST-1GMT0,M10.5.0,M3.5.0/1`.
/// POSIX writes offsets west of UTC; they are kept here east of it.
package struct ZoneRule: Sendable {
    package var standard: Int
    package var daylight: (offset: Int, start: Change, end: Change)?

    /// A day of the year and a local time (seconds, standard time before `start` and daylight time before `end`).
    package struct Change: Sendable {
        package enum Day: Sendable {
            /// `Mm.w.d`: day `d` (0 is Sunday) of week `w` of month `m`, week 5 meaning the last.
            case weekday(month: Int, week: Int, day: Int)
            /// `Jn`: day 1...365, February 29 never counted.
            case julian(Int)
            /// `n`: day 0...365, February 29 counted.
            case ordinal(Int)
        }
        package var day: Day
        package var time = 7200
    }

    package init?(_ text: [UInt8]) {
        var i = 0
        guard Self.skipName(text, &i), let standard = Self.time(text, &i) else { return nil }
        self.standard = -standard
        guard i < text.count else { return }
        guard Self.skipName(text, &i) else { return nil }
        var daylight = self.standard + 3600
        if i < text.count, text[i] != 44 {
            guard let west = Self.time(text, &i) else { return nil }
            daylight = -west
        }
        guard i < text.count, text[i] == 44 else { return nil }
        i += 1
        guard let start = Self.change(text, &i), i < text.count, text[i] == 44 else { return nil }
        i += 1
        guard let end = Self.change(text, &i), i == text.count else { return nil }
        self.daylight = (daylight, start, end)
    }

    package func secondsEast(at instant: Int) -> Int {
        guard let daylight else { return standard }
        let year = LogTime.civil((instant + standard).floorDivided(by: 86_400)).year
        let start = daylight.start.instant(year: year) - standard
        let end = daylight.end.instant(year: year) - daylight.offset
        let inside = start < end ? instant >= start && instant < end : instant >= start || instant < end
        return inside ? daylight.offset : standard
    }

    /// A zone abbreviation: letters, or anything between `<` and `>`.
    private static func skipName(_ text: [UInt8], _ i: inout Int) -> Bool {
        let start = i
        if i < text.count, text[i] == 60 {
            guard let close = text[i...].firstIndex(of: 62) else { return false }
            i = close + 1
            return true
        }
        while i < text.count, (text[i] | 0x20) &- 97 < 26 { i += 1 }
        return i - start >= 3
    }

    /// `[+-]hh[:mm[:ss]]` in seconds.
    private static func time(_ text: [UInt8], _ i: inout Int) -> Int? {
        var sign = 1
        if i < text.count, text[i] == 43 || text[i] == 45 {
            sign = text[i] == 45 ? -1 : 1
            i += 1
        }
        var total = 0
        for (part, scale) in [(0, 3600), (1, 60), (2, 1)] {
            if part > 0 {
                guard i < text.count, text[i] == 58 else { break }
                i += 1
            }
            guard let value = number(text, &i) else { return nil }
            total += value * scale
        }
        return sign * total
    }

    private static func change(_ text: [UInt8], _ i: inout Int) -> Change? {
        guard i < text.count else { return nil }
        var change: Change
        if text[i] == 77 {
            i += 1
            guard let month = number(text, &i), i < text.count, text[i] == 46 else { return nil }
            i += 1
            guard let week = number(text, &i), i < text.count, text[i] == 46 else { return nil }
            i += 1
            guard let day = number(text, &i), (1...12).contains(month), (1...5).contains(week), day < 7 else { return nil }
            change = Change(day: .weekday(month: month, week: week, day: day))
        } else if text[i] == 74 {
            i += 1
            guard let day = number(text, &i), (1...365).contains(day) else { return nil }
            change = Change(day: .julian(day))
        } else {
            guard let day = number(text, &i), day <= 365 else { return nil }
            change = Change(day: .ordinal(day))
        }
        if i < text.count, text[i] == 47 {
            i += 1
            guard let time = time(text, &i) else { return nil }
            change.time = time
        }
        return change
    }

    private static func number(_ text: [UInt8], _ i: inout Int) -> Int? {
        let start = i
        var value = 0
        while i < text.count, text[i] &- 48 < 10, i - start < 4 {
            value = value * 10 + Int(text[i] - 48)
            i += 1
        }
        return i > start ? value : nil
    }
}

extension ZoneRule.Change {
    /// The local clock reading of this change in `year`, in seconds since 1970 as if it were UTC.
    package func instant(year: Int) -> Int {
        let newYear = LogTime.days(year: year, month: 1, day: 1)
        let leap = LogTime.days(year: year, month: 3, day: 1) - LogTime.days(year: year, month: 2, day: 1) == 29
        let date: Int
        switch day {
        case .julian(let n):
            date = newYear + n - 1 + (leap && n >= 60 ? 1 : 0)
        case .ordinal(let n):
            date = newYear + n
        case .weekday(let month, let week, let weekday):
            let first = LogTime.days(year: year, month: month, day: 1)
            let next = month == 12 ? LogTime.days(year: year + 1, month: 1, day: 1) : LogTime.days(year: year, month: month + 1, day: 1)
            // 1970-01-01 was a Thursday.
            let firstWeekday = ((first + 4) % 7 + 7) % 7
            var candidate = first + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            while candidate >= next { candidate -= 7 }
            date = candidate
        }
        return date * 86_400 + time
    }
}

extension Int {
    /// Division rounding toward negative infinity, for instants before 1970.
    package func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return self % divisor < 0 ? quotient - 1 : quotient
    }
}
