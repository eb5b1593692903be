import WireProtocol

/// What a worker taken back from the holder says it has (issue 34): its answer to the resynchronisation
/// (`FromWorker.resynced`) and its back/forward list, asked for after it.
package struct WorkerClaim: Equatable, Sendable {
    package var url: String
    package var finished: Bool
    package var historyIndex: Int
    package var history: [String]
    package var inputSeq: UInt64
    package var digest: UInt64

    package init(url: String, finished: Bool, historyIndex: Int, history: [String], inputSeq: UInt64, digest: UInt64) {
        (self.url, self.finished, self.historyIndex) = (url, finished, historyIndex)
        (self.history, self.inputSeq, self.digest) = (history, inputSeq, digest)
    }
}

/// Where a worker taken back belongs, or why it belongs nowhere. A worker is untrusted, as a renderer is: it is
/// adopted only into a tab that has no worker yet and whose saved list it matches entry for entry, at the same
/// index, with its page finished; and a tab's worker has no typed input. Anything else is a lie, or a state the
/// session never saved: either way the worker is killed, and its tab recovered as after any death.
package enum Adoption: Equatable, Sendable {
    case tab(id: UInt64)
    case refused(String)

    package static func place(_ claim: WorkerClaim, among tabs: [SavedTab], taken: Set<UInt64>) -> Adoption {
        guard claim.inputSeq == 0, claim.digest == documentDigestBasis else {
            return .refused("it claims typed input, which no tab's page has")
        }
        guard claim.history.indices.contains(claim.historyIndex), claim.history[claim.historyIndex] == claim.url else {
            return .refused("its page is not the current entry of its own list")
        }
        guard claim.finished else { return .refused("its page had not finished loading") }
        let matching = tabs.filter {
            $0.history.index == claim.historyIndex && $0.history.entries.map(\.url) == claim.history
        }
        guard !matching.isEmpty else { return .refused("no saved tab has its list") }
        guard let free = matching.first(where: { !taken.contains($0.id) }) else {
            return .refused("every saved tab with its list has a worker already")
        }
        return .tab(id: free.id)
    }
}
