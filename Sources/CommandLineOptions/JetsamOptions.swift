import Scenario

/// What `--jetsam=…` asked for: Jetsam's settings (its executable is the command's to find) and where its kills are
/// logged, if the command line named a file.
public struct JetsamChoice: Sendable {
    public var settings = JetsamSettings(executable: "")
    public var log: String?
}

extension ValueKind where Value == JetsamChoice {
    /// `budget=MB,interval=MS,pressure=critical,log=FILE`, within the bounds Jetsam itself enforces, so that a value
    /// it would refuse stops the run here instead of leaving it without a killer. `logDefault` says where its kills
    /// go when `log=` is not given, if anywhere.
    static func jetsam(logDefault: String?) -> Self {
        let base = JetsamChoice()
        let interval = JetsamSettings.intervalMilliseconds
        return .keyValues(base: base, [
            KeyedValue(
                "budget", .integer(1...JetsamSettings.maxBudgetMegabytes, "<MB>"), base: base,
                get: { $0.settings.budgetMegabytes }, set: { $0.settings.budgetMegabytes = $1 }),
            KeyedValue(
                "interval", ValueKind<Double>(placeholder: "<ms>", accepts: "\(plain(interval.lowerBound))-\(plain(interval.upperBound))",
                    read: { name, text throws(UsageError) in
                        guard let ms = Double(text), ms.isFinite, interval.contains(ms) else {
                            throw UsageError("'\(name)' takes milliseconds, not '\(text)'")
                        }
                        return ms
                    }, show: { plain($0) }),
                base: base, get: { $0.settings.intervalMilliseconds }, set: { $0.settings.intervalMilliseconds = $1 }),
            KeyedValue(
                "pressure", .choice("pressure", [("normal", false), ("critical", true)]), help: "critical: kill even under budget",
                base: base, get: { $0.settings.critical }, set: { $0.settings.critical = $1 }),
            KeyedValue(
                "log", .path(), help: "its kills, one JSON line each", base: base, default: logDefault,
                get: { $0.log }, set: { $0.log = $1 }),
        ])
    }
}
