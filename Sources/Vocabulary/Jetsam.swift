/// Jetsam's kill log (Workers/Jetsam writes it, `JetsamKill` in Events reads it): one JSON line per kill.
public enum JetsamLog {
    /// The `event` of every line.
    public static let killEvent = "jetsam-kill"

    /// Why Jetsam killed.
    public enum Reason: String, Sendable, CaseIterable {
        /// The workers' resident memory was over the budget.
        case rssOverBudget = "rss-over-budget"
        /// `--pressure critical`: the lowest-ranked background worker goes every interval.
        case criticalPressure = "critical-pressure"
    }
}
