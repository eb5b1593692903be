/// One page a tab has shown: what the back and forward buttons return to.
public struct HistoryEntry: Sendable {
    public var url: String
    public var title: String

    public init(url: String, title: String = "") {
        self.url = url
        self.title = title
    }
}

/// A tab's session history with a browser's semantics, after WebKit's `WebBackForwardList`.
///
/// A committed navigation drops every forward entry, so history is a line, never a tree, and the list is bounded:
/// the oldest entry goes when it is full. The list is a value, so a saved session holds a copy no later navigation
/// can change. The worker keeps the same type, so both sides agree on every step, the cap included. Every state it
/// can be built in is valid (an index inside the entries, or -1 when there are none), because a list restored from
/// disk must never trap.
public struct BackForwardList: Sendable {
    /// Entries kept per tab: WebKit's default.
    public static let capacity = historyCapacity

    /// Oldest first.
    public private(set) var entries: [HistoryEntry]
    /// The current entry's position in `entries`; -1 only when there are none.
    public private(set) var index: Int

    public init() {
        entries = []
        index = -1
    }

    /// A list as it was saved. Entries beyond the capacity are dropped oldest first, and an index out of range is
    /// moved to the nearest entry: a damaged or foreign file still gives a usable list.
    public init(entries: [HistoryEntry], index: Int) {
        let excess = max(0, entries.count - Self.capacity)
        self.entries = Array(entries.dropFirst(excess))
        self.index = self.entries.isEmpty ? -1 : min(max(index - excess, 0), self.entries.count - 1)
    }

    /// The entry the tab shows; nil only before its first navigation.
    public var current: HistoryEntry? { entries.isEmpty ? nil : entries[index] }
    public var canGoBack: Bool { index > 0 }
    public var canGoForward: Bool { index + 1 < entries.count }
    public var backCount: Int { max(index, 0) }
    public var forwardCount: Int { entries.count - index - 1 }

    // MARK: - Navigation

    /// Records a committed navigation: every forward entry is dropped, and `entry` becomes current.
    public mutating func push(_ entry: HistoryEntry) {
        entries.removeSubrange((index + 1)...)
        if entries.count == Self.capacity { entries.removeFirst() }
        entries.append(entry)
        index = entries.count - 1
    }

    /// Puts `entry` in the current one's place, as `location.replace` does; on an empty list it is pushed.
    public mutating func replaceCurrent(_ entry: HistoryEntry) {
        if entries.isEmpty { push(entry) } else { entries[index] = entry }
    }

    /// The entry `offset` steps away, which becomes current; nil, and nothing changes, when there is none.
    @discardableResult
    public mutating func go(to offset: Int) -> HistoryEntry? {
        let (target, overflow) = index.addingReportingOverflow(offset)
        guard !entries.isEmpty, !overflow, entries.indices.contains(target) else { return nil }
        index = target
        return entries[index]
    }

    @discardableResult
    public mutating func goBack() -> HistoryEntry? { go(to: -1) }

    @discardableResult
    public mutating func goForward() -> HistoryEntry? { go(to: 1) }

    /// Names the current entry: a title arrives after the navigation committed.
    public mutating func setTitle(_ title: String) {
        if !entries.isEmpty { entries[index].title = title }
    }
}

// Comparing strings needs Unicode tables the Embedded worker does not link; only the supervisor compares lists.
#if !$Embedded
extension HistoryEntry: Equatable {}
extension BackForwardList: Equatable {}
#endif
