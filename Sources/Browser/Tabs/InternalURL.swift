import Text
import Vocabulary

/// The supervisor's own pages, under `internal://local/` (seed 002). They stand in history for something else (an
/// error page for the URL that failed), so a page must never be able to forge one: each carries the per-launch
/// key, and one without it, or with another, is refused.
public enum InternalURL {
    public static let scheme = "internal"
    public static let origin = "internal://local/"
    static let errorPagePath = "errorpage"

    /// The error page that stands in history for `url`, which failed with `code` (an HTTP-like status).
    public static func errorPage(for url: String, code: Int, key: LaunchKey) -> String {
        origin + errorPagePath + "?url=" + WebURL.percentEncoded(url) + "&code=\(code)&uuidkey=" + key.value
    }

    /// What an internal URL is, once its key has been checked.
    public enum Check: Equatable, Sendable {
        /// The error page for `url`, which failed with `code`.
        case errorPage(url: String, code: Int)
        case missingKey
        case wrongKey
        case unknownPage(String)

        /// Why the URL is refused, as the event log says it; nil for an error page, which is served.
        public var refusal: InternalRefusal? {
            switch self {
            case .errorPage: nil
            case .missingKey: .missingKey
            case .wrongKey: .wrongKey
            case .unknownPage: .unknownPage
            }
        }
    }

    /// Nil if `url` is not internal.
    public static func check(_ url: WebURL, key: LaunchKey) -> Check? {
        guard url.scheme == scheme, url.host == "local" else { return nil }
        guard let given = url.queryValue("uuidkey") else { return .missingKey }
        guard key.matches(given) else { return .wrongKey }
        guard url.path == errorPagePath, let original = url.queryValue("url") else { return .unknownPage(url.path) }
        return .errorPage(url: original, code: url.queryValue("code").flatMap { Int($0) } ?? 0)
    }

    /// The error page's document: neither content nor a blank, it names what failed and how to retry.
    static func errorPageDocument(url: String, code: Int) -> [UInt8] {
        Array("<title>Cannot open page</title><p>\(markupText(url)) could not be loaded (\(code)). Reload to try again.</p>".utf8)
    }
}

/// The key that internal URLs must carry: a random UUID made once per launch, never derived from the run's seed
/// (a seed is meant to be known; this key is meant to be unguessable by page content).
public struct LaunchKey: Sendable, Equatable {
    public let value: String

    public init() {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0f | 0x40
        bytes[8] = bytes[8] & 0x3f | 0x80
        let hex = bytes.map { byte in String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }
        value = [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }

    init(value: String) {
        self.value = value
    }

    /// Compares without stopping at the first difference, so the time taken says nothing about the key.
    func matches(_ candidate: String) -> Bool {
        let a = Array(value.utf8)
        let b = Array(candidate.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
