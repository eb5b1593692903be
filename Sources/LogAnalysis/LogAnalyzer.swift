import Events
import System
import Text
import Vocabulary

/// Reads logs of any envelope and finds kill-before-render incidents and the other ways a WebContent process ends,
/// in bounded memory.
///
/// The words WebKit, RunningBoard and our logs use (`Marker.relevant`) are looked for across whole blocks in one
/// vector pass; only the records around them are told apart (`RecordScanner`), the other lines counted and dropped
/// without a copy or a `String`.
/// The records (a line and its continuations) become observations, then one timeline per pid, and each timeline is
/// classified once the input ends, so that lines written out of order still meet.
public final class LogAnalyzer {
    public struct Options {
        /// Record every step of this pid's story, for `--timeline`.
        public var story: Int32?
        /// Rules to switch off: tests use this to show that each quiet rule is what keeps its case quiet.
        public var disabled: Set<Rule> = []
        /// How to read times written without a zone (and dates without a year).
        public var zone: ZoneAssumption
        /// Keep each incident's moments for a replay schedule (`--replay`); without one they are not kept, so a
        /// report of thousands of incidents costs no more than before.
        public var replay: Bool

        public init(
            story: Int32? = nil, disabled: Set<Rule> = [], zone: ZoneAssumption = .machine, replay: Bool = false
        ) {
            self.story = story
            self.disabled = disabled
            self.zone = zone
            self.replay = replay
        }
    }

    package static let liveTimelineLimit = 4096
    package static let incidentLimit = 10_000
    package static let laneLimit = 200

    let options: Options
    var report = AnalysisReport()
    var timelines: [Int32: Timeline] = [:]
    var classifier: Classifier
    private var pairing = AssertionPairing()
    private var identities = RunningBoardIdentities()
    private var recovery = ViewRecovery()
    private var pages = PageRecovery()
    private var delegate = DelegateAttribution()
    var facts = ReportFacts()
    /// Observations that name no pid: a GPU process exit, a launch that failed before it had a pid, iOS 14's
    /// `WebProcessProxy didClose (web process crash)`.
    var pidless: [(kind: Observation.Kind, evidence: Evidence)] = []
    /// What the user should know of the inputs as read: a report with no process, what a process listing shows.
    package var readingNotes: [String] = []
    /// The process listings read (`ps.txt`), by file.
    var listings: [(name: String, listing: ProcessListing)] = []
    var ordinal = 0
    private var observations: [Observation] = []
    private var assembler = RecordAssembler()
    /// The record being read, for the evidence a person is shown.
    private var record: [UInt8] = []

    public init(_ options: Options = Options()) {
        self.options = options
        classifier = Classifier(disabled: options.disabled, keepsMoments: options.replay)
    }

    /// Reads one file (or pipe) to its end. `progress` is called with the bytes read so far, about every 64 MB.
    public func read(_ fd: Int32, name: String, progress: ((Int) -> Void)? = nil) throws(SystemError) {
        try read(FileSource(fd: fd), name: name, progress: progress)
    }

    /// Reads one source to its end.
    public func read(_ source: some ByteSource, name: String, progress: ((Int) -> Void)? = nil) throws(SystemError) {
        let file = report.files.count
        report.files.append(name)
        report.placed.append(0)
        if let build = SysdiagnoseName.parse(name)?.build, name.contains("iPhone-OS") || name.contains("iPad") {
            noteOS("iOS (\(build))", from: "the sysdiagnose's name")
        }
        var source = try ReplaySource(source, limit: DiagnosticReport.headLimit)
        if let shape = DiagnosticReport.shape(of: source.head) {
            let reading = try DiagnosticReport.read(&source, as: shape)
            add(reading.facts, file: file)
            if let note = reading.note { readingNotes.append("\(visible(name)): \(note)") }
            if var listing = reading.listing {
                listing.captured = SysdiagnoseName.parse(name)?.time
                listings.append((name, listing))
            }
            // Read, and said: a text report that lost the lines naming its process.
            let headless = shape == .text && reading.facts.isEmpty
            if headless {
                readingNotes.append("\(visible(name)): a crash report that names no process and pid (its header lines "
                    + "are missing): nothing in it can be joined to a process")
            }
            if reading.understood || headless {
                report.formatLines[reading.format, default: 0] += reading.lines
                report.placed[file] = reading.lines
            } else {
                report.linesSkipped += reading.lines
                report.linesNotUnderstood += reading.lines
            }
            report.linesRead += reading.lines
            report.bytesRead += reading.bytes
            return
        }
        var state = FileState()
        let placedBefore = assembler.placedLines
        assembler.beginFile()
        var reader = LineReader(source)
        var reported = 0
        var total = 0
        let emit: RecordAssembler.Emit = { text, format, first in
            self.take(text, format, file: file, line: first, state: &state)
        }
        let lines = try reader.records(into: &assembler, emit: emit, afterRead: { bytes in
            total = bytes
            guard let progress, bytes - reported >= 64 << 20 else { return }
            reported = bytes
            progress(bytes)
        })
        report.linesRead += lines
        report.bytesRead += total
        report.placed[file] = assembler.placedLines - placedBefore
    }

