import Core
import WireProtocol
import Vocabulary

/// The content scheme handler: the browser's own pages, checked against the launch key; sub-frames checked against
/// the navigation policy; and the content provider for the rest.
extension Browser {
    /// What the scheme handler answers for `url`: the supervisor's own pages, checked against the launch key,
    /// sub-frames checked against the navigation policy, and the content provider for the rest.
    package func serve(_ url: String, _ kind: ResourceKind, for tab: Tab?) -> ContentProvider.Response {
        if kind == .subframe, let tab, decide(tab, .other, .sub, url) != .allow {
            return ContentProvider.Response(status: 403, mime: "text/plain", body: Array("refused by the navigation policy".utf8))
        }
        if let parsed = WebURL(url), let check = InternalURL.check(parsed, key: launchKey) {
            if case .errorPage(let original, let code) = check {
                return ContentProvider.Response(status: 200, mime: "text/html", body: InternalURL.errorPageDocument(url: original, code: code))
            }
            if let refusal = check.refusal { log.emit(.internalRefused(url: url, reason: refusal)) }
            return ContentProvider.Response(status: 403, mime: "text/plain", body: Array("forbidden: \(check)".utf8))
        }
        return content.fetch(url)
    }
}
