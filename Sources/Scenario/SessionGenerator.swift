import Browser
import WireProtocol

extension Session {
    /// A session of `count` tabs for benchmarks and tests: each has two to five entries from `pages`, with
    /// titles, is at a seeded place in its history, and the first tab is the visible one.
    public static func generated(tabs count: Int, pages: [String], seed: UInt64) -> Session {
        var random = SplitMix64(seed: seed)
        let tabs = (0..<count).map { i in
            let entries = (0..<(2 + Int(random.next() % 4))).map { _ in
                let page = pages[Int(random.next() % UInt64(pages.count))]
                return HistoryEntry(url: page, title: "Page \(page.split(separator: "/").last ?? "")")
            }
            let index = Int(random.next() % UInt64(entries.count))
            return SavedTab(id: UInt64(i + 1), history: BackForwardList(entries: entries, index: index), visible: i == 0)
        }
        return Session(tabs: tabs)
    }
}
