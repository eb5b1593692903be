import System

/// Files already read from the content root, kept so that a page loaded again and again is read from disk once.
///
/// It is bounded so that serving a huge directory cannot grow the supervisor without limit: only small files are
/// kept (a big one costs little to reread beside its own transfer), and once the entries or their bytes would pass
/// the budget, the oldest go first.
struct DocumentCache {
    static let maxEntryBytes = 512 << 10
    static let maxTotalBytes = 32 << 20
    /// Empty files cost no bytes, so the count is bounded too.
    static let maxEntries = 4096

    typealias Entry = (version: Sys.FileStatus, body: [UInt8])

    private var entries: [[UInt8]: Entry] = [:]
    /// Keys oldest first.
    private var order: [[UInt8]] = []
    /// The bytes of every kept name and body.
    private(set) var totalBytes = 0

    var count: Int { entries.count }

    /// The copy kept of `path`, with the version of the file it was read from: the caller checks it is current.
    subscript(path: [UInt8]) -> Entry? { entries[path] }

    /// Keeps `file` under `path` if it is small enough, replacing an older copy, and making room by dropping the
    /// oldest entries.
    mutating func insert(_ file: Entry, for path: [UInt8]) {
        if let kept = entries[path] {
            guard kept.version != file.version else { return }
            remove(path)
        }
        let cost = path.count + file.body.count
        guard file.body.count <= Self.maxEntryBytes else { return }
        while !order.isEmpty, totalBytes + cost > Self.maxTotalBytes || entries.count >= Self.maxEntries {
            remove(order[0])
        }
        entries[path] = file
        order.append(path)
        totalBytes += cost
    }

    private mutating func remove(_ path: [UInt8]) {
        guard let kept = entries.removeValue(forKey: path) else { return }
        order.removeAll { $0 == path }
        totalBytes -= path.count + kept.body.count
    }
}
