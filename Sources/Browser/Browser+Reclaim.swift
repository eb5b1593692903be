import Core
import WireProtocol

/// Workers taken back after the supervisor's restart (`run --keep-workers`, issue 34): each is adopted into the
/// tab whose saved state it matches, which it then shows without loading anything again, or refused and killed.
extension Browser {
    /// Where the worker taken back belongs (`Adoption.place`). A tab whose saved list the navigation policy now
    /// refuses part of is restored as it would be without the worker: the worker's list no longer matches it.
    func reclaimed(_ worker: Worker, _ claim: WorkerClaim) {
        guard !stopping else { return supervisor.refuse(worker, because: "the run is stopping") }
        switch Adoption.place(claim, among: tabs, isTaken: \.realized) {
        case .refused(let reason): supervisor.refuse(worker, because: reason)
        case .tab(let id):
            guard let tab = tabs.first(where: { $0.id == id }) else { return }
            screenHistory(of: tab)
            guard Adoption.matches(claim, tab.history) else {
                return supervisor.refuse(worker, because: "the navigation policy refuses an entry of its list")
            }
            realize(tab, because: .adopted, adopting: (worker, claim))
        }
    }
}
