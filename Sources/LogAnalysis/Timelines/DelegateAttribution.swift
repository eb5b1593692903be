/// The app's own `webViewWebContentProcessDidTerminate` line names no process: it is about the WebContent process
/// whose death came just before it, when exactly one did. WebKit calls the delegate as it learns of the death, so
/// the line follows within a burst (`Window.burst`); with two deaths in that window, the line could be about
/// either, and is about neither.
struct DelegateAttribution {
    private var deaths: [(pid: Int32, stamp: Stamp)] = []
    private static let kept = 8

    /// A death of `pid`, a WebContent process.
    mutating func noteDeath(of pid: Int32, at stamp: Stamp) {
        if deaths.contains(where: { $0.pid == pid && Stamp.near($0.stamp, stamp, .burst) }) { return }
        if deaths.count == Self.kept { deaths.removeFirst() }
        deaths.append((pid, stamp))
    }

    /// The one WebContent process that died within a burst before the delegate's line at `stamp`, if exactly one did.
    func pid(ofDelegateLineAt stamp: Stamp) -> Int32? {
        let before = deaths.filter { !stamp.before($0.stamp) && Stamp.near($0.stamp, stamp, .burst) }
        return Set(before.map(\.pid)).count == 1 ? before.first?.pid : nil
    }
}
