import Text

/// What a sysdiagnose's process listing (`ps.txt`) says of the incidents: which processes were still alive.
extension LogAnalyzer {
    /// The rules whose incidents rest on a process seeming gone (a failed raise, a vanishing), which a listing of it
    /// alive undoes.
    private static let seemingGone: Set<Rule> = [
        .raiseFailedAfterLaunch, .unpairedErrorAfterLaunch, .raiseFailedLaunchUnseen, .raiseFailedNotForeground, .vanishedAfterUse,
    ]

    /// A listing taken after an incident says whether its process was still alive: one listed alive was not gone,
    /// and its incident, if it rests on seeming gone and is not confirmed, is withdrawn with a note; one not listed
    /// was gone by then, which its detail says. The WebContent processes alive are said too.
    func checkAgainstListings() {
        for (name, listing) in listings {
            let file = visible(String(name.split(separator: "/").last ?? ""))
            var withdrawn: [String] = []
            report.incidents.removeAll { incident in
                guard let pid = incident.pid, listing.follows(incident), incident.confidence != .confirmed,
                    Self.seemingGone.contains(incident.rule), let row = listing.webContent.first(where: { $0.pid == pid })
                else { return false }
                withdrawn.append("\(ProcessListing.words(row)), \(incident.kind.rawValue)")
                return true
            }
            for index in report.incidents.indices {
                guard let pid = report.incidents[index].pid, listing.follows(report.incidents[index]), !listing.pids.contains(pid)
                else { continue }
                report.incidents[index].detail += "; gone by capture (\(file))"
            }
            let alive = listing.webContent.prefix(5).map(ProcessListing.words).joined(separator: ", ")
                + (listing.webContent.count > 5 ? ", and \(listing.webContent.count - 5) more" : "")
            readingNotes.append("\(visible(name)): \(listing.webContent.count) WebContent "
                + (listing.webContent.count == 1 ? "process" : "processes") + " alive at capture" + (alive.isEmpty ? "" : ": " + alive)
                + (withdrawn.isEmpty ? "" : "; withdrawn, as alive: " + withdrawn.joined(separator: "; ")))
        }
    }
}

extension ProcessListing {
    /// Whether this listing was taken after `incident`, a WebContent death's (or when either time is unknown).
    fileprivate func follows(_ incident: Incident) -> Bool {
        guard incident.kind.isReplayable else { return false }
        guard let captured, let seen = incident.lastSeen.time else { return true }
        return seen <= captured
    }
}
