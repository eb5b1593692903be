import Events
import System
import Vocabulary
import WireProtocol

/// Whether a navigation may happen, as an app's `decidePolicyFor navigationAction:` decides it (seed 003): data,
/// not code. Each navigation type has a rule per frame; internal URLs are checked against the launch key before
/// any rule.
public struct NavigationPolicy: Sendable {
    public enum Rule: String, Sendable {
        case allow
        /// Allowed if the URL's host is on the list; a main-frame navigation elsewhere opens externally.
        case allowlist
        case cancel
    }

    public typealias Frame = NavigationFrame

    /// Hosts whose pages load in the tab. `local` is the app's own content (`app://local/`).
    public var allowedHosts: Set<String> = ["local"]
    /// The rule for a navigation of each type, in the main frame and in a sub-frame. The default is what the
    /// app behind the navigation-policy issue learned: any sub-frame may load (embedded players and share buttons), main frames only from the list.
    public var rules: [NavigationType: (main: Rule, sub: Rule)] = Dictionary(
        uniqueKeysWithValues: NavigationType.allCases.map { ($0, (main: Rule.allowlist, sub: Rule.allow)) })

    public init() {}

    public struct Decision: Equatable, Sendable {
        public typealias Verdict = NavigationVerdict

        public let verdict: Verdict
        public let reason: String
    }

    public func decide(_ type: NavigationType, frame: Frame, url text: String, key: LaunchKey) -> Decision {
        guard let url = WebURL(text) else { return Decision(verdict: .cancel, reason: "not an absolute URL") }
        if let check = InternalURL.check(url, key: key) {
            switch check {
            case .errorPage: return Decision(verdict: .allow, reason: "internal page with the launch key")
            case .missingKey: return Decision(verdict: .cancel, reason: "internal URL without a key")
            case .wrongKey: return Decision(verdict: .cancel, reason: "internal URL with a wrong key")
            case .unknownPage(let path): return Decision(verdict: .cancel, reason: "no internal page '\(path)'")
            }
        }
        guard ["app", "https", "http"].contains(url.scheme) else {
            return Decision(verdict: .cancel, reason: "scheme '\(url.scheme)' is not navigable")
        }
        let rule = rules[type].map { frame == .main ? $0.main : $0.sub } ?? .cancel
        switch rule {
        case .allow:
            return Decision(verdict: .allow, reason: "\(frame.rawValue) frame: \(type.spelling) allowed")
        case .cancel:
            return Decision(verdict: .cancel, reason: "\(frame.rawValue) frame: \(type.spelling) refused")
        case .allowlist where allowedHosts.contains(url.host):
            return Decision(verdict: .allow, reason: "host '\(url.host)' is allowed")
        case .allowlist:
            return Decision(verdict: frame == .main ? .openExternally : .cancel, reason: "host '\(url.host)' is not on the list")
        }
    }
}
