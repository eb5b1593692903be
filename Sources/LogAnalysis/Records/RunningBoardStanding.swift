import Vocabulary

/// Where RunningBoard put a WebKit process, as runningboardd logs it: its role (`Calculated state for <identity>:
/// running-active (role: Background)`) or the jetsam priority it set (`[<identity>:<pid>] Set jetsam priority to 40`).
package struct RunningBoardStanding: Equatable {
    /// RunningBoard's word (`UserInteractiveFocal`, `Background`, `None`…), at most `roleLimit` bytes.
    package var role: String?
    package var jetsamPriority: Int?

    static let roleLimit = 32

    /// The band a role puts a process in, in the vocabulary's words: a user-interactive role is on screen, the
    /// background and non-interactive roles in the background, no role suspended (or idle).
    package var band: String? {
        guard let role else { return nil }
        if role.hasPrefix("UserInteractive") { return PriorityBand.foreground.rawValue }
        if role == "Background" || role == "NonUserInteractive" { return PriorityBand.background.rawValue }
        return role == "None" ? PriorityBand.suspended.rawValue : nil
    }

    /// `background (RunningBoard role Background, jetsam priority 40)`, as far as the log said.
    package var words: String {
        let parts = [role.map { "RunningBoard role \($0)" }, jetsamPriority.map { "jetsam priority \($0)" }].compactMap { $0 }
        return "\(band ?? "band unknown") (\(parts.joined(separator: ", ")))"
    }
}
