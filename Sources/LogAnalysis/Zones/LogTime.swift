import Events
import Text

/// Times in logs. The analyzer keeps microseconds since 1970 in UTC: a line that names its zone is read in it, and
/// one that does not (idevicesyslog, `log show --style compact`, Console copies) in the zone assumed for the
/// analysis (`ZoneAssumption`), so that it meets the same device's other files.
package enum LogTime {
    package static let microsecondsPerDay = 86_400_000_000
    /// Times are shown through nanoseconds since 1970, which end in April 2262: a time is read only before 2262 and
    /// from 1970 on.
    package static let readableMicros = 0..<(days(year: 2262, month: 1, day: 1) * microsecondsPerDay)

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day counted from 1970-01-01 (Hinnant's `civil_from_days`).
    package static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `YYYY-MM-DD`, or `YY-MM-DD` as a copy that lost the century leaves it, at `i`.
    package static func date(_ line: Span<UInt8>, at i: Int) -> (days: Int, end: Int)? {
        var year: Int
        var j = i
        if let four = line.number(at: j, width: 4), line.byte(j + 4) == 45 {
            year = four
            j += 5
        } else if let two = line.number(at: j, width: 2), line.byte(j + 2) == 45 {
            year = 2000 + two
            j += 3
        } else {
            return nil
        }
        guard let month = line.number(at: j, width: 2), line.byte(j + 2) == 45, (1...12).contains(month),
            let day = line.number(at: j + 3, width: 2), (1...31).contains(day)
        else { return nil }
        guard year <= 2261 else { return nil }  // `readableMicros`
        if year < 1970 { year = 1970 }
        return (days(year: year, month: month, day: day), j + 5)
    }

    /// `HH:MM:SS` with an optional fraction of any length, at `i`: microseconds into the day.
    package static func timeOfDay(_ line: Span<UInt8>, at i: Int) -> (micros: Int, end: Int, fraction: Bool)? {
        guard let hour = line.number(at: i, width: 2), line.byte(i + 2) == 58,
            let minute = line.number(at: i + 3, width: 2), line.byte(i + 5) == 58,
            let second = line.number(at: i + 6, width: 2), hour < 24, minute < 60, second < 61
        else { return nil }
        var micros = ((hour * 60 + minute) * 60 + second) * 1_000_000
        var j = i + 8
        guard line.byte(j) == 46 || line.byte(j) == 44, line.isDigit(j + 1) else { return (micros, j, false) }
        j += 1
        var scale = 100_000
        while line.isDigit(j) {
            micros += Int(line[j] - 48) * scale
            scale /= 10
            j += 1
        }
        return (micros, j, true)
    }

    /// `+HHMM`, `-HHMM` or `+HH:MM`, at `i`: the offset from UTC in seconds.
    package static func zone(_ line: Span<UInt8>, at i: Int) -> (seconds: Int, end: Int)? {
        let sign = line.byte(i)
        guard sign == 43 || sign == 45, let hours = line.number(at: i + 1, width: 2) else { return nil }
        let colon = line.byte(i + 3) == 58 ? 1 : 0
        guard let minutes = line.number(at: i + 3 + colon, width: 2), hours < 15, minutes < 60 else { return nil }
        return ((sign == 45 ? -1 : 1) * (hours * 3600 + minutes * 60), i + 5 + colon)
    }

    package static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map {
        Array($0.utf8)
    }

    /// A month's three-letter English name at `i`: 1 to 12.
    package static func month(_ line: Span<UInt8>, at i: Int) -> Int? {
        months.firstIndex { line.matches($0, at: i) }.map { $0 + 1 }
    }

    /// `2025-03-02 10:11:12.123456+0100`: a time shown in the zone the log was written in.
    package static func text(_ micros: Int, offsetSeconds: Int?) -> String {
        let (date, time, _) = calendarParts((micros + (offsetSeconds ?? 0) * 1_000_000) * 1000, local: false)
        guard let offset = offsetSeconds else { return "\(date) \(time)" }
        let minutes = abs(offset) / 60
        return "\(date) \(time)\(offset < 0 ? "-" : "+")\(zeroPadded(minutes / 60, 2))\(zeroPadded(minutes % 60, 2))"
    }
}
