/// How WebKit's own lines say a page came back after its process died: a process that served the page
/// (`[pageProxyID=7, ..., PID=4107]`) dies, and a later process renders the same page. The app's own
/// `webViewWebContentProcessDidTerminate` line saying it reloaded, or a termination callback, says how. Bounded: past
/// `limit` pages, pids or reloads, later ones are not followed.
package struct PageRecovery {
    package static let limit = 1 << 16
    private static let pagesPerPid = 4

    /// The pages each pid's lines named, with when.
    private var pagesOfPid: [Int32: [(page: Int, stamp: Stamp)]] = [:]
    /// Each page's first render by each process, in the order read.
    private var renders: [Int: [(pid: Int32, stamp: Stamp)]] = [:]
    private var reloads: [Stamp] = []

    package mutating func note(_ o: Observation, at stamp: Stamp) {
        guard let page = o.page, let pid = o.pid else { return }
        if pagesOfPid[pid] == nil, pagesOfPid.count >= Self.limit { return }
        var pages = pagesOfPid[pid, default: []]
        if !pages.contains(where: { $0.page == page }) {
            if pages.count == Self.pagesPerPid { pages.removeFirst() }
            pages.append((page, stamp))
            pagesOfPid[pid] = pages
        }
        guard o.kind == .render, renders[page]?.contains(where: { $0.pid == pid }) != true else { return }
        if renders[page] == nil, renders.count >= Self.limit { return }
        renders[page, default: []].append((pid, stamp))
    }

    /// The app said, in its termination delegate, that it reloaded the view.
    package mutating func noteReload(at stamp: Stamp) {
        if reloads.count < Self.limit { reloads.append(stamp) }
    }

    /// How the page `pid` served came back after it died at `death`: the first render of that page by another
    /// process after the death, `reloaded` when a termination callback fired (`told`) or the app said it reloaded
    /// between the two, else `loaded again`. Nil when no such render has a time to measure from.
    package func recovered(pid: Int32, after death: Stamp, told: Bool) -> Incident.Recovered? {
        // The page its lines named nearest its death: a pid may serve several pages, and be reused much later.
        guard let page = pagesOfPid[pid]?.filter({ Stamp.near($0.stamp, death, .newProcess) || $0.stamp.before(death) }).last?.page,
            let render = renders[page]?.first(where: { $0.pid != pid && death.before($0.stamp) }),
            let micros = death.micros(to: render.stamp)
        else { return nil }
        let reloaded = told || reloads.contains { death.before($0) && $0.before(render.stamp) }
        return Incident.Recovered(how: reloaded ? "reloaded" : "loaded again", micros: micros)
    }
}
