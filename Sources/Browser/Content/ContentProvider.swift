import Core
import Glibc
import System

/// The supervisor's scheme handler: workers fetch `app://local/PATH` documents and `app-image://ID` images over
/// their channel and this answers, so no page ever needs a localhost server or an open port.
///
/// Every refusal is a status with a one-line reason: 400 for a URL it does not serve or cannot decode, 403 for a
/// path that leaves the root or names anything but a regular file, 404 for a missing file, 413 for one over
/// `maxDocumentSize`, 500 for a read error.
public final class ContentProvider {
    /// The scheme and host every page lives under.
    public static let origin = "app://local/"
    /// The editor document, served whatever the content: it is not in the rotation of pages.
    public static let editorURL = origin + editorPath
    static let editorPath = "editor"
    /// The largest file served. The transport splits a document into frames; this bounds what one fetch can make
    /// the supervisor hold.
    static let maxDocumentSize = 16 << 20
    /// Where a content directory keeps what `app-image://ID` names: `ROOT/images/ID`.
    static let imagesDirectory = "images/"

    public typealias Response = SchemeResponse

    private let root: ContentRoot?
    /// Pages given in memory, by path; never evicted.
    private var inMemory: [[UInt8]: [UInt8]] = [:]
    private var cache = DocumentCache()
    /// The pages a run cycles through, as full URLs, in a stable order.
    public let pages: [String]

    /// The built-in pages: enough to run on a machine that has nothing else.
    public convenience init() {
        self.init(pages: BuiltInPages.all)
    }

    /// Pages held in memory, in rotation in the order given; images are the built-in ones.
    public init(pages: [(path: String, html: String)]) {
        root = nil
        for (path, html) in pages { inMemory[Array(path.utf8)] = Array(html.utf8) }
        self.pages = pages.map { Self.origin + $0.path }
    }

    /// Pages from a directory: every `.html` file in it (not below it) is in the rotation, and anything under it
    /// can be fetched. The directory is held by descriptor from here on, so renaming or replacing its path later
    /// changes nothing that is served.
    public init(root: String) throws(ContentError) {
        let names: [String]
        do throws(SystemError) {
            self.root = try ContentRoot(root)
            names = try Sys.directoryEntries(root).filter { $0.hasSuffix(".html") }
        } catch {
            throw .unreadable(root, errno: error.errno)
        }
        guard !names.isEmpty else { throw .noPages(root) }
        pages = names.sorted().map { Self.origin + $0 }
    }

    /// Answers one fetch; see the type's summary for what each status means.
    public func fetch(_ url: String) -> Response {
        do throws(ContentRefusal) {
            switch try ContentRequest(url) {
            case .document(let path): return try document(path)
            case .image(let id): return try image(id)
            }
        } catch {
            return Response(status: error.status, mime: "text/plain", body: Array(error.reason.utf8))
        }
    }

    /// What the cache holds now, for tests of its bounds.
    var cacheUsage: (entries: Int, bytes: Int) { (cache.count, cache.totalBytes) }

    private func document(_ path: [UInt8]) throws(ContentRefusal) -> Response {
        if let body = inMemory[path] { return Response(status: 200, mime: Self.mime(path, body), body: body) }
        if path.elementsEqual(Self.editorPath.utf8) {
            return Response(status: 200, mime: "text/html", body: Array(BuiltInPages.editor.utf8))
        }
        guard let root else { throw .notFound(path) }
        return try file(path, in: root)
    }

    private func image(_ id: [UInt8]) throws(ContentRefusal) -> Response {
        guard let root else {
            guard let image = BuiltInImages.all[String(decoding: id, as: UTF8.self)] else { throw .notFound(id) }
            return Response(status: 200, mime: image.mime, body: image.bytes)
        }
        return try file(Array(Self.imagesDirectory.utf8) + id, in: root)
    }

    /// A kept copy is served only once the file is found unchanged since it was read; an edited page is read anew.
    private func file(_ path: [UInt8], in root: ContentRoot) throws(ContentRefusal) -> Response {
        let file = try root.read(path, limit: Self.maxDocumentSize, cached: cache[path])
        cache.insert(file, for: path)
        return Response(status: 200, mime: Self.mime(path, file.body), body: file.body)
    }

    // MARK: - Media types

    private static let mimeByExtension: [String: String] = [
        "html": "text/html", "htm": "text/html", "css": "text/css", "js": "text/javascript", "json": "application/json",
        "txt": "text/plain", "svg": "image/svg+xml", "png": "image/png", "gif": "image/gif", "jpg": "image/jpeg",
        "jpeg": "image/jpeg", "webp": "image/webp",
    ]

    /// By the name's extension; for a name without a known one (an image ID often has none), by the first bytes of
    /// the common image formats.
    private static func mime(_ path: [UInt8], _ body: [UInt8]) -> String {
        let name = String(decoding: path.split(separator: UInt8(ascii: "/")).last ?? [], as: UTF8.self)
        if let dot = name.lastIndex(of: "."), let known = mimeByExtension[name[name.index(after: dot)...].lowercased()] {
            return known
        }
        if body.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if body.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if body.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if body.starts(with: Array("RIFF".utf8)), body.dropFirst(8).starts(with: Array("WEBP".utf8)) { return "image/webp" }
        return "application/octet-stream"
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
