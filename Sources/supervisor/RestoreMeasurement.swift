import Core
import Events
import LogAnalysis
import Scenario
import Browser
import System
import Text

/// What `session restore` reports: how soon the tabs were usable and the visible one's worker launched and
/// rendered, and what an unrealized tab costs the supervisor in heap.
final class RestoreMeasurement {
    private var start = 0
    private var ready = 0
    private var heapGrowth = 0
    private var spawnedAt: Int?
    private var renderedAt: Int?
    private var spawns = 0

    init(log: EventLog) {
        log.observers.append { [unowned self] event in
            switch event.kind {
            case .spawn:
                spawns += 1
                if spawnedAt == nil { spawnedAt = event.monotonic }
            case .render:
                if renderedAt == nil { renderedAt = event.monotonic }
            default:
                break
            }
        }
    }

    /// Runs the restore, timing it and measuring the heap it leaves in use (the decoded file is gone by then).
    func restoring<T>(_ body: () throws -> T) rethrows -> T {
        let heapBefore = Sys.heapInUse()
        start = Sys.monotonicNanoseconds()
        let result = try body()
        ready = Sys.monotonicNanoseconds()
        heapGrowth = Sys.heapInUse() - heapBefore
        return result
    }

    struct Result {
        let json: JSON
        let text: String
    }

    func result(tabs: [Tab], summary: RunSummary, damage: SessionDamage?) -> Result {
        let ms = { (end: Int?) in end.map { Double($0 - self.start) / 1e6 } }
        // With no tab there is nothing to divide by: no figure, rather than a made-up 0.
        let perTab = tabs.isEmpty ? nil : heapGrowth / tabs.count
        let realized = tabs.filter(\.realized).count
        let json = JSON.object([
            ("tabs", .int(tabs.count)), ("realized", .int(realized)), ("workersSpawned", .int(spawns)),
            ("tabsReadyMs", .double(ms(ready) ?? 0)), ("restoreMs", ms(spawnedAt).map(JSON.double) ?? .null),
            ("renderedMs", ms(renderedAt).map(JSON.double) ?? .null),
            ("bytesPerUnrealizedTab", perTab.map(JSON.int) ?? .null),
            ("damage", damage.map { .string($0.description) } ?? .null),
        ])
        let format = { (value: Double?) in value.map { "\(fixed($0, 2)) ms" } ?? "never" }
        var lines = ["restored \(counted(tabs.count, "tab")), \(realized) realized, \(counted(spawns, "worker")) spawned"]
        lines.append("  tabs usable after        \(format(ms(ready)))")
        lines.append("  visible tab's worker     \(format(ms(spawnedAt)))")
        lines.append("  visible tab rendered     \(format(ms(renderedAt)))")
        lines.append("  heap per unrealized tab  \(perTab.map { "\($0) bytes" } ?? "-")")
        if let damage { lines += wrapped("  damage: \(damage)", indent: 4) }
        return Result(json: json, text: lines.joined(separator: "\n"))
    }
}
