/// Jetsam's kill log (Workers/Jetsam writes it, `JetsamKill` in Events reads it): one JSON line per kill.
public enum JetsamLog {
    /// The `event` of every line.
    public static let killEvent = "jetsam-kill"

    /// What Jetsam writes on its claims pipe, beside the pids it names, when memory pressure begins and ends: the
    /// notification an app gets before the kills (`DISPATCH_SOURCE_TYPE_MEMORYPRESSURE` on iOS).
    public static let pressureCritical = "pressure critical"
    public static let pressureNormal = "pressure normal"

    /// Why Jetsam killed.
    public enum Reason: String, Sendable, CaseIterable {
        /// The workers' resident memory was over the budget.
        case rssOverBudget = "rss-over-budget"
        /// `--pressure critical`: the lowest-ranked background worker goes every interval.
        case criticalPressure = "critical-pressure"
    }
}
