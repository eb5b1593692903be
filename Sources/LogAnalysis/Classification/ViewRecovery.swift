import Events
import Vocabulary

/// How our own event log says each view came back after its process died: a `recovery` event for the view
/// (`rebuild`, `reload`), then the first render of the same load, in that view or in the view rebuilt for it. A load
/// may die and recover more than once. Bounded: past `limit` views or recoveries, later ones are not followed.
package struct ViewRecovery {
    package static let limit = 1 << 16

    private struct Recovery {
        package var how: RecoveryKind
        package var time: Int
        package var rendered: Int?
    }

    private var loadOfView: [Int: Int] = [:]
    /// By load, in the order they happened.
    private var recoveries: [Int: [Recovery]] = [:]
    private var count = 0

    /// `time`: when it happened, in microseconds since 1970.
    package mutating func note(_ event: Event, at time: Int?) {
        guard let view = event.view else { return }
        switch event.kind {
        case .viewOpen(let load, _), .spawn(let load, _):
            if loadOfView.count < Self.limit { loadOfView[view] = load }
        case .recovery(let how, _, _):
            guard let load = loadOfView[view], let time, count < Self.limit else { return }
            count += 1
            recoveries[load, default: []].append(Recovery(how: how, time: time))
        case .render:
            guard let load = loadOfView[view], let time, var list = recoveries[load],
                let open = list.lastIndex(where: { $0.rendered == nil && $0.time <= time })
            else { return }
            list[open].rendered = time
            recoveries[load] = list
        default:
            break
        }
    }

    /// How the view came back after the death at `death` (microseconds since 1970): the first recovery of its load
    /// after the death, and how long from the death until its content was seen again.
    package func recovered(view: Int, after death: Int) -> Incident.Recovered? {
        guard let load = loadOfView[view], let recovery = recoveries[load]?.first(where: { $0.time >= death }),
            let rendered = recovery.rendered
        else { return nil }
        return Incident.Recovered(how: recovery.how == .rebuild ? "rebuilt" : "reloaded", micros: rendered - death)
    }
}