    /// Counts `records` more of the last source as read in a known format: a binary log's entries and chunksets
    /// passed over, read only as far as telling whose they are.
    package func countRead(_ records: Int) { report.placed[report.files.count - 1] += records }

    /// Classifies every timeline and returns what was found.
    public func finish() -> AnalysisReport {
        pairing.finish()
        for (format, lines) in zip(LogFormat.allCases, assembler.formatCounts) where lines > 0 { report.formatLines[format] = lines }
        report.linesSkipped += assembler.linesSkipped
        report.linesNotUnderstood += assembler.linesNotUnderstood
        classifier.unattributed = pairing.unattributed
        for timeline in timelines.values.sorted(by: { $0.firstSeen.ordinal < $1.firstSeen.ordinal }) { conclude(timeline) }
        timelines = [:]
        report.reportFactsDropped = facts.dropped
        concludeReports()
        concludePidless()
        checkAgainstListings()
        report.incidents.sort { $0.firstSeen.ordinal < $1.firstSeen.ordinal }
        // An error no incident explains says some process was gone, whatever else the input names.
        report.unexplainedErrors = pairing.unattributed.count { error in
            !report.incidents.contains { Stamp.near($0.firstSeen, error, .burst) || Stamp.near($0.lastSeen, error, .burst) }
        }
        return report
    }

    // MARK: - Records into observations

    private func take(
        _ text: Span<UInt8>, _ format: LogFormat, file: Int, line: Int, state: inout FileState
    ) {
        ordinal += 1
        record.removeAll(keepingCapacity: true)
        Sys.append(text, to: &record)
        var stamp = Stamp(time: nil, ordinal: ordinal, file: file, line: line)
        var thread: UInt64?
        observations.removeAll(keepingCapacity: true)
        if format.keepsEveryRecord {
            let own: OwnLogRecord
            do {
                own = try OwnLogRecord(record, format: format)
            } catch {
                report.schemaErrors += 1
                if report.firstSchemaError == nil { report.firstSchemaError = "\(report.files[file]):\(line): \(error)" }
                return
            }
            stamp.time = own.micros
            if case .event(let event) = own { recovery.note(event, at: stamp.time) }
            observations = own.observations
        } else {
            let envelope = Envelope.parse(text, as: format, day: &state.day, assuming: options.zone)
            stamp.time = envelope.time
            if format == .consoleApp, let time = envelope.time { stamp.time = state.rollover.forward(time, day: state.day) }
            stamp.coarse = envelope.coarse
            stamp.dated = envelope.dated
            thread = envelope.thread
            if let (skipped, quoted) = envelope.messageLine(in: text) {
                stamp.line += skipped
                record.removeAll(keepingCapacity: true)
                Sys.append(text.extracting(quoted), to: &record)
            }
            if report.displayZone == nil, envelope.time != nil { report.displayZone = envelope.zone?.seconds ?? 0 }
            if !state.zoned, envelope.time != nil {
                state.zoned = true
                report.fileZones[file] = envelope.zone?.seconds ?? 0
            }
            if case .assumed = envelope.zone { report.assumedZones[file] = options.zone }
            envelope.withMessage(in: text) { WebKitMessage.observe($0, into: &observations) }
            if let pid = envelope.hostPID {
                if let process = envelope.process, Marker.namesWebContent(text.extracting(process)) {
                    observations.append(Observation(.alive, pid: Int(pid), process: .webContent))
                } else if observations.contains(where: \.speaksForHost) {
                    classifier.host.pids.insert(pid)
                }
            }
        }
        for observation in observations { apply(observation, thread: thread, at: stamp) }
    }

