import Glibc
import System

/// A worker's scheduling and memory-kill standing: what RunningBoard expresses with assertions, expressed with
/// `nice` and `oom_score_adj`.
public enum PriorityBand: String, Sendable, CaseIterable {
    case foreground
    /// A hidden view's worker: it holds a background assertion, so it ranks above a worker that holds none.
    case hidden
    /// No assertion at all: a worker just launched, or a spare waiting for a view. The first the killer takes.
    case background
    /// Kept alive like foreground (low oom_score_adj) but scheduled like background (high nice): a worker the
    /// user is about to see is protected from the killer without taking CPU from the views already on screen.
    case boosted
}

/// The nice and oom_score_adj values behind each band.
public struct PriorityBands: Sendable {
    public var foregroundNice: Int32 = 0
    public var backgroundNice: Int32 = 10
    public var foregroundOOMScoreAdjust: Int32 = 0
    public var hiddenOOMScoreAdjust: Int32 = 800
    public var backgroundOOMScoreAdjust: Int32 = 900

    public init() {}

    package func nice(_ band: PriorityBand) -> Int32 { band == .foreground ? foregroundNice : backgroundNice }
    package func oomScoreAdjust(_ band: PriorityBand) -> Int32 {
        switch band {
        case .foreground, .boosted: foregroundOOMScoreAdjust
        case .hidden: hiddenOOMScoreAdjust
        case .background: backgroundOOMScoreAdjust
        }
    }
}

/// The outcome of moving a worker between bands.
package enum PriorityResult: Equatable {
    case applied
    /// The process no longer exists: RunningBoard's "Specified target process does not exist".
    case noSuchProcess
    /// Not allowed for this user (raising priority needs CAP_SYS_NICE); the worker keeps its old standing.
    case denied(SystemError)
    case failed(SystemError)

    package var name: String {
        switch self {
        case .applied: "ok"
        case .noSuchProcess: "ESRCH"
        case .denied(let error): error.errno == EPERM ? "EPERM" : "EACCES"
        case .failed(let error): String(cString: strerror(error.errno))
        }
    }
}

extension PriorityBands {
    /// Applies `band` to `pid`: scheduling priority first, then the OOM score.
    package func apply(_ band: PriorityBand, to pid: Int32) -> PriorityResult {
        do {
            try Sys.setPriority(pid, nice: nice(band))
            try Sys.setOOMScoreAdjust(pid, oomScoreAdjust(band))
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

/// RunningBoard's client-side log line for a foreground assertion on a process that is already gone, word for
/// word as iOS prints it, so that logs from this tool and from a device read the same.
package let rbsTargetMissingLine =
    #"Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>"#
