import Glibc

/// The supervisor's scheme handler: workers fetch `app://local/PATH` over their channel and this answers, so no
/// page ever needs a localhost server or an open port.
public final class ContentProvider {
    /// The scheme and host every page lives under.
    public static let origin = "app://local/"
    /// The editor document, served whatever the content: it is not in the rotation of pages.
    public static let editorURL = origin + editorPath
    static let editorPath = "editor"

    public struct Response: Equatable {
        public let status: UInt16
        public let mime: String
        public let body: [UInt8]
    }

    private let root: String?
    private var cache: [String: [UInt8]] = [:]
    /// The pages a run cycles through, as full URLs, in a stable order.
    public let pages: [String]

    /// The built-in pages: enough to run on a machine that has nothing else.
    public convenience init() {
        self.init(pages: BuiltInPages.all)
    }

    /// Pages held in memory, in rotation in the order given.
    public init(pages: [(path: String, html: String)]) {
        root = nil
        for (path, html) in pages { cache[path] = Array(html.utf8) }
        self.pages = pages.map { Self.origin + $0.path }
    }

    /// Pages from a directory: every `.html` file in it (not below it) is in the rotation, and anything under it
    /// can be fetched.
    public init(root: String) throws(ContentError) {
        guard let dir = opendir(root) else { throw .unreadable(root, errno: errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".html") { names.append(name) }
        }
        guard !names.isEmpty else { throw .noPages(root) }
        self.root = root
        pages = names.sorted().map { Self.origin + $0 }
    }

    /// Answers one fetch. Paths that climb out of the root are refused, as a scheme handler must.
    public func fetch(_ url: String) -> Response {
        guard url.hasPrefix(Self.origin) else { return Self.error(400, "not an \(Self.origin) URL: \(url)") }
        let path = String(url.dropFirst(Self.origin.count).prefix { $0 != "?" && $0 != "#" })
        guard !path.isEmpty, !path.split(separator: "/").contains("..") else { return Self.error(403, "forbidden") }
        if let body = cache[path] { return Response(status: 200, mime: Self.mime(path), body: body) }
        if path == Self.editorPath { return Response(status: 200, mime: "text/html", body: Array(BuiltInPages.editor.utf8)) }
        guard let root, let fd = try? Sys.open(root + "/" + path, O_RDONLY) else { return Self.error(404, "not found: \(path)") }
        defer { Sys.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return Self.error(404, "not found: \(path)") }
        // A page travels in one frame: a bigger one is refused by name and size, never mistaken for a missing one.
        let body: [UInt8]
        do {
            body = try Sys.readAll(fd, limit: Self.maxPageSize)
        } catch {
            return Self.error(500, "cannot read \(path): \(error)")
        }
        guard body.count <= Self.maxPageSize else {
            return Self.error(413, "\(path) is \(max(Int(info.st_size), Self.maxPageSize + 1)) bytes; a page must fit in one frame, at most \(Self.maxPageSize) bytes")
        }
        cache[path] = body
        return Response(status: 200, mime: Self.mime(path), body: body)
    }

    /// Leaves room in a frame for the reply's other fields.
    static let maxPageSize = 1 << 19

    private static func mime(_ path: String) -> String {
        path.hasSuffix(".html") ? "text/html" : "application/octet-stream"
    }

    private static func error(_ status: UInt16, _ text: String) -> Response {
        Response(status: status, mime: "text/plain", body: Array(text.utf8))
    }
}

public enum ContentError: Error, CustomStringConvertible {
    case unreadable(String, errno: Int32)
    case noPages(String)

    public var description: String {
        switch self {
        case .unreadable(let root, let code): "cannot read content directory '\(root)': \(String(cString: strerror(code)))"
        case .noPages(let root): "content directory '\(root)' holds no .html pages"
        }
    }
}
