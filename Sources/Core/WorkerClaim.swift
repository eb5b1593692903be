import WireProtocol

/// What a worker taken back from a holder says it has (issue 34): its answer to the resynchronisation
/// (`FromWorker.resynced`) and the back/forward list it sends when asked next. Nothing in it is believed until the
/// browser has checked it against what the session saved (`Adoption`).
package struct WorkerClaim: Equatable, Sendable {
    package var url: String
    package var title: String
    package var finished: Bool
    package var historyIndex: Int
    package var history: [String]
    package var inputSeq: UInt64
    package var digest: UInt64

    /// A spare's answer: no page, no list, no typed input.
    package var showsNothing: Bool {
        url.isEmpty && history.isEmpty && inputSeq == 0 && digest == documentDigestBasis
    }

    package init(
        url: String, title: String = "", finished: Bool, historyIndex: Int, history: [String], inputSeq: UInt64,
        digest: UInt64
    ) {
        (self.url, self.title, self.finished, self.historyIndex) = (url, title, finished, historyIndex)
        (self.history, self.inputSeq, self.digest) = (history, inputSeq, digest)
    }
}
