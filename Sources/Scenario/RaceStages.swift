import Events
import Vocabulary

/// A run's race kills by how far each page had got when its worker died, and how many of those loads were seen
/// rendered in the end: which races a policy saves.
public struct RaceStages {
    public struct Count: Equatable, Sendable {
        public fileprivate(set) var killed = 0
        public fileprivate(set) var saved = 0
    }

    public private(set) var byStage: [RaceStage: Count] = [:]
    /// Workers whose current page has committed.
    private var committed: Set<Int32> = []
    /// Loads whose worker was killed in a race, and the stage it had reached.
    private var raced: [Int: RaceStage] = [:]

    /// `pid` was given a view's page to load.
    mutating func newPage(_ pid: Int32) { committed.remove(pid) }
    mutating func committed(_ pid: Int32) { committed.insert(pid) }

    /// `pid` died; `race` says it was a race kill, with whether its page had rendered and the load it served.
    mutating func died(_ pid: Int32, race: (rendered: Bool, load: Int?)?) {
        let hadCommitted = committed.remove(pid) != nil
        guard let race else { return }
        let stage: RaceStage = race.rendered ? .afterRender : hadCommitted ? .afterCommit : .beforeCommit
        byStage[stage, default: Count()].killed += 1
        if let load = race.load { raced[load] = stage }
    }

    /// `load` ended, rendered or not.
    mutating func ended(_ load: Int, rendered: Bool) {
        guard let stage = raced.removeValue(forKey: load), rendered else { return }
        byStage[stage, default: Count()].saved += 1
    }

    /// `{"before-commit": {"killed", "saved"}, ...}`, every stage.
    public var json: JSON {
        .object(RaceStage.allCases.map { stage in
            let count = byStage[stage, default: Count()]
            return (stage.rawValue, .object([("killed", .int(count.killed)), ("saved", .int(count.saved))]))
        })
    }

    /// `saved/killed` for `stage`.
    public func cell(_ stage: RaceStage) -> String {
        let count = byStage[stage, default: Count()]
        return "\(count.saved)/\(count.killed)"
    }
}
