import Core
import WireProtocol

/// Where a worker taken back belongs, or why it belongs nowhere. A worker is untrusted, as a renderer is: it is
/// adopted only into a tab that has no worker yet and whose saved list it matches entry for entry, at the same
/// index, with its page finished; and a tab's worker has no typed input. Anything else is a lie, or a state the
/// session never saved: either way the worker is killed, and its tab recovered as after any death.
package enum Adoption: Equatable, Sendable {
    case tab(id: UInt64)
    case refused(String)

    /// The first of `tabs` that `claim` matches and `isTaken` does not rule out.
    package static func place<T: SavedState>(_ claim: WorkerClaim, among tabs: [T], isTaken: (T) -> Bool) -> Adoption {
        guard claim.inputSeq == 0, claim.digest == documentDigestBasis else {
            return .refused("it claims typed input, which no tab's page has")
        }
        guard !claim.history.isEmpty else { return .refused("it shows no page") }
        guard claim.history.indices.contains(claim.historyIndex), claim.history[claim.historyIndex] == claim.url else {
            return .refused("its page is not the current entry of its own list")
        }
        guard claim.finished else { return .refused("its page had not finished loading") }
        var matched = false
        for tab in tabs where matches(claim, tab.history) {
            guard isTaken(tab) else { return .tab(id: tab.id) }
            matched = true
        }
        return .refused(matched ? "every saved tab with its list has a worker already" : "no saved tab has its list")
    }

    /// The same list, at the same index.
    static func matches(_ claim: WorkerClaim, _ history: BackForwardList) -> Bool {
        history.index == claim.historyIndex && history.entries.count == claim.history.count
            && history.entries.lazy.map(\.url).elementsEqual(claim.history)
    }
}

/// A tab as far as adoption reads it: its id and its list.
package protocol SavedState {
    var id: UInt64 { get }
    var history: BackForwardList { get }
}

extension SavedTab: SavedState {}
extension Tab: SavedState {}