    private func apply(_ o: Observation, thread: UInt64?, at stamp: Stamp) {
        switch o.kind {
        case .assertionError:
            guard let error = o.error else { return }
            if let pid = o.pid {
                observe(failure(pid, nil, error), at: stamp)
            } else if let claim = pairing.error(error, thread: thread, at: stamp, text: recordText()) {
                var evidence = Observation(.assertionError, pid: Int(claim.pid))
                evidence.error = error
                observe(evidence, at: stamp)
                if claim.supplies { observe(failure(claim.pid, claim.assertion, error), at: stamp) }
            }
        case .assertionAttempt, .assertionFailed:
            if let pid = o.pid, let earlier = pairing.assertion(o, thread: thread, at: stamp) {
                var evidence = Observation(.assertionError, pid: Int(pid))
                evidence.error = earlier.error
                observe(evidence, at: earlier.stamp, text: earlier.text)
                if o.kind == .assertionAttempt || o.error?.targetGone != true {
                    return observe(failure(pid, o.assertion, earlier.error), at: stamp)
                }
            }
            if o.kind == .assertionFailed || o.pid != nil { observe(o, at: stamp) }
        case .appCallback, .appReload:
            guard let pid = delegate.pid(ofDelegateLineAt: stamp) else { return }
            var attributed = Observation(o.kind == .appCallback ? .callback : .appReload, pid: Int(pid), process: .webContent)
            attributed.page = o.page
            observe(attributed, at: stamp)
            if o.kind == .appReload { pages.noteReload(of: pid, at: stamp) }
        case .hostQuit, .appBackground, .appForeground:
            if o.kind == .hostQuit, let pid = o.pid, !classifier.host.pids.contains(pid) { return }
            classifier.host.note(o.kind, at: stamp)
        case .jetsamSnapshot:
            if classifier.jetsamSnapshots.count < HostContext.limit { classifier.jetsamSnapshots.append(stamp) }
        case .hostIdentity:
            if let pid = o.pid { classifier.host.pids.insert(pid) }
        case .role:
            if let resolved = identities.resolve(o) { observe(resolved, at: stamp) }
        case .gpuExited where o.pid == nil, .launchFailed where o.pid == nil, .terminated where o.pid == nil, .navigationTerminated:
            if pidless.count < HostContext.limit { pidless.append((o.kind, Evidence(stamp: stamp, text: recordText()))) }
        default:
            observe(o, at: stamp)
        }
    }

    private func failure(_ pid: Int32, _ assertion: AssertionName?, _ error: AssertionError) -> Observation {
        var observation = Observation(.assertionFailed, pid: Int(pid), process: assertion?.process ?? .unknown)
        observation.assertion = assertion
        observation.error = error
        return observation
    }

    // MARK: - Observations into timelines

    private func observe(_ o: Observation, at stamp: Stamp, text: String? = nil) {
        guard let pid = o.pid else { return }
        if o.page != nil { pages.note(o, at: stamp) }
        if options.story == pid { report.story.append(StoryStep(observation: o, stamp: stamp, text: text ?? recordText())) }
        if let existing = timelines[pid] {
            // One told by another file at an earlier time (a run's event log and its iOS log) is the same one.
            let relaunched = o.kind == .launch && existing.isNewProcess(launchedAt: stamp)
            // A pid is one life, however quiet its log, until a launch says otherwise; only once its end was told is
            // a line an hour later another process's, whose launch the input left out.
            let quiet = existing.lastSeen.time.flatMap { last in stamp.time.map { $0 - last > 3_600_000_000 } } ?? false
            if relaunched || quiet && existing.end != nil {
                timelines[pid] = nil
                conclude(existing)
            }
        }
        timelines[pid, default: Timeline(pid: pid, at: stamp)].add(o, at: stamp) { text ?? self.recordText() }
        switch o.kind {
        case .killed, .crashed, .exited, .terminated, .death:
            if timelines[pid]?.process == .webContent { delegate.noteDeath(of: pid, at: stamp) }
        default: break
        }
        if timelines.count > Self.liveTimelineLimit { concludeOldest() }
    }

    /// The record being read, as written, cut at `Evidence.textLimit` bytes.
    private func recordText() -> String {
        String(decoding: record.prefix(Evidence.textLimit), as: UTF8.self)
    }

    /// Over the limit of live timelines: the least recently seen eighth is classified now.
    private func concludeOldest() {
        classifier.unattributed = pairing.unattributed
        let oldest = timelines.values.sorted { $0.lastSeen.ordinal < $1.lastSeen.ordinal }.prefix(Self.liveTimelineLimit / 8)
        for timeline in oldest {
            timelines[timeline.pid] = nil
            conclude(timeline)
        }
    }

    func conclude(_ timeline: Timeline) {
        var timeline = timeline
        if timeline.process == .webContent, let ending = timeline.ending { report.noteEnding(timeline.pid, ending) }
        // A reason WebKit logged as a number, read in the numbering of the WebKit the input names.
        if timeline.cause == .numeric, let number = timeline.causeNumber,
            let reason = WebKitRelease.reason(number: number, webKit: classifier.webKit?.major)
        {
            timeline.cause = .named(reason)
        }
        for entry in facts.take(for: timeline) { add(entry, to: &timeline) }
        if var incident = classifier.classify(timeline) {
            if let view = timeline.view, let death = timeline.death?.stamp.time ?? incident.lastSeen.time {
                incident.recovered = recovery.recovered(view: view, after: death)
            } else if timeline.view == nil {
                // The view went blank when the process died, or, before render, when it was raised and found gone.
                let raised = incident.kind == .killedBeforeRender ? timeline.raise : nil
                let death = [raised, timeline.end].compactMap { $0 }.min { $0.before($1) } ?? incident.lastSeen
                incident.recovered = pages.recovered(pid: timeline.pid, after: death, told: incident.told == true)
            }
            report.add(incident, limit: Self.incidentLimit)
        } else if timeline.process == .webContent {
            if report.lanes.count < Self.laneLimit {
                report.lanes.append(AnalysisReport.Lane(pid: timeline.pid, marks: timeline.marks))
            } else {
                report.lanesOmitted += 1
            }
        }
    }
}
