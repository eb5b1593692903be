import Vocabulary

/// Why a record is not an event of this schema: the reader stops rather than guess.
public enum EventDecodingError: Error, Equatable, CustomStringConvertible {
    case notJSON
    case unknownEvent(String)
    case missingField(event: String, field: String)
    case wrongType(event: String, field: String, expected: String)
    case badValue(event: String, field: String, value: String)

    public var description: String {
        switch self {
        case .notJSON: "not a JSON object with an 'event'"
        case .unknownEvent(let name): "unknown event '\(name)'"
        case .missingField(let event, let field): "the '\(event)' event has no '\(field)'"
        case .wrongType(let event, let field, let expected): "the '\(event)' event's '\(field)' is not \(expected)"
        case .badValue(let event, let field, let value): "the '\(event)' event's '\(field)' is '\(value)'"
        }
    }
}

extension SupervisorEvent {
    /// The event a record's name and keys describe.
    public init(name: String, fields members: [(String, JSON)]) throws(EventDecodingError) {
        let r = FieldReader(event: name, members: members)
        switch name {
        case "run-begin":
            var begin = RunBegin(
                policy: try r.string("policy"), delegate: try r.bool("delegate"), loads: try r.int("loads"), views: try r.int("views"),
                hidden: try r.int("hidden"), seed: try r.int("seed"), raceRate: try r.double("raceRate"),
                killRate: try r.double("killRate"), tabs: try r.optionalInt("tabs"))
            begin.schemaVersion = try r.int("schemaVersion")
            self = .runBegin(begin)
        case "run-end": self = .runEnd(interrupted: try r.bool("interrupted"), simulatedMs: try r.optionalDouble("simulatedMs"))
        case "interrupt": self = .interrupt(signal: try r.spelled("signal"))
        case "abort": self = .abort(reason: try r.string("reason"))
        case "load-begin" where r.has("tab"):
            self = .navigationBegin(load: try r.int("load"), tab: try r.int("tab"), action: try r.spelled("action"))
        case "load-begin": self = .loadBegin(load: try r.int("load"), url: try r.string("url"), hidden: try r.bool("hidden"))
        case "load-end":
            self = .loadEnd(LoadEnd(
                load: try r.int("load"), tab: try r.optionalInt("tab"), outcome: try r.spelled("outcome"), recoveries: try r.int("recoveries"),
                hidden: try r.bool("hidden"), error: try r.optionalString("error"), blankMs: try r.optionalDouble("blankMs"),
                timeToVisibleMs: try r.optionalDouble("timeToVisibleMs")))
        case "blank": self = .blank(load: try r.int("load"))
        case "visible":
            self = .visible(
                load: try r.int("load"), timeToVisibleMs: try r.double("timeToVisibleMs"), first: try r.bool("first"),
                editor: try r.flag("editor"))
        case "view-open": self = .viewOpen(load: try r.int("load"), visible: try r.bool("visible"))
        case "view-close": self = .viewClose
        case "attach": self = .attach
        case "show": self = .show(load: try r.int("load"))
        case "hide": self = .hide(load: try r.int("load"))
        case "spawn": self = .spawn(load: try r.int("load"), reused: try r.flag("reused"))
        case "reclaim": self = .reclaim(generation: try r.int("generation"))
        case "adopt": self = .adopt(url: try r.string("url"))
        case "adoption-refused": self = .adoptionRefused(reason: try r.string("reason"))
        case "spare": self = .spare(reused: try r.flag("reused"))
        case "spare-taken": self = .spareTaken(ready: try r.optionalBool("ready"))
        case "no-spare": self = .noSpare(reason: try r.spelled("reason"))
        case "cache-check": self = .cacheCheck(site: try r.string("site"))
        case "not-cached": self = .notCached(site: try r.optionalString("site"), reason: try r.spelled("reason"))
        case "cache-add": self = .cacheAdd(site: try r.string("site"), size: try r.int("size"), capacity: try r.int("capacity"))
        case "cache-taken":
            self = .cacheTaken(site: try r.string("site"), size: try r.int("size"), capacity: try r.int("capacity"))
        case "cache-miss": self = .cacheMiss(site: try r.string("site"), evicted: try r.optionalSpelled("evicted"))
        case "cache-evict": self = .cacheEvict(site: try r.string("site"), reason: try r.spelled("reason"))
        case "memory-pressure": self = .memoryPressure(critical: try r.bool("critical"))
        case "process-count-limit": self = .processCountLimit(live: try r.int("live"), limit: try r.int("limit"))
        case "process-refused": self = .processRefused
        case "hello": self = .hello(spawnToHelloMs: try r.double("spawnToHelloMs"), sandbox: try r.wire("sandbox"))
        case "priority":
            self = .priority(
                band: try r.spelled("band"), nice: try r.int("nice"), oomScoreAdj: try r.int("oomScoreAdj"),
                result: try r.spelled("result"), error: try r.optionalString("error"), rbs: try r.optionalSpelled("rbs"))
        case "load": self = .load(url: try r.string("url"), attempt: try r.int("attempt"))
        case "commit": self = .commit(url: try r.string("url"))
        case "render": self = .render(title: try r.string("title"), workersRSSBytes: try r.int("workersRSSBytes"))
        case "fail": self = .fail(kind: try r.spelled("kind"), error: try r.string("error"))
        case "fetch":
            self = .fetch(url: try r.string("url"), kind: try r.wire("kind"), status: try r.int("status"), bytes: try r.int("bytes"))
        case "worker-history": self = .workerHistory(index: try r.int("index"), urls: try r.strings("urls"))
        case "shutdown": self = .shutdown
        case "kill":
            self = .kill(
                reason: try r.string("reason"), verdict: try r.spelled("verdict"),
                terminationReason: try r.spelled("terminationReason"))
        case "death" where !r.has("code") && !r.has("signal"):
            guard try r.spelled("status") as TerminationKind == .launchFailed else { throw .missingField(event: name, field: "signal") }
            guard try !r.bool("rendered") else { throw .badValue(event: name, field: "rendered", value: "true") }
            self = .launchFailed(reason: try r.string("reason"))
        case "death":
            let exit: ProcessExit = r.has("code") ? .code(try r.int("code")) : .signal(try r.int("signal"))
            self = .death(Death(
                status: try r.spelled("status"), terminationReason: try r.spelled("terminationReason"), exit: exit, reason: try r.optionalString("reason"),
                rendered: try r.bool("rendered"), attached: try r.bool("attached"), spare: try r.bool("spare"),
                band: try r.string("band") == Self.noBand ? nil : try r.spelled("band"), lifetimeMs: try r.double("lifetimeMs"),
                cause: try r.spelled("cause"),
                shutdown: try r.flag("shutdown")))
        case "protocol-violation": self = .protocolViolation(reason: try r.string("reason"))
        case "send-refused": self = .sendRefused(message: try r.int("message"), reason: try r.string("reason"))
        case "send-failed": self = .sendFailed(error: try r.string("error"))
        case "unobserved": self = .unobserved
        case "no-item-to-reload": self = .noItemToReload
        case "termination": self = .termination(status: try r.spelled("status"), reason: try r.spelled("reason"))
        case "recovery":
            self = .recovery(kind: try r.spelled("kind"), reason: try r.spelled("reason"), attempt: try r.int("attempt"))
        case "recovery-suppressed": self = .recoverySuppressed(kind: try r.spelled("kind"))
        case "crash-loop":
            self = .crashLoop(load: try r.int("load"), crashes: try r.int("crashes"), windowMs: try r.int("windowMs"))
        case "give-up": self = .giveUp(load: try r.int("load"), recoveries: try r.int("recoveries"))
        case "prepare-to-suspend": self = .prepareToSuspend
        case "suspended": self = .suspended(answered: try r.bool("answered"))
        case "resumed": self = .resumed(suspendedMs: try r.double("suspendedMs"))
        case "memory-warning": self = .memoryWarning(residentBytes: try r.int("residentBytes"), limitBytes: try r.int("limitBytes"))
        case "memory-limit":
            self = .memoryLimit(
                residentBytes: try r.int("residentBytes"), limitBytes: try r.int("limitBytes"),
                warnedMsBefore: try r.optionalDouble("warnedMsBefore"))
        case "cpu-limit":
            self = .cpuLimit(
                usedPercent: try r.double("usedPercent"), limitPercent: try r.int("limitPercent"), windowMs: try r.int("windowMs"))
        case "unresponsive": self = .unresponsive(timeoutMs: try r.int("timeoutMs"))
        case "responsive": self = .responsive(afterMs: try r.double("afterMs"))
        case "watchdog": self = .watchdog(title: try r.string("title"))
        case "dead-channel-send": self = .deadChannelSend(message: try r.spelled("message"))
        case "inject": self = .inject(kind: try r.spelled("kind"), oomScoreAdj: try r.int("oomScoreAdj"))
        case "inject-spared": self = .injectSpared(kind: try r.spelled("kind"), oomScoreAdj: try r.int("oomScoreAdj"))
        case "tab-realized":
            self = .tabRealized(
                tab: try r.int("tab"), reason: try r.spelled("reason"), entries: try r.int("entries"), index: try r.int("index"))
        case "navigation-decision":
            self = .navigationDecision(
                tab: try r.int("tab"), type: try r.wire("type"), frame: try r.spelled("frame"), url: try r.string("url"),
                decision: try r.spelled("decision"), reason: try r.string("reason"))
        case "error-page":
            self = .errorPage(tab: try r.int("tab"), url: try r.string("url"), code: try r.int("code"), kind: try r.spelled("kind"))
        case "open-externally": self = .openExternally(tab: try r.int("tab"), url: try r.string("url"))
        case "internal-refused": self = .internalRefused(url: try r.string("url"), reason: try r.spelled("reason"))
        case "session-created": self = .sessionCreated(tabs: try r.int("tabs"))
        case "session-restored":
            self = .sessionRestored(
                tabs: try r.int("tabs"), journalRecords: try r.nullableInt("journalRecords"),
                digest: try r.optionalString("digest"), damage: try r.optionalString("damage"))
        case "session-saved":
            self = .sessionSaved(SessionSaved(
                tabs: try r.int("tabs"), whole: try r.bool("whole"), bytes: try r.int("bytes"), digest: try r.string("digest"),
                journalRecords: try r.nullableInt("journalRecords"), loopMs: try r.double("loopMs"),
                writeMs: try r.double("writeMs")))
        case "journal-opened":
            self = .journalOpened(
                records: try r.int("records"), tornBytesDropped: try r.int("tornBytesDropped"),
                salvaged: try r.optionalString("salvaged"))
        case "journal-synced":
            self = .journalSynced(records: try r.int("records"), typed: try r.int("typed"), digest: try r.string("digest"))
        case "journal-behind": self = .journalBehind(saved: try r.int("saved"), found: try r.int("found"))
        case "file-rewritten":
            self = .fileRewritten(
                file: try r.spelled("file"), foundBytes: try r.int("foundBytes"), writtenBytes: try r.int("writtenBytes"))
        case "editor-open": self = .editorOpen(restored: try r.int("restored"))
        case "editor":
            self = .editor(EditorAudit(
                typed: try r.int("typed"), restored: try r.int("restored"), acknowledged: try r.int("acknowledged"),
                saved: try r.nullableInt("saved"), replayed: try r.int("replayed"), lostInputs: try r.int("lostInputs"),
                duplicateInputs: try r.int("duplicateInputs"), mismatches: try r.int("mismatches"),
                intact: try r.bool("intact"), documentFrom: try r.spelled("documentFrom"),
                tornBytesDropped: try r.int("tornBytesDropped"), deferred: try r.int("deferred")))
        default: throw .unknownEvent(name)
        }
    }
}

