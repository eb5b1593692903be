import Events
import System
import Text
import Vocabulary

/// Crash and JetsamEvent reports joined to the timelines, and the observations that name no pid, concluded.
extension LogAnalyzer {
    /// Takes what a crash or JetsamEvent report says; joined to the logs' timelines when they are classified.
    package func add(_ reported: [ReportFact], file: Int) {
        for fact in reported {
            // A report read alone is shown in the zone it was written in, as a log is.
            if report.displayZone == nil, fact.time != nil, let zone = fact.zoneSeconds { report.displayZone = zone }
            if report.fileZones[file] == nil, fact.time != nil, let zone = fact.zoneSeconds { report.fileZones[file] = zone }
            if let os = fact.os { noteOS(os, from: "a report") }
            ordinal += 1
            let stamp = Stamp(time: fact.time, ordinal: ordinal, file: file, line: fact.line)
            facts.add(ReportFacts.Entry(fact: fact, stamp: stamp))
        }
    }

    /// Learns which WebKit the device ran from the OS a report or a log's header names (`iPhone OS 15.4.1 (19E258)`),
    /// the first that names one: WebKit's numbered termination reasons are read in its numbering.
    package func noteOS(_ os: String, from source: String) {
        guard classifier.webKit == nil, let version = WebKitRelease.iOSVersion(os: os),
            let major = WebKitRelease.major(iOS: version.major, minor: version.minor)
        else { return }
        classifier.webKit = (major, "iOS \(version.major).\(version.minor) in \(source)")
    }

    /// Joins a report's word to its process's timeline, and to its story when `--timeline` asks for it.
    func add(_ entry: ReportFacts.Entry, to timeline: inout Timeline) {
        timeline.add(entry)
        guard options.story == timeline.pid else { return }
        let reported = ReportedDeath(event: entry.fact.event, stamp: entry.stamp)
        report.story.append(StoryStep(
            observation: Observation(reported.isKill ? .killed : .crashed, pid: Int(timeline.pid)), stamp: entry.stamp,
            text: entry.fact.text, reported: "reported: " + reported.words))
    }

    /// The facts read from reports and not yet joined, with the file each came from.
    package var reportFacts: [(file: Int, fact: ReportFact)] { facts.waiting.map { ($0.stamp.file, $0.fact) } }

    /// Reports no timeline took: a WebContent death on its own, the host app's crash, the GPU process's.
    func concludeReports() {
        let rest = facts.takeRest()
        // The host app is the one WebKit's processes answer to: a pid the logs gave, a WebContent report's
        // responsible process, or its coalition. Other apps' crashes in a sysdiagnose are not the view's story.
        let (hosts, coalitions) = (facts.hostNames, facts.webContentCoalitions)
        // A crash report and a Jetsam entry of one process, close in time, tell one death.
        var alone: [Int32: Timeline] = [:]
        for entry in rest {
            let fact = entry.fact
            if fact.isWebContent {
                if let open = alone[fact.pid], !ReportFacts.sameDeath(open.firstSeen, entry.stamp) {
                    conclude(open)
                    alone[fact.pid] = nil
                }
                add(entry, to: &alone[fact.pid, default: Timeline(pid: fact.pid, at: entry.stamp)])
                continue
            }
            guard case .crashed = fact.event else { continue }
            let reported = ReportedDeath(event: fact.event, stamp: entry.stamp)
            let kind: IncidentKind
            let detail: String
            if fact.name.contains("WebKit.GPU") {
                (kind, detail) = (.gpuProcessCrash, "the GPU process " + reported.words)
            } else if classifier.host.pids.contains(fact.pid) || hosts.contains(fact.name)
                || fact.coalition.map(coalitions.contains) == true
            {
                (kind, detail) = (.hostAppCrash, "\(fact.name) \(reported.words); not a WebContent process")
            } else {
                continue
            }
            report.add(Incident(
                pid: fact.pid, kind: kind, confidence: .confirmed, rule: kind == .hostAppCrash ? .hostAppCrashReport : .crashReport,
                seen: kind == .hostAppCrash ? .appClosed : .none, detail: detail, firstSeen: entry.stamp, lastSeen: entry.stamp, evidence: [entry.evidence], marks: []),
                limit: Self.incidentLimit)
        }
        for timeline in alone.values.sorted(by: { $0.firstSeen.ordinal < $1.firstSeen.ordinal }) { conclude(timeline) }
    }

    /// Each burst of pid-less lines is one incident, unless a timeline already tells the same death with a pid.
    func concludePidless() {
        var last: (kind: Observation.Kind, stamp: Stamp)?
        for (kind, evidence) in pidless {
            let stamp = evidence.stamp
            defer { last = (kind, stamp) }
            if let last, last.kind == kind, Stamp.near(last.stamp, stamp, .burst) { continue }
            let told = report.incidents.contains { $0.kind != .gpuProcessCrash && Stamp.near($0.lastSeen, stamp, .burst) }
            let incident: (IncidentKind, Incident.Confidence, Rule, Incident.Seen, String)
            switch kind {
            case .gpuExited:
                if report.incidents.contains(where: { $0.kind == .gpuProcessCrash && Stamp.near($0.lastSeen, stamp, .burst) }) {
                    continue
                }
                incident = (.gpuProcessCrash, .confirmed, .gpuProcessExited, .none, "the GPU process exited")
            case .launchFailed:
                incident = (.launchFailed, .confirmed, .launchFailed, .blankView, "a web process failed to launch")
            case .navigationTerminated:
                // The app's own word that a process ended, which WebKit's lines, when the input has them, tell better.
                if told { continue }
                incident = (.terminatedDuringNavigation, .likely, .navigationError, .unknown,
                            "a navigation failed: its WebContent process ended (WKErrorDomain 2); no pid, no cause")
            default:
                if told { continue }
                incident = classifier.jetsamSnapshot(near: stamp)
                    ? (.killed, .likely, .jetsamSnapshot, .unknown, "ended as the kernel took a jetsam snapshot; the line names no pid")
                    : (.crash, .likely, .reportedCrash, .none, "reported as a crash; the line names no pid")
            }
            report.add(Incident(
                pid: nil, kind: incident.0, confidence: incident.1, rule: incident.2, seen: incident.3, detail: incident.4,
                firstSeen: stamp, lastSeen: stamp, evidence: [evidence], marks: []), limit: Self.incidentLimit)
        }
    }
}

extension Observation {
    /// Lines only WebKit's UI process writes: the envelope's pid is then the host app's.
    package var speaksForHost: Bool {
        switch kind {
        case .assertionTaken, .assertionAttempt, .assertionFailed, .assertionError, .launch, .terminated, .callback, .render:
            true
        default:
            false
        }
    }
}
