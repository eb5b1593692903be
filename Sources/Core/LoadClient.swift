import Vocabulary
import WireProtocol

/// The one who began a load (in a run: a page of the workload, a tab, the editor): it says what a new worker of the
/// load is to show, answers the worker's fetches as the scheme handler, and hears what happens to the load.
/// Everything is called on the supervisor's thread, from within its steps.
package protocol LoadClient: AnyObject {
    /// What a new worker of `view` is sent to show, which the supervisor sends.
    func start(_ worker: Worker, in view: View) -> LoadStart
    /// A worker of `view` was sent what it is to show, and that was nothing to load.
    func nothingToLoad(_ view: View)
    /// What the scheme handler answers a fetch of `url` with.
    func serve(_ url: String, _ kind: ResourceKind, for worker: Worker) -> SchemeResponse
    /// A message the supervisor does not handle itself (a navigation the page asks for, an input applied, a
    /// document: false if the client did not ask for it, which counts toward a flood), or one it handled and passes
    /// on (a history: the answer is not asked).
    func received(_ message: FromWorker, from worker: Worker, in view: View?) -> Bool
    /// The page in `view` committed `url`, the document the supervisor served it. False when the client never sent
    /// the worker there: a worker that says it shows what nobody asked for is lying, and is cut off.
    func committed(_ url: String, by worker: Worker, in view: View) -> Bool
    /// The supervisor is reloading what `worker` shows in `view` (a recovery): its next commit is that page again.
    func reloading(_ worker: Worker, in view: View)
    /// The longest document the client could expect a worker to report: a longer one is refused unread.
    var longestDocument: Int { get }
    /// How many navigations a page it rendered may ask for; any more are unasked.
    var navigationsPerPage: Int { get }
    /// Whether its load is the editor's document: the log's `editor` field.
    var isEditor: Bool { get }
    /// The site `view`'s next worker will show, which a cached worker must have shown last; nil: it takes none.
    func site(of view: View) -> Site?
    /// The page in `view` finished loading, with `title`.
    func rendered(_ view: View, by worker: Worker, title: String)
    /// The page in `view` failed to load, before its commit (`provisional`) or after.
    func failed(_ view: View, by worker: Worker, provisional: Bool, error: String)
    /// `view` is on screen with content since `time` (the supervisor has logged it); `first` the first time for the
    /// load.
    func visible(_ view: View, first: Bool, at time: Int)
    /// The supervisor gave up on the load (a crash loop, or all its recoveries spent; `error` says which when it
    /// shows an error page), or its blank watchdog found it blank for good.
    func ended(_ view: View, error: String?)
}

extension LoadClient {
    package func received(_ message: FromWorker, from worker: Worker, in view: View?) -> Bool { false }
    package func reloading(_ worker: Worker, in view: View) {}
    package var longestDocument: Int { pieceBytes }
    package var navigationsPerPage: Int { 0 }
    package var isEditor: Bool { false }
    package func site(of view: View) -> Site? { nil }
    package func nothingToLoad(_ view: View) {}
}

/// What a new worker of a load is sent first, and the URL it will show, for the log: nil when it is given nothing
/// to load (a tab with no history).
package struct LoadStart {
    package let messages: [ToWorker]
    package let url: String?
    /// Whether it restores a back/forward list, whose current item the view then has before any commit.
    package let restores: Bool

    package init(_ messages: [ToWorker], url: String?, restores: Bool = false) {
        self.messages = messages
        self.url = url
        self.restores = restores
    }

    /// A load of `url`.
    package static func load(_ url: String) -> LoadStart { LoadStart([.load(url: url, replace: false)], url: url) }
    /// Nothing: a client gone.
    package static let nothing = LoadStart([], url: nil)
}
