import Core
import System
import WireProtocol

/// The browser: tabs with their back/forward lists, the session file they are saved in, error pages and the launch
/// key, the navigation policy, the editor and its journal, and the content scheme handler. It is a client of the
/// supervisor (each tab's and the editor's load) and knows nothing of the simulated world that drives it.
package final class Browser {
    package let supervisor: Supervisor
    package let settings: BrowserSettings
    package let content: ContentProvider
    /// Where session saves are written from, off the loop.
    let loop: EventLoop
    var clock: any Clock { supervisor.clock }
    var log: EventLog { supervisor.log }
    /// The browser's tabs, in order, when the run browses a session.
    package internal(set) var tabs: [Tab] = []
    /// The key internal URLs must carry in this launch.
    package let launchKey = LaunchKey()
    var session: SessionStore?
    package private(set) var editor: Editor?
    /// Told when the navigation under way in a tab ends: its page (or the error page standing in for it, with the
    /// error) finished, there was nothing to load, or (`blank`) the supervisor gave up on the tab's view.
    package var onNavigationEnded: (Tab, _ error: String?, _ blank: Bool) -> Void = { _, _, _ in }
    /// Told once the editor stops taking input.
    package var editorFinishing: () -> Void = {}

    /// With `editor`, the editor document is open for the run. Throws a `FileError` when the journal cannot be used.
    package init(
        supervisor: Supervisor, settings: BrowserSettings, content: ContentProvider, loop: EventLoop, editor: Bool
    ) throws(FileError) {
        self.supervisor = supervisor
        self.settings = settings
        self.content = content
        self.loop = loop
        supervisor.stopRun = { [weak self] in self?.stop() }
        supervisor.reclaimed = { [weak self] in self?.reclaimed($0, $1) }
        guard editor else { return }
        let journal = try settings.journalPath.map { path throws(FileError) in
            try InputJournal(path: path, salvage: settings.salvageJournal)
        }
        let client = EditorClient()
        self.editor = Editor(load: Load(index: -1, client: client, startedAt: supervisor.clock.now), journal: journal)
        client.browser = self
        if let journal { reportOpened(journal) }
    }

    /// Says what opening the journal found: a torn tail cut off, or damage salvaged at the user's word.
    private func reportOpened(_ journal: InputJournal) {
        if let damage = journal.salvaged {
            printError("supervisor: warning: journal '\(journal.path)': \(damage); kept the intact inputs and rewrote it")
        }
        log.emit(.journalOpened(
            records: journal.recovered.count, tornBytesDropped: journal.tornBytes, salvaged: journal.salvaged?.description))
    }

    var stopping: Bool { supervisor.stopping }
    /// The longest document a worker may report: the editor's, or one piece.
    package var longestDocument: Int { editor?.longestPlausibleDocument ?? pieceBytes }

    /// Ends the run: no new view or worker; every worker is told to shut down, the editor's once it has reported
    /// its document. A second stop kills them all at once.
    package func stop() {
        guard supervisor.beginStop() else { return }
        finishEditor()
        supervisor.shutDownAll(except: reportingWorker)
    }

    /// Whether the run browses the tabs of a session (restored or started).
    package var browsesSession: Bool { session != nil }

    func navigationEnded(_ tab: Tab, error: String?, blank: Bool = false) { onNavigationEnded(tab, error, blank) }
}

/// What the browser is set up with. Each default is written here once.
public struct BrowserSettings: Sendable {
    /// Where the editor's acknowledged inputs are saved; a journal left by an earlier run is restored first.
    public var journalPath: String?
    /// Open a journal damaged in inputs it had saved by keeping its intact inputs and dropping the damage, instead
    /// of refusing it.
    public var salvageJournal = false
    /// Saves appended to a session file may grow to the size of its records, and to at least this, before the
    /// file is written whole again without them.
    public var sessionRewriteGrowth = 1 << 20
    /// A changed session is written at most this often.
    public var sessionSaveIntervalNanoseconds = 50_000_000
    public var navigation = NavigationPolicy()

    public init() {}
}
