import SupervisorKit

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
            switch event.name {
            case "spawn":
                spawns += 1
                if spawnedAt == nil { spawnedAt = event.monotonic }
            case "render":
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
        let perTab = tabs.isEmpty ? 0 : heapGrowth / tabs.count
        let realized = tabs.filter(\.realized).count
        let json = JSON.object([
            ("tabs", .int(tabs.count)), ("realized", .int(realized)), ("workersSpawned", .int(spawns)),
            ("tabsReadyMs", .double(ms(ready) ?? 0)), ("restoreMs", ms(spawnedAt).map(JSON.double) ?? .null),
            ("renderedMs", ms(renderedAt).map(JSON.double) ?? .null), ("bytesPerUnrealizedTab", .int(perTab)),
            ("damage", damage.map { .string($0.description) } ?? .null),
        ])
        let format = { (value: Double?) in value.map { "\(($0 * 100).rounded() / 100) ms" } ?? "never" }
        var text = "restored \(tabs.count) tabs, \(realized) realized, \(spawns) worker(s) spawned\n"
        text += "  tabs usable after      \(format(ms(ready)))\n"
        text += "  visible tab's worker   \(format(ms(spawnedAt)))\n"
        text += "  visible tab rendered   \(format(ms(renderedAt)))\n"
        text += "  heap per unrealized tab \(perTab) bytes"
        if let damage { text += "\n  damage: \(damage)" }
        return Result(json: json, text: text)
    }
}
