import Vocabulary

extension SupervisorEvent {
    /// The `event` of its record.
    public var name: String {
        switch self {
        case .runBegin: "run-begin"
        case .runEnd: "run-end"
        case .interrupt: "interrupt"
        case .abort: "abort"
        case .loadBegin, .navigationBegin: "load-begin"
        case .loadEnd: "load-end"
        case .blank: "blank"
        case .visible: "visible"
        case .viewOpen: "view-open"
        case .viewClose: "view-close"
        case .attach: "attach"
        case .show: "show"
        case .hide: "hide"
        case .spawn: "spawn"
        case .reclaim: "reclaim"
        case .adopt: "adopt"
        case .adoptionRefused: "adoption-refused"
        case .spare: "spare"
        case .spareTaken: "spare-taken"
        case .noSpare: "no-spare"
        case .cacheCheck: "cache-check"
        case .notCached: "not-cached"
        case .cacheAdd: "cache-add"
        case .cacheTaken: "cache-taken"
        case .cacheMiss: "cache-miss"
        case .cacheEvict: "cache-evict"
        case .memoryPressure: "memory-pressure"
        case .processCountLimit: "process-count-limit"
        case .processRefused: "process-refused"
        case .hello: "hello"
        case .priority: "priority"
        case .load: "load"
        case .commit: "commit"
        case .render: "render"
        case .fail: "fail"
        case .fetch: "fetch"
        case .workerHistory: "worker-history"
        case .shutdown: "shutdown"
        case .kill: "kill"
        case .death, .launchFailed: "death"
        case .protocolViolation: "protocol-violation"
        case .sendRefused: "send-refused"
        case .sendFailed: "send-failed"
        case .unobserved: "unobserved"
        case .noItemToReload: "no-item-to-reload"
        case .termination: "termination"
        case .recovery: "recovery"
        case .recoverySuppressed: "recovery-suppressed"
        case .crashLoop: "crash-loop"
        case .giveUp: "give-up"
        case .prepareToSuspend: "prepare-to-suspend"
        case .suspended: "suspended"
        case .resumed: "resumed"
        case .memoryWarning: "memory-warning"
        case .memoryLimit: "memory-limit"
        case .cpuLimit: "cpu-limit"
        case .unresponsive: "unresponsive"
        case .responsive: "responsive"
        case .watchdog: "watchdog"
        case .deadChannelSend: "dead-channel-send"
        case .inject: "inject"
        case .injectSpared: "inject-spared"
        case .tabRealized: "tab-realized"
        case .navigationDecision: "navigation-decision"
        case .errorPage: "error-page"
        case .openExternally: "open-externally"
        case .internalRefused: "internal-refused"
        case .sessionCreated: "session-created"
        case .sessionRestored: "session-restored"
        case .sessionSaved: "session-saved"
        case .journalOpened: "journal-opened"
        case .journalSynced: "journal-synced"
        case .journalBehind: "journal-behind"
        case .fileRewritten: "file-rewritten"
        case .editorOpen: "editor-open"
        case .editor: "editor"
        }
    }