/// A record's keys, read strictly: a required key that is missing or of another type is an error.
struct FieldReader {
    let event: String
    let members: [(String, JSON)]

    func has(_ key: String) -> Bool { members.contains { $0.0 == key } }

    private func value(_ key: String) throws(EventDecodingError) -> JSON {
        guard let value = members.first(where: { $0.0 == key })?.1 else { throw .missingField(event: event, field: key) }
        return value
    }

    func int(_ key: String) throws(EventDecodingError) -> Int {
        guard case .int(let value) = try value(key) else { throw .wrongType(event: event, field: key, expected: "a whole number") }
        return value
    }

    func double(_ key: String) throws(EventDecodingError) -> Double {
        switch try value(key) {
        case .double(let value): return value
        case .int(let value): return Double(value)
        default: throw .wrongType(event: event, field: key, expected: "a number")
        }
    }

    func string(_ key: String) throws(EventDecodingError) -> String {
        guard case .string(let value) = try value(key) else { throw .wrongType(event: event, field: key, expected: "a string") }
        return value
    }

    /// A member of a closed set, by its spelling; any other spelling is an error naming the key.
    func spelled<Value: RawRepresentable<String>>(_ key: String, as: Value.Type = Value.self) throws(EventDecodingError) -> Value {
        let text = try string(key)
        guard let value = Value(rawValue: text) else { throw .badValue(event: event, field: key, value: text) }
        return value
    }

