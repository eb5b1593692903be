
/// What a fetch asks for, once its URL has been split, its path percent-decoded exactly once and the decoded bytes
/// checked: `%2e%2e` is `..` and refused here, while `%252e%252e` decodes to the literal name `%2e%2e` and is simply
/// looked up.
///
/// These checks are lexical, so that a plain mistake gets a plain reason. They are not what keeps a fetch inside the
/// content root: a path that passes them is still resolved by the kernel beneath the root's descriptor
/// (`ContentRoot`), which is what refuses a symlink pointing out.
enum ContentRequest: Equatable {
    /// `app://local/PATH`: a document, or any other file under the content root. `app://NAME.test/PATH` is the same
    /// file as another site serves it (a workload's `--sites`): the host names a site, never a root.
    case document(path: [UInt8])
    /// `app-image://ID`: the image `images/ID` under the content root, or a built-in one.
    case image(id: [UInt8])

    /// Query and fragment are ignored; a scheme this handler does not serve, or a malformed escape, is a 400.
    init(_ url: String) throws(ContentRefusal) {
        guard let parsed = WebURL(url) else { throw .badRequest("not an absolute URL: \(ContentRefusal.printable(url.utf8))") }
        switch parsed.scheme {
        case "app" where parsed.host == "local" || Self.isTestSite(parsed.host):
            let path = try Self.decoded(parsed.path.utf8)
            guard !path.isEmpty else { throw .forbidden("the content root is a directory, not a document") }
            self = .document(path: path)
        case "app-image":
            self = .image(id: try Self.imageID(url))
        default:
            throw .badRequest("not an app://local/ or app-image:// URL: \(ContentRefusal.printable(url.utf8))")
        }
    }

    /// The ID is taken from the URL as written: `WebURL` lowercases a host, and IDs are case-sensitive.
    private static func imageID(_ url: String) throws(ContentRefusal) -> [UInt8] {
        let bytes = Array(url.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { throw .badRequest("not an app-image:// URL") }
        let written = bytes[(colon + 3)...].prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        let id = try decoded(written)
        guard !id.isEmpty else { throw .badRequest("an app-image:// URL names no image") }
        guard id.first != UInt8(ascii: ".") else { throw .forbidden("an image ID may not start with '.': \(ContentRefusal.printable(id))") }
        guard id.allSatisfy(isImageIDByte) else {
            throw .badRequest("an image ID is one name of [A-Za-z0-9._-]: \(ContentRefusal.printable(id))")
        }
        return id
    }

    /// `written` percent-decoded once, refused if that leaves a NUL byte, a leading `/` or a `..` component.
    private static func decoded(_ written: some Collection<UInt8>) throws(ContentRefusal) -> [UInt8] {
        guard let path = WebURL.percentDecoded(written) else {
            throw .badRequest("malformed %-escape in \(ContentRefusal.printable(written))")
        }
        let shown = ContentRefusal.printable(path)
        guard !path.contains(0) else { throw .forbidden("a NUL byte in \(shown)") }
        guard path.first != UInt8(ascii: "/") else { throw .forbidden("an absolute path: \(shown)") }
        let components = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard !components.contains(where: { $0.elementsEqual("..".utf8) }) else { throw .forbidden("'..' in \(shown)") }
        return path
    }

    /// One DNS label under `.test`, the name RFC 6761 reserves for testing.
    private static func isTestSite(_ host: String) -> Bool {
        guard host.hasSuffix(".test") else { return false }
        let label = host.dropLast(5)
        return !label.isEmpty && label.count <= 63
            && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }

    private static func isImageIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }
}

/// A fetch the scheme handler will not answer with a file: its status and a one-line reason, which the supervisor logs.
/// The reason never quotes a file's contents, and every name in it is printable.
struct ContentRefusal: Error, Equatable {
    let status: UInt16
    let reason: String

    static func badRequest(_ reason: String) -> Self { Self(status: 400, reason: reason) }
    static func forbidden(_ reason: String) -> Self { Self(status: 403, reason: "forbidden: " + reason) }
    static func notFound(_ name: [UInt8]) -> Self { Self(status: 404, reason: "not found: " + printable(name)) }

    /// `bytes` with everything but visible ASCII written as `%XX`, and cut short, so that a name from a URL cannot
    /// break the log line it lands in.
    static func printable(_ bytes: some Collection<UInt8>) -> String {
        let limit = 200
        var out = ""
        for byte in bytes.prefix(limit) {
            if byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "%") {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return bytes.count > limit ? out + "..." : out
    }
}
