import Glibc
import System
import Vocabulary

/// The nice and oom_score_adj values behind each band; a worker's oom_score_adj within its band follows its rank
/// (`OOMScores`).
public struct PriorityBands: Sendable {
    public var foregroundNice: Int32 = 0
    public var backgroundNice: Int32 = 10

    public init() {}

    package func nice(_ band: PriorityBand) -> Int32 { band == .foreground ? foregroundNice : backgroundNice }
    package func oomScoreAdjust(_ band: PriorityBand, rank: Int = 0) -> Int32 { Int32(OOMScores.value(band, rank: rank)) }
}

/// The outcome of moving a worker between bands.
package enum PriorityResult: Equatable {
    case applied
    /// The process no longer exists: RunningBoard's "Specified target process does not exist".
    case noSuchProcess
    /// Not allowed for this user (raising priority needs CAP_SYS_NICE); the worker keeps its old standing.
    case denied(SystemError)
    case failed(SystemError)

    /// As the event log writes it.
    package var answer: PriorityAnswer {
        switch self {
        case .applied: .applied
        case .noSuchProcess: .noSuchProcess
        case .denied(let error): error.errno == EPERM ? .notPermitted : .accessDenied
        case .failed: .failed
        }
    }

    /// What the event log's `error` says: the call refused, for a band not permitted; the error, for a band that
    /// failed for another reason.
    package var error: String? {
        switch self {
        case .applied, .noSuchProcess: nil
        case .denied(let error): error.description
        case .failed(let error): String(cString: strerror(error.errno))
        }
    }
}

extension PriorityBands {
    /// Applies `band` to `pid` at `rank` in it: scheduling priority first, then the OOM score.
    package func apply(_ band: PriorityBand, rank: Int = 0, to pid: Int32) -> PriorityResult {
        do {
            try Sys.setPriority(pid, nice: nice(band))
            try Sys.setOOMScoreAdjust(pid, oomScoreAdjust(band, rank: rank))
            return .applied
        } catch {
            switch error.errno {
            case ESRCH: return .noSuchProcess
            case EPERM, EACCES: return .denied(error)
            default: return .failed(error)
            }
        }
    }
}
