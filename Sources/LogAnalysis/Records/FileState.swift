/// What the analyzer remembers from record to record while it reads one file.
struct FileState {
    /// The day of the last dated line, for lines that give only a time.
    var day: Int?
    var rollover = DayRollover()
    /// Whether the file's zone is noted (the first timed line's).
    var zoned = false
}
