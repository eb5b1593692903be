/// How our own event log says each view came back after its process died: a `recovery` event for the view
/// (`rebuild`, `reload`), then the first render of the same load, in that view or in the view rebuilt for it.
/// Bounded: past `limit` loads, later ones are not followed.
struct ViewRecovery {
    static let limit = 1 << 16

    private var loadOfView: [Int: Int] = [:]
    /// By load: the recovery under way, and then the render that ended it.
    private var recoveries: [Int: (how: String, rendered: Int?)] = [:]

    mutating func note(_ event: EventRecord) {
        guard let view = event.view else { return }
        switch event.event {
        case "view-open", "spawn":
            if let load = event.load, loadOfView.count < Self.limit { loadOfView[view] = load }
        case "recovery":
            if let load = loadOfView[view], recoveries.count < Self.limit {
                recoveries[load] = (event.kind == "rebuild" ? "rebuilt" : event.kind == "reload" ? "reloaded" : event.kind, nil)
            }
        case "render":
            if let load = loadOfView[view], let recovery = recoveries[load], recovery.rendered == nil {
                recoveries[load] = (recovery.how, event.time)
            }
        default:
            break
        }
    }

    /// How the view came back, and how long after `death` (microseconds since 1970) its content was seen again.
    func recovered(view: Int, after death: Int) -> Incident.Recovered? {
        guard let load = loadOfView[view], let recovery = recoveries[load], let rendered = recovery.rendered,
            rendered >= death
        else { return nil }
        return Incident.Recovered(how: recovery.how, micros: rendered - death)
    }
}
