import Events
import Glibc
import Synchronization
import LogAnalysis
import System
import Vocabulary

/// A single progress line on stderr, only when stderr is a terminal, redrawn at most ten times a second; after a
/// few seconds it adds an estimate of the time left, over every policy still to run when it is one of several.
final class Progress {
    private let total: Int
    private let label: String
    private let enabled = isatty(2) == 1
    private var outcomes: [LoadOutcome: Int] = [:]
    private var done = 0
    private var lastDrawn = 0
    /// The whole job this line is part of: loads done before it, loads in all, and when the job began (real
    /// time, never a run's clock, which a replay moves on past quiet stretches).
    private let before: Int, overall: Int, began: Int

    init(total: Int, label: String, before: Int = 0, overall: Int? = nil, began: Int = Sys.monotonicNanoseconds()) {
        self.total = total
        self.label = label
        (self.before, self.overall, self.began) = (before, overall ?? total, began)
    }

    /// How long a job runs before its line says how long is left.
    static let estimateAfter = 2_000_000_000

    func record(_ event: Event) {
        guard enabled, case .loadEnd(let end) = event.kind else { return }
        done += 1
        outcomes[end.outcome, default: 0] += 1
        let now = Sys.monotonicNanoseconds()
        guard now - lastDrawn > 100_000_000 || done == total else { return }
        lastDrawn = now
        let failed = outcomes[.failed].map { ", \($0) failed" } ?? ""
        writeStandardError(
            "\r\u{1B}[K\(label): \(done)/\(total) loads, \(outcomes[.rendered, default: 0]) rendered, "
                + "\(outcomes[.blank, default: 0]) blank\(failed)" + (estimate(now: now).map { ", \($0)" } ?? ""))
    }

    /// `about 12 s left`, once the job has run `estimateAfter`: the time so far per load, for the loads left.
    func estimate(now: Int) -> String? {
        let elapsed = now - began, finished = before + done
        guard elapsed >= Self.estimateAfter, finished > 0, overall > finished else { return nil }
        let left = Double(elapsed) / Double(finished) * Double(overall - finished) / 1e9
        return "about \(left < 60 ? "\(Int(left.rounded(.up))) s" : "\(Int((left / 60).rounded(.up))) min") left"
    }

    func finish() {
        if enabled && lastDrawn > 0 { writeStandardError("\r\u{1B}[K") }
    }
}

/// One progress line for runs on several threads: each event is recorded under a lock.
final class SharedProgress: Sendable {
    private let progress: Mutex<Progress>

    init(_ progress: sending Progress) { self.progress = Mutex(progress) }

    func record(_ event: Event) { progress.withLock { $0.record(event) } }

    func finish() { progress.withLock { $0.finish() } }
}
