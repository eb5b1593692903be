import Events
import Glibc
import LogAnalysis
import System

/// A single progress line on stderr, only when stderr is a terminal, redrawn at most ten times a second.
final class Progress {
    private let total: Int
    private let label: String
    private let enabled = isatty(2) == 1
    private var outcomes: [SupervisorEvent.Outcome: Int] = [:]
    private var done = 0
    private var lastDrawn = 0

    init(total: Int, label: String) {
        self.total = total
        self.label = label
    }

    func record(_ event: Event) {
        guard enabled, case .loadEnd(let end) = event.kind else { return }
        done += 1
        outcomes[end.outcome, default: 0] += 1
        guard event.monotonic - lastDrawn > 100_000_000 || done == total else { return }
        lastDrawn = event.monotonic
        let failed = outcomes[.failed].map { ", \($0) failed" } ?? ""
        writeStandardError(
            "\r\u{1B}[K\(label): \(done)/\(total) loads, \(outcomes[.rendered, default: 0]) rendered, "
                + "\(outcomes[.blank, default: 0]) blank\(failed)")
    }

    func finish() {
        if enabled && lastDrawn > 0 { writeStandardError("\r\u{1B}[K") }
    }
}
