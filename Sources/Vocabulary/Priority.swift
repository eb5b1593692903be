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
    /// Stopped (SIGSTOP) after its hidden view's grace, as WebKit's ProcessThrottler suspends a WebContent process
    /// with no activity left: no CPU at all, and the first the killer takes, as iOS's Jetsam takes suspended
    /// processes first. A band the supervisor moves workers into, never one a policy names.
    case suspended
    /// In the process cache, serving no view: taken before any view's worker, after spares.
    case cached
    /// A spare launched ahead, serving no view and showing no page: the first the killer takes.
    case spare

    /// The bands a policy may name for a worker.
    public static let chosen: [PriorityBand] = [.foreground, .hidden, .background, .boosted]

    /// Protected from the killer as a view on screen is.
    public var isProtected: Bool { self == .foreground || self == .boosted }

    /// What runningboardd logs of a WebContent process in this band: its state, its role, its jetsam priority. On
    /// screen, the focal app's role and the foreground priority (100); a hidden, launching or boosted-off worker
    /// holds WebKit's background assertion (role Background, 40); one suspended, cached or spare, none (0). The
    /// values are those real logs show for each kind of assertion (IOSLogFormats.md), not a table Apple publishes.
    public var runningBoard: (state: String, role: String, jetsamPriority: Int) {
        switch self {
        case .foreground, .boosted: ("running-active", "UserInteractiveFocal", 100)
        case .hidden, .background: ("running-active", "Background", 40)
        case .suspended, .cached, .spare: ("running-suspended", "None", 0)
        }
    }
}

/// The oom_score_adj each band gives a worker, and within a band, its rank: Chromium ranks its renderers so that the
/// OS kills the least important first (a visible frame above a hidden one, the most recently shown first;
/// ChildProcessLauncherHelper's priority), and here a worker's rank in its band is added to the band's base, so that
/// the killer's one rule (the highest oom_score_adj first) takes them in rank order. From the last taken to the
/// first: on screen (foreground, boosted), hidden tabs by how recently they were shown, workers still launching for
/// a view, suspended tabs by how recently they were shown, cached workers by how recently they were cached, spares.
/// Rank 0 is the most recent; ranks past a band's span share its last value.
public enum OOMScores {
    public static let foreground = 0
    public static let hidden = 800..<850
    public static let background = 900
    public static let suspended = 920..<960
    public static let cached = 960..<1000
    public static let spare = 1000

    /// The values `band` spans: one for a band with no ranks.
    public static func span(of band: PriorityBand) -> Range<Int> {
        switch band {
        case .foreground, .boosted: foreground..<(foreground + 1)
        case .hidden: hidden
        case .background: background..<(background + 1)
        case .suspended: suspended
        case .cached: cached
        case .spare: spare..<(spare + 1)
        }
    }

    /// The oom_score_adj of the worker of rank `rank` in `band`.
    public static func value(_ band: PriorityBand, rank: Int) -> Int {
        let span = span(of: band)
        return span.lowerBound + min(max(rank, 0), span.count - 1)
    }

    /// The band and rank an oom_score_adj stands for, as a killer that sees only /proc reads it; nil for a value no
    /// band gives.
    public static func standing(_ value: Int) -> (band: PriorityBand, rank: Int)? {
        let bands: [PriorityBand] = [.foreground, .hidden, .background, .suspended, .cached, .spare]
        guard let band = bands.first(where: { span(of: $0).contains(value) }) else { return nil }
        return (band, value - span(of: band).lowerBound)
    }
}

/// What came of moving a worker between bands, as the event log's `priority` event writes it.
public enum PriorityAnswer: String, Sendable, CaseIterable {
    case applied = "ok"
    /// The process no longer exists: RunningBoard's "Specified target process does not exist".
    case noSuchProcess = "ESRCH"
    /// Not allowed for this user (raising priority needs CAP_SYS_NICE).
    case notPermitted = "EPERM"
    case accessDenied = "EACCES"
    /// Any other error: the event's `error` says which.
    case failed
}

/// RunningBoard's errors, word for word as iOS logs them, so that logs from this tool and from a device read the
/// same. Each is spelled as RunningBoard's client logs it in its `[assertion]` category.
public enum RunningBoardError: String, Sendable, CaseIterable {
    /// An assertion on a process that is already gone.
    case targetMissing =
        #"Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>"#

    /// The error alone, as WebKit's ProcessAssertion quotes it.
    public var error: String { String(rawValue.dropFirst(Self.prefix.count).dropLast()) }

    private static let prefix = "Error acquiring assertion: <"
}
