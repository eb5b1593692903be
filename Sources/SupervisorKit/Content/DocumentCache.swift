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

    private var entries: [[UInt8]: [UInt8]] = [:]
    /// Keys oldest first.
    private var order: [[UInt8]] = []
    /// The bytes of every kept name and body.
    private(set) var totalBytes = 0

    var count: Int { entries.count }

    subscript(path: [UInt8]) -> [UInt8]? { entries[path] }

    /// Keeps `body` under `path` if it is small enough, making room by dropping the oldest entries.
    mutating func insert(_ body: [UInt8], for path: [UInt8]) {
        let cost = path.count + body.count
        guard body.count <= Self.maxEntryBytes, entries[path] == nil else { return }
        while !order.isEmpty, totalBytes + cost > Self.maxTotalBytes || entries.count >= Self.maxEntries {
            let oldest = order.removeFirst()
            totalBytes -= oldest.count + (entries.removeValue(forKey: oldest)?.count ?? 0)
        }
        entries[path] = body
        order.append(path)
        totalBytes += cost
    }
}
