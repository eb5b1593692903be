import Glibc

/// `2026-11-22T06:19:13.123456Z` from CLOCK_REALTIME nanoseconds.
package func isoTime(_ nanoseconds: Int) -> String {
    let (date, time, _) = calendarParts(nanoseconds, local: false)
    return "\(date)T\(time)Z"
}

/// CLOCK_REALTIME nanoseconds from `isoTime`'s form, to the microsecond.
package func parseISOTime(_ text: String) -> Int? {
    let digits = Array(text.utf8)
    guard digits.count == 27, digits[26] == UInt8(ascii: "Z") else { return nil }
    func number(_ range: Range<Int>) -> Int? {
        var value = 0
        for i in range {
            guard (48...57).contains(digits[i]) else { return nil }
            value = value * 10 + Int(digits[i] - 48)
        }
        return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
        let minute = number(14..<16), let second = number(17..<19), let micros = number(20..<26)
    else { return nil }
    var parts = tm()
    (parts.tm_year, parts.tm_mon, parts.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
    (parts.tm_hour, parts.tm_min, parts.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
    return Int(timegm(&parts)) * 1_000_000_000 + micros * 1000
}

/// `2026-11-22`, `06:19:13.123456` and the zone offset in minutes, in UTC or local time.
package func calendarParts(_ nanoseconds: Int, local: Bool) -> (date: String, time: String, offsetMinutes: Int) {
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

package func zeroPadded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
