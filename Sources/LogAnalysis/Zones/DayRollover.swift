/// Times written without a date (Console.app copies) run forward within a file: a time more than half a day behind
/// the one before it is the next day's (a copy across midnight), as lines written out of order are never that far
/// apart; one more than half a day ahead of a time moved forward is back on the day before.
package struct DayRollover {
    private static let halfDay = LogTime.microsecondsPerDay / 2

    /// The day the file's last dated line gave: the days added count from it.
    private var base: Int?
    private var added = 0
    private var last: Int?

    package init() {}

    /// `time` as read on `day` (nil when the file gave none), moved forward by the days the file has crossed.
    package mutating func forward(_ time: Int, day: Int?) -> Int {
        if day != base {
            base = day
            added = 0
            last = nil
        }
        var moved = time + added
        if let last, moved < last - Self.halfDay {
            added += LogTime.microsecondsPerDay
            moved += LogTime.microsecondsPerDay
        } else if let last, added > 0, moved > last + Self.halfDay {
            added -= LogTime.microsecondsPerDay
            moved -= LogTime.microsecondsPerDay
        }
        last = moved
        return moved
    }
}
