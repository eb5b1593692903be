import Events
import Vocabulary

/// A record of our own logs, read through their own decoders: the event log's through `SupervisorEvent`'s, Jetsam's
/// kill log's through `JetsamKill`'s. A record either decoder refuses is not read at all (the analyzer counts it),
/// never read with defaults.
package enum OwnLogRecord {
    case event(Event)
    case jetsamKill(JetsamKill)

    package init(_ line: [UInt8], format: LogFormat) throws(EventDecodingError) {
        self = format == .jetsamLog ? .jetsamKill(try JetsamKill(line: line)) : .event(try Event(line: line))
    }

    /// When it happened, in microseconds since 1970; nil outside what the analyzer shows.
    package var micros: Int? {
        let nanoseconds = switch self {
        case .event(let event): event.wall
        case .jetsamKill(let kill): kill.wall
        }
        let micros = nanoseconds / 1000
        return LogTime.readableMicros.contains(micros) ? micros : nil
    }

    /// What it says, in the terms the analyzer uses for every log.
    package var observations: [Observation] {
        switch self {
        case .jetsamKill(let kill): [Observation(.killed, pid: Int(kill.pid), process: .webContent)]
        case .event(let event): Self.observations(of: event)
        }
    }

    private static func observations(of event: Event) -> [Observation] {
        func make(_ kind: Observation.Kind) -> Observation {
            var observation = Observation(kind, pid: event.pid.map(Int.init), process: .webContent)
            observation.view = event.view
            return observation
        }
        switch event.kind {
        case .spawn(_, let reused): return [make(reused ? .reused : .launch)]
        case .hello: return [make(.alive)]
        case .commit: return [make(.pageBound)]
        case .render: return [make(.render)]
        case .termination: return [make(.callback)]
        case .unobserved: return [make(.unobserved)]
        case .kill, .shutdown: return [make(.teardown)]
        case .inject: return [make(.killed)]
        case .spare(reused: true), .cacheCheck, .cacheAdd: return [make(.cached)]
        case .interrupt: return [Observation(.hostQuit, pid: nil)]
        case .priority(let band, _, _, let result, _, _) where result == .applied || result == .noSuchProcess:
            var observation = make(result == .applied ? .assertionTaken : .assertionFailed)
            let role: AssertionName.Role = band == .foreground ? .foreground : band == .suspended ? .suspended : .background
            observation.assertion = AssertionName(role: role, process: .webContent)
            if result == .noSuchProcess { observation.error = AssertionError(domain: .assertion, code: 2, reason: .doesNotExist) }
            return [observation]
        case .launchFailed:
            var observation = make(.launchFailed)
            observation.death = (.launchFailed, .crash, false, event.view != nil, nil)
            return [observation]
        case .death(let death):
            var observation = make(.death)
            if case .signal(let signal) = death.exit { observation.number = signal }
            observation.death = (death.status, death.terminationReason, death.rendered, event.view != nil, death.band)
            return [observation]
        default: return []
        }
    }
}
