/// What the user asked to see, however many views and workers it takes: a rebuild replaces the view, not the load.
/// The client that began it hears what happens to it.
package final class Load {
    /// The client's number for it in the log; -1 for a load its client does not number.
    package let index: Int
    package let client: any LoadClient
    /// When its client began it.
    package let startedAt: Int
    /// What the user has seen of it: nothing yet (a hidden load), a view looked at since it was shown (created,
    /// for a visible load), content, or a blank it was given up as.
    package enum Sight: Equatable {
        case unseen
        case shown(at: Int)
        case visible(shownAt: Int, at: Int)
        case blank(shownAt: Int)
    }
    package var sight = Sight.unseen
    package var shownAt: Int? {
        switch sight {
        case .unseen: nil
        case .shown(let at), .blank(let at), .visible(let at, _): at
        }
    }
    package var visibleAt: Int? { if case .visible(_, let at) = sight { at } else { nil } }
    var history = RecoveryHistory()
    package var recoveries: Int { history.recoveries }
    /// The view currently showing it; rebuilding replaces it.
    package internal(set) weak var view: View?

    package init(index: Int, client: any LoadClient, startedAt: Int) {
        self.index = index
        self.client = client
        self.startedAt = startedAt
    }
}

/// What the scheme handler answers a fetch with.
public struct SchemeResponse: Equatable, Sendable {
    public let status: UInt16
    public let mime: String
    public let body: [UInt8]

    public init(status: UInt16, mime: String, body: [UInt8]) {
        self.status = status
        self.mime = mime
        self.body = body
    }

    /// What a fetch gets once nobody is left to answer it.
    package static let gone = SchemeResponse(status: 410, mime: "text/plain", body: Array("gone".utf8))
}