    /// The record's keys after `event`, `view` and `pid`, in the order they are written.
    public var fields: [(String, JSON)] {
        let f = Fields()
        switch self {
        case .runBegin(let r):
            f.int("schemaVersion", r.schemaVersion).string("policy", r.policy).bool("delegate", r.delegate).int("loads", r.loads).int("views", r.views)
            f.int("hidden", r.hidden).int("seed", r.seed).double("raceRate", r.raceRate).double("killRate", r.killRate)
            f.int("tabs", r.tabs)
        case .runEnd(let interrupted, let simulated): f.bool("interrupted", interrupted).double("simulatedMs", simulated)
        case .interrupt(let signal): f.spelled("signal", signal)
        case .abort(let reason), .protocolViolation(let reason): f.string("reason", reason)
        case .loadBegin(let load, let url, let hidden): f.int("load", load).string("url", url).bool("hidden", hidden)
        case .navigationBegin(let load, let tab, let action): f.int("load", load).int("tab", tab).spelled("action", action)
        case .loadEnd(let e):
            f.int("load", e.load).int("tab", e.tab).spelled("outcome", e.outcome).int("recoveries", e.recoveries)
            f.bool("hidden", e.hidden).string("error", e.error).double("blankMs", e.blankMs)
            f.double("timeToVisibleMs", e.timeToVisibleMs)
        case .blank(let load), .show(let load), .hide(let load): f.int("load", load)
        case .visible(let load, let ms, let first, let editor):
            f.int("load", load).double("timeToVisibleMs", ms).bool("first", first).flag("editor", editor)
        case .viewOpen(let load, let visible): f.int("load", load).bool("visible", visible)
        case .spareTaken(let ready): if let ready { f.bool("ready", ready) }
        case .noSpare(let reason): f.spelled("reason", reason)
        case .cacheCheck(let site): f.string("site", site)
        case .notCached(let site, let reason): f.string("site", site).spelled("reason", reason)
        case .cacheAdd(let site, let size, let capacity), .cacheTaken(let site, let size, let capacity):
            f.string("site", site).int("size", size).int("capacity", capacity)
        case .cacheMiss(let site, let evicted): f.string("site", site).spelled("evicted", evicted)
        case .cacheEvict(let site, let reason): f.string("site", site).spelled("reason", reason)
        case .memoryPressure(let critical): f.bool("critical", critical)
        case .processCountLimit(let live, let limit): f.int("live", live).int("limit", limit)
        case .viewClose, .attach, .shutdown, .unobserved, .noItemToReload, .processRefused, .prepareToSuspend:
            break
        case .suspended(let answered): f.bool("answered", answered)
        case .resumed(let ms): f.double("suspendedMs", ms)
        case .spawn(let load, let reused): f.int("load", load).flag("reused", reused)
        case .reclaim(let generation): f.int("generation", generation)
        case .adopt(let url): f.string("url", url)
        case .adoptionRefused(let reason): f.string("reason", reason)
        case .spare(let reused): f.flag("reused", reused)
        case .hello(let ms, let sandbox):
            f.double("spawnToHelloMs", ms)
            f.string("sandbox", sandbox.spelling)
        case .priority(let band, let nice, let adjust, let result, let error, let rbs):
            f.spelled("band", band).int("nice", nice).int("oomScoreAdj", adjust).spelled("result", result)
            f.string("error", error).spelled("rbs", rbs)
        case .load(let url, let attempt): f.string("url", url).int("attempt", attempt)
        case .commit(let url): f.string("url", url)
        case .render(let title, let bytes): f.string("title", title).int("workersRSSBytes", bytes)
        case .fail(let kind, let error): f.spelled("kind", kind).string("error", error)
        case .fetch(let url, let kind, let status, let bytes):
            f.string("url", url).string("kind", kind.spelling).int("status", status).int("bytes", bytes)
        case .workerHistory(let index, let urls): f.int("index", index).add("urls", .array(urls.map(JSON.string)))
        case .kill(let reason, let verdict, let why):
            f.string("reason", reason).spelled("verdict", verdict).spelled("terminationReason", why)
        case .death(let d):
            f.spelled("status", d.status).spelled("terminationReason", d.terminationReason)
            switch d.exit {
            case .code(let code): f.int("code", code)
            case .signal(let signal): f.int("signal", signal)
            }
            f.string("reason", d.reason).bool("rendered", d.rendered).bool("attached", d.attached).bool("spare", d.spare)
            f.string("band", d.band?.rawValue ?? SupervisorEvent.noBand).double("lifetimeMs", d.lifetimeMs)
            f.spelled("cause", d.cause).flag("shutdown", d.shutdown)
        case .launchFailed(let reason):
            f.spelled("status", TerminationKind.launchFailed).string("reason", reason).bool("rendered", false)
        case .sendRefused(let message, let reason): f.int("message", message).string("reason", reason)
        case .sendFailed(let error): f.string("error", error)
        case .termination(let status, let reason): f.spelled("status", status).spelled("reason", reason)
        case .recovery(let kind, let reason, let attempt): f.spelled("kind", kind).spelled("reason", reason).int("attempt", attempt)
        case .recoverySuppressed(let kind): f.spelled("kind", kind)
        case .crashLoop(let load, let crashes, let window): f.int("load", load).int("crashes", crashes).int("windowMs", window)
        case .giveUp(let load, let recoveries): f.int("load", load).int("recoveries", recoveries)
        case .memoryWarning(let resident, let limit): f.int("residentBytes", resident).int("limitBytes", limit)
        case .memoryLimit(let resident, let limit, let lead):
            f.int("residentBytes", resident).int("limitBytes", limit).double("warnedMsBefore", lead)
        case .cpuLimit(let used, let limit, let window):
            f.double("usedPercent", used).int("limitPercent", limit).int("windowMs", window)
        case .unresponsive(let timeout): f.int("timeoutMs", timeout)
        case .responsive(let after): f.double("afterMs", after)
        case .watchdog(let title): f.string("title", title)
        case .deadChannelSend(let message): f.spelled("message", message)
        case .inject(let kind, let adjust), .injectSpared(let kind, let adjust): f.spelled("kind", kind).int("oomScoreAdj", adjust)
        case .tabRealized(let tab, let reason, let entries, let index):
            f.int("tab", tab).spelled("reason", reason).int("entries", entries).int("index", index)
        case .navigationDecision(let tab, let type, let frame, let url, let decision, let reason):
            f.int("tab", tab).string("type", type.spelling).spelled("frame", frame).string("url", url)
            f.spelled("decision", decision).string("reason", reason)
        case .errorPage(let tab, let url, let code, let kind): f.int("tab", tab).string("url", url).int("code", code).spelled("kind", kind)
        case .openExternally(let tab, let url): f.int("tab", tab).string("url", url)
        case .internalRefused(let url, let reason): f.string("url", url).spelled("reason", reason)
        case .sessionCreated(let tabs): f.int("tabs", tabs)
        case .sessionRestored(let tabs, let records, let digest, let damage):
            f.int("tabs", tabs).nullable("journalRecords", records).string("digest", digest).string("damage", damage)
        case .sessionSaved(let s):
            f.int("tabs", s.tabs).bool("whole", s.whole).int("bytes", s.bytes).string("digest", s.digest)
            f.nullable("journalRecords", s.journalRecords).double("loopMs", s.loopMs).double("writeMs", s.writeMs)
        case .journalOpened(let records, let torn, let salvaged):
            f.int("records", records).int("tornBytesDropped", torn).string("salvaged", salvaged)
        case .journalSynced(let records, let typed, let digest):
            f.int("records", records).int("typed", typed).string("digest", digest)
        case .journalBehind(let saved, let found): f.int("saved", saved).int("found", found)
        case .fileRewritten(let file, let found, let written):
            f.spelled("file", file).int("foundBytes", found).int("writtenBytes", written)
        case .editorOpen(let restored): f.int("restored", restored)
        case .editor(let a):
            f.int("typed", a.typed).int("restored", a.restored).int("acknowledged", a.acknowledged)
            f.nullable("saved", a.saved).int("replayed", a.replayed).int("lostInputs", a.lostInputs)
            f.int("duplicateInputs", a.duplicateInputs).int("mismatches", a.mismatches).bool("intact", a.intact)
            f.spelled("documentFrom", a.documentFrom).int("tornBytesDropped", a.tornBytesDropped).int("deferred", a.deferred)
        }
        return f.members
    }

