/// One load of one URL: what the user asked to see, however many views and workers it takes.
final class Load {
    let index: Int
    let url: String
    let startedAt: Int
    var recoveries = 0
    var renderedAt: Int?

    init(index: Int, url: String, startedAt: Int) {
        self.index = index
        self.url = url
        self.startedAt = startedAt
    }
}

/// What the user looks at: WKWebView's place in this model. A view is backed by at most one worker at a time.
final class View {
    let id: Int
    let load: Load
    var worker: WorkerProcess?
    var dwellTimer: EventLoop.TimerID?
    var closed = false

    init(id: Int, load: Load) {
        self.id = id
        self.load = load
    }
}
