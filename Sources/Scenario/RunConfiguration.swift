import Browser
import Core
import Replay

/// Everything one run needs to know: the workload and the simulated world here, the supervisor's and the browser's
/// settings in theirs (read and written through this one, as `configuration.policy`). Every random choice derives
/// from `seed` and the load's index, so each policy in a comparison meets the same pages, delays and faults.
@dynamicMemberLookup
public struct RunConfiguration: Sendable {
    public var supervisor = SupervisorSettings()
    public var browser = BrowserSettings()
    /// Loads in all; each starts in a fresh view, as the field test app did.
    public var loads = 20
    /// Views loading at once.
    public var views = 1
    /// With a value above zero, loads arrive on this fixed schedule instead of one per free view (an open loop):
    /// a policy that leaves a view blank for seconds then cannot lighten the load on every other view, so
    /// latencies compare fairly across policies. `views` then only decides which loads are hidden tabs.
    public var arrivalNanoseconds = 0
    /// How many of those views are hidden tabs: they load off screen, stay hidden for `hiddenNanoseconds`, and are
    /// then shown.
    public var hidden = 0
    /// Sites the loads are spread over: with more than one, each load shows its page at `app://siteN.test/`, so that
    /// reuse keyed by site has sites to tell apart.
    public var sites = 1
    public var seed: UInt64 = 1
    public var workerPath: String
    /// Workers enter their sandbox before they say hello (`Workers/WorkerRuntime/sandbox.c`).
    public var sandbox = true
    /// From view creation to attach (in the window: foreground assertion, then the termination observer), drawn
    /// uniformly from this range.
    public var attachDelayNanoseconds = 2_000_000...6_000_000
    /// From a worker's fetch of its page to the scheme handler's answer, drawn uniformly from this range for each
    /// load and attempt: on a device, the view is in its window long before its page commits, so a load's commit
    /// and first paint come after its attach here too (README, "Timing").
    public var fetchLatencyNanoseconds = 5_000_000...8_000_000
    /// How long a rendered view stays on screen before it is closed; a worker killed meanwhile must come back.
    public var dwellNanoseconds = 0
    public var hiddenNanoseconds = 50_000_000
    /// How the run passes its waits while no process has anything to do.
    public var waits = Waits.real
    /// A load with no title this long after it was shown counts as a user-visible blank, whatever happens later.
    public var blankTimeoutNanoseconds = 5_000_000_000
    /// Injected kill-before-render races: the fraction of loads whose first worker is killed while at background
    /// priority, after spawn and before attach.
    public var raceRate = 0.0
    /// Injected kill-after-render: the fraction of hidden loads whose rendered worker is killed while hidden.
    public var killRate = 0.0
    /// With a value above zero, an editor view is open for the whole run and one input is typed into it per
    /// interval.
    public var typingIntervalNanoseconds = 0
    /// With a path, the run browses tabs instead of loading pages into fresh views: the tabs saved there are
    /// restored (or `tabs` new ones made), and `loads` is the number of navigations; the tabs are saved back as
    /// they change.
    public var sessionPath: String?
    /// How many tabs a new session has.
    public var tabs = 3
    /// How many of the session's first tabs are realized as browsing begins, besides the shown one.
    public var liveTabs = 0
    /// Run Jetsam beside the workers.
    public var jetsam: JetsamSettings?
    /// Start the workers through a holder that keeps them alive for a lease when the supervisor dies.
    public var keepWorkers: KeepWorkersSettings?
    /// A file killers outside the run (scripts/chaos) append a worker's pid to, one a line, before they kill it:
    /// only a kill named there or by Jetsam counts as from outside (`KillClaims`).
    public var outsideKillsPath: String?
    /// Replays these incidents instead of drawing pages and faults: load `i` is incident `i % count`, its view
    /// attaching and its first worker dying at the incident's moments (see `Simulation+Replay`).
    public var replay: ReplaySchedule?

    public init(workerPath: String) {
        self.workerPath = workerPath
    }

    public subscript<T>(dynamicMember setting: WritableKeyPath<SupervisorSettings, T>) -> T {
        get { supervisor[keyPath: setting] }
        set { supervisor[keyPath: setting] = newValue }
    }

    public subscript<T>(dynamicMember setting: WritableKeyPath<BrowserSettings, T>) -> T {
        get { browser[keyPath: setting] }
        set { browser[keyPath: setting] = newValue }
    }
}