    /// A death's `band` when no band was ever applied.
    static let noBand = "none"
}

/// The members of a record, in order; an optional value that is nil is left out, except where the schema writes
/// null (`nullable`), and a flag is written only when it is true.
private final class Fields {
    var members: [(String, JSON)] = []

    @discardableResult func add(_ key: String, _ value: JSON) -> Self {
        members.append((key, value))
        return self
    }

    @discardableResult func int(_ key: String, _ value: Int?) -> Self {
        if let value { members.append((key, .int(value))) }
        return self
    }

    @discardableResult func nullable(_ key: String, _ value: Int?) -> Self {
        members.append((key, value.map(JSON.int) ?? .null))
        return self
    }

    @discardableResult func double(_ key: String, _ value: Double?) -> Self {
        if let value { members.append((key, .double(value))) }
        return self
    }

    @discardableResult func string(_ key: String, _ value: String?) -> Self {
        if let value { members.append((key, .string(value))) }
        return self
    }

    /// A member of a closed set, by its spelling.
    @discardableResult func spelled(_ key: String, _ value: (some RawRepresentable<String>)?) -> Self {
        string(key, value?.rawValue)
    }

    @discardableResult func bool(_ key: String, _ value: Bool) -> Self {
        members.append((key, .bool(value)))
        return self
    }

    /// A key written only when true: its presence is the fact (`reused`, `shutdown`, `editor`).
    @discardableResult func flag(_ key: String, _ value: Bool) -> Self {
        if value { members.append((key, .bool(true))) }
        return self
    }
}
