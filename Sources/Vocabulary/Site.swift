/// A site as browsers key process reuse by it: a URL's scheme and registrable domain, as WebKit keys its process
/// cache (`WebCore::Site`, WebProcessCache.cpp) and Chromium its site instances. `https://a.example.com/x` and
/// `https://b.example.com/y` are one site; `http://example.com` is another.
///
/// The registrable domain is the host's last two labels, or three where the last two are a public suffix of more than
/// one label in the short built-in list below. That is an approximation of the Public Suffix List, which is data this
/// package does not carry: a host under a suffix it does not know is keyed more broadly (`a.foo.example` and
/// `b.foo.example` share `foo.example`), never more narrowly. An IP address or a single label (`local`, `localhost`)
/// is its own registrable domain.
public struct Site: Hashable, Sendable, CustomStringConvertible {
    public let scheme: String
    public let domain: String

    /// Nil for text that is not `scheme://host…` with a host.
    public init?(url: String) {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let rest = url[url.index(after: colon)...]
        guard rest.hasPrefix("//") else { return nil }
        let authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // Credentials before `@` and a port after the last `:` are not part of the host (an IPv6 literal keeps its
        // colons inside brackets).
        var host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        if let port = host.lastIndex(of: ":"), !host.hasSuffix("]") { host = host[..<port] }
        guard !host.isEmpty else { return nil }
        scheme = url[..<colon].lowercased()
        domain = Self.registrableDomain(host.lowercased())
    }

    public var description: String { "\(scheme)://\(domain)" }

    static func registrableDomain(_ host: String) -> String {
        let trimmed = host.hasSuffix(".") ? String(host.dropLast()) : host
        if trimmed.hasPrefix("[") || trimmed.allSatisfy({ $0.isNumber || $0 == "." }) { return trimmed }
        let labels = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count > 2 else { return trimmed }
        let lastTwo = labels.suffix(2).joined(separator: ".")
        return labels.suffix(multiLabelSuffixes.contains(lastTwo) ? 3 : 2).joined(separator: ".")
    }

    /// Public suffixes of two labels common enough to matter for a test's sites (from the Public Suffix List,
    /// publicsuffix.org): under them, the registrable domain is three labels.
    static let multiLabelSuffixes: Set<String> = [
        "co.uk", "org.uk", "ac.uk", "gov.uk", "com.au", "net.au", "org.au", "co.jp", "ne.jp", "or.jp", "co.nz",
        "com.br", "com.cn", "com.mx", "co.in", "co.kr", "com.tw", "github.io", "gitlab.io", "herokuapp.com",
        "appspot.com", "blogspot.com", "pages.dev", "netlify.app", "vercel.app", "web.app", "firebaseapp.com",
    ]
}
