import Events
import Vocabulary

/// What the process cache did in a run, from its events: the views that took a cached worker of their site and
/// those that found none (by why), and the workers cached, refused and evicted (by why).
public struct CacheCounts: Equatable, Sendable {
    public private(set) var taken = 0
    /// Views that found no cached worker of their site: `nil` when none was cached since the last was taken.
    public private(set) var missed: [CacheEviction?: Int] = [:]
    public private(set) var added = 0
    public private(set) var notCached: [NotCachedReason: Int] = [:]
    public private(set) var evicted: [CacheEviction: Int] = [:]

    public var misses: Int { missed.values.reduce(0, +) }
    /// Views that took a cached worker of those that looked for one; nil when none looked.
    public var hitRate: Double? { taken + misses == 0 ? nil : Double(taken) / Double(taken + misses) }
    /// Whether the run had a cache at all.
    public var used: Bool { taken + misses + added > 0 || !notCached.isEmpty }

    mutating func record(_ event: SupervisorEvent) {
        switch event {
        case .cacheTaken: taken += 1
        case .cacheMiss(_, let evicted): missed[evicted, default: 0] += 1
        case .cacheAdd: added += 1
        case .notCached(_, let reason): notCached[reason, default: 0] += 1
        case .cacheEvict(_, let reason): evicted[reason, default: 0] += 1
        default: break
        }
    }

    /// The key a miss is counted under in JSON: its eviction, or `none-cached`.
    public static func missKey(_ evicted: CacheEviction?) -> String { evicted?.rawValue ?? "none-cached" }

    public var json: JSON {
        .object([
            ("taken", .int(taken)),
            ("missed", .object(([nil] + CacheEviction.allCases.map(Optional.some)).map {
                (Self.missKey($0), .int(missed[$0, default: 0]))
            })),
            ("hitRate", hitRate.map { .double(($0 * 10_000).rounded() / 10_000) } ?? .null),
            ("added", .int(added)),
            ("notCached", .object(NotCachedReason.allCases.map { ($0.rawValue, .int(notCached[$0, default: 0])) })),
            ("evicted", .object(CacheEviction.allCases.map { ($0.rawValue, .int(evicted[$0, default: 0])) })),
        ])
    }
}