    /// A member of a closed set of the wire protocol, by its spelling.
    func wire<Value: WireSpelled>(_ key: String) throws(EventDecodingError) -> Value {
        let text = try string(key)
        guard let value = Value.allCases.first(where: { $0.spelling == text }) else {
            throw .badValue(event: event, field: key, value: text)
        }
        return value
    }

    func optionalSpelled<Value: RawRepresentable<String>>(_ key: String) throws(EventDecodingError) -> Value? {
        has(key) ? try spelled(key) : nil
    }

    func bool(_ key: String) throws(EventDecodingError) -> Bool {
        guard case .bool(let value) = try value(key) else { throw .wrongType(event: event, field: key, expected: "true or false") }
        return value
    }

    /// A key the schema writes only as true: absent is false, anything but `true` an error.
    func flag(_ key: String) throws(EventDecodingError) -> Bool {
        guard has(key) else { return false }
        guard try bool(key) else { throw .badValue(event: event, field: key, value: "false") }
        return true
    }

    func strings(_ key: String) throws(EventDecodingError) -> [String] {
        guard case .array(let values) = try value(key) else { throw .wrongType(event: event, field: key, expected: "an array") }
        var strings: [String] = []
        for value in values {
            guard case .string(let string) = value else { throw .wrongType(event: event, field: key, expected: "strings") }
            strings.append(string)
        }
        return strings
    }

    /// A key the schema always writes, as null when there is no value.
    func nullableInt(_ key: String) throws(EventDecodingError) -> Int? {
        try value(key) == .null ? nil : try int(key)
    }

    /// A key the schema leaves out when there is no value.
    func optionalInt(_ key: String) throws(EventDecodingError) -> Int? { has(key) ? try int(key) : nil }
    func optionalDouble(_ key: String) throws(EventDecodingError) -> Double? { has(key) ? try double(key) : nil }
    func optionalBool(_ key: String) throws(EventDecodingError) -> Bool? { has(key) ? try bool(key) : nil }
    func optionalString(_ key: String) throws(EventDecodingError) -> String? { has(key) ? try string(key) : nil }
}
