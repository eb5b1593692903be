/// How WebKit's own lines say a page came back after its process died: a process that served the page
/// (`[pageProxyID=7, ..., PID=4107]`) dies, and a later process renders the same page. The app's own
/// `webViewWebContentProcessDidTerminate` line saying it reloaded, or a termination callback, says how. Bounded: past
/// `limit` pids, renders or reloads, later ones are not followed.
package struct PageRecovery {
    package static let limit = 1 << 16
    private static let pagesPerPid = 4

    /// The pages each pid's lines named, with when.
    private var pagesOfPid: [Int32: [(page: Int, stamp: Stamp)]] = [:]
    /// Each page's first render by each process, in the order read, and which (page, pid) pairs those are; at most
    /// `limit` in all.
    private var renders: [Int: [(pid: Int32, stamp: Stamp)]] = [:]
    private(set) var rendered: Set<PagePid> = []
    struct PagePid: Hashable { let page: Int, pid: Int32 }
    /// When the app said it reloaded the view of each pid that died.
    private var reloads: [Int32: [Stamp]] = [:]
    private var reloadCount = 0

    package mutating func note(_ o: Observation, at stamp: Stamp) {
        guard let page = o.page, let pid = o.pid else { return }
        notePage(page, servedBy: pid, at: stamp)
        if o.kind == .render, rendered.count < Self.limit, rendered.insert(PagePid(page: page, pid: pid)).inserted {
            renders[page, default: []].append((pid, stamp))
        }
    }

    /// One lookup for a pid already known, the usual case: a page is named on line after line.
    private mutating func notePage(_ page: Int, servedBy pid: Int32, at stamp: Stamp) {
        guard let index = pagesOfPid.index(forKey: pid) else {
            if pagesOfPid.count < Self.limit { pagesOfPid[pid] = [(page, stamp)] }
            return
        }
        guard !pagesOfPid.values[index].contains(where: { $0.page == page }) else { return }
        if pagesOfPid.values[index].count == Self.pagesPerPid { pagesOfPid.values[index].removeFirst() }
        pagesOfPid.values[index].append((page, stamp))
    }

    /// The app said, in its termination delegate for `pid`'s death, that it reloaded the view.
    package mutating func noteReload(of pid: Int32, at stamp: Stamp) {
        guard reloadCount < Self.limit else { return }
        reloadCount += 1
        reloads[pid, default: []].append(stamp)
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
        let reloaded = told || reloads[pid, default: []].contains { !$0.before(death) && $0.before(render.stamp) }
        return Incident.Recovered(how: reloaded ? "reloaded" : "loaded again", micros: micros)
    }
}
