/// How the host reacts when a view's worker dies. A policy is data: adding one is a few lines here, not a new
/// code path in the host.
public struct Policy: Sendable, Equatable {
    public enum Recovery: String, Sendable {
        /// Keep the view; start a new worker for it and load the same URL (WKWebView's `reload()`).
        case reload
        /// Throw the view and its worker away; make new ones and load the same URL.
        case rebuild
    }

    public let name: String
    public var recovery: Recovery
    /// How many times one load may be recovered before it is given up as blank (a crash-loop limit).
    public var maxRecoveries = 3

    public static let reload = Policy(name: "reload", recovery: .reload)
    public static let rebuild = Policy(name: "rebuild", recovery: .rebuild)

    public static let all: [Policy] = [.reload, .rebuild]

    public static func named(_ name: String) -> Policy? { all.first { $0.name == name } }
}
