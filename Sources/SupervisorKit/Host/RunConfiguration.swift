import Core
import Process
import Scenario
import Text

/// Everything one run needs to know. Every random choice derives from `seed` and the load's index, so each policy
/// in a comparison meets the same pages, delays and faults.
public struct RunConfiguration: Sendable {
    public var policy: Policy = .rebuild
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
    public var seed: UInt64 = 1
    public var workerPath: String
    /// From view creation to attach (in the window: foreground assertion, then the termination observer), drawn
    /// uniformly from this range.
    public var attachDelayNanoseconds = 2_000_000...6_000_000
    /// How long a rendered view stays on screen before it is closed; a worker killed meanwhile must come back.
    public var dwellNanoseconds = 0
    public var hiddenNanoseconds = 50_000_000
    /// The blank watchdog's period: it reads the title the way the field app's 3 s timer did.
    public var watchdogNanoseconds = 3_000_000_000
    /// A load with no title this long after it was shown counts as a user-visible blank, whatever happens later.
    public var blankTimeoutNanoseconds = 5_000_000_000
    /// Injected kill-before-render races: the fraction of loads whose first worker is killed while at background
    /// priority, after spawn and before attach.
    public var raceRate = 0.0
    /// Injected kill-after-render: the fraction of hidden loads whose rendered worker is killed while hidden.
    public var killRate = 0.0
    /// How often a busy worker is pinged, and how long a new one has to say hello.
    public var pingIntervalNanoseconds = 1_000_000_000
    /// How long a worker may owe an answer before it is killed as unresponsive: WebKit's foreground
    /// responsiveness timer, 3 s.
    public var hangTimeoutNanoseconds = 3_000_000_000
    /// The most a worker may leave unread in its channel (a few of the largest pages) before it is killed as
    /// unresponsive.
    public var maxUnreadBytes = 8 << 20
    /// Failed launches in a row, with no hello between them, after which the run stops: the worker binary is
    /// broken, and no view could ever render. Before the run's first hello, two are enough.
    public var launchFailureLimit = 5
    /// How long a worker told to shut down may take before it is killed.
    public var shutdownGraceNanoseconds = 500_000_000
    public var bands = PriorityBands()
    /// With a value above zero, an editor view is open for the whole run and one input is typed into it per
    /// interval.
    public var typingIntervalNanoseconds = 0
    /// Where the editor's acknowledged inputs are saved; a journal left by an earlier run is restored first.
    public var journalPath: String?
    /// Open a journal damaged in inputs it had saved by keeping its intact inputs and dropping the damage, instead
    /// of refusing it.
    public var salvageJournal = false
    /// With a path, the run browses tabs instead of loading pages into fresh views: the tabs saved there are
    /// restored (or `tabs` new ones made), and `loads` is the number of navigations; the tabs are saved back as
    /// they change.
    public var sessionPath: String?
    /// How many tabs a new session has.
    public var tabs = 3
    /// Saves appended to a session file may grow to the size of its records, and to at least this, before the
    /// file is written whole again without them.
    public var sessionRewriteGrowth = 1 << 20
    /// A changed session is written at most this often.
    public var sessionSaveIntervalNanoseconds = 50_000_000
    public var navigation = NavigationPolicy()
    /// Run Jetsam beside the workers.
    public var jetsam: JetsamSettings?

    public init(workerPath: String) {
        self.workerPath = workerPath
    }
}
