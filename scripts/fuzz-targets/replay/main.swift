// libFuzzer harness for the replay schedule reader (Sources/Replay, `ReplaySchedule(json:)`), built and run by
// `scripts/fuzz`. For any bytes x:
//   1. Reading never traps: a schedule it cannot take is a `ReplayError`.
//   2. A schedule it reads writes out (`json`) as bytes that read back to an equal schedule, and that write out
//      again to the same bytes. (The input's own bytes need not come back: JSON has many spellings of one value.)
import Events
import FuzzDriver
import Replay
import Vocabulary

func bytes(_ schedule: ReplaySchedule) -> [UInt8] { Array(schedule.json.text.utf8) }

func seeds() -> [(name: String, bytes: [UInt8])] {
    let killed = ReplayIncident(
        id: "log.txt:4107", kind: .killedBeforeRender, attach: ReplayIncident.Span(120),
        death: ReplayIncident.Span(lowMs: 80, highMs: 95.5)!, band: .background, rendered: false, cause: .kill,
        detail: "jetsam \"per-process-limit\"", evidence: ["line 1", "line\t2 \u{E9}"])
    let crash = ReplayIncident(
        id: "b", kind: .crash, attach: ReplayIncident.Span(0), death: ReplayIncident.Span(3_600_000), band: nil,
        rendered: nil, cause: .crash)
    return [
        ("empty", bytes(ReplaySchedule(sources: [], incidents: []))),
        ("one", bytes(ReplaySchedule(sources: ["log.txt"], incidents: [killed]))),
        ("two", bytes(ReplaySchedule(sources: ["a", "b"], incidents: [killed, crash]))),
    ]
}

runFuzzer(seeds: seeds) { input in
    guard let schedule = try? ReplaySchedule(json: Array(input)) else { return }
    let written = bytes(schedule)
    let again: ReplaySchedule
    do throws(ReplayError) { again = try ReplaySchedule(json: written) } catch {
        violated("a schedule read from the input writes bytes that do not read: \(error)")
    }
    guard again == schedule else { violated("the schedule written and read again differs: \(again) vs \(schedule)") }
    guard bytes(again) == written else { violated("a schedule's written form is not one") }
}
