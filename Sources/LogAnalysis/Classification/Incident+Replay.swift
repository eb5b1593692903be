import Replay

extension Incident {
    /// How long after its launch a moment the input cannot time is taken to lie: the window in which the analyzer
    /// counts a process as new (`Window.newProcess`).
    package static let untimedMs = Double(Window.newProcess.micros / 1000)
    /// Evidence lines a replay's entry quotes.
    package static let replayEvidenceLimit = 8

    /// Why the incident is no WebContent death a replay can run, or nil when it is.
    package var notReplayable: String? {
        switch kind {
        case .gpuProcessCrash: "of the GPU process"
        case .hostAppCrash: "of the host app"
        case .launchFailed: "that failed to launch"
        default: pid == nil || moments == nil ? "naming no pid" : nil
        }
    }

    /// The incident as a replay schedule's entry: the moments of its worker's life, in milliseconds after its launch,
    /// as the input tells them or the intervals they lie in, with what was assumed in `detail`. `files` names the
    /// inputs its evidence is in. An interval that runs past the hour a schedule holds is cut there, and says so; a
    /// moment that lies wholly past it cannot be replayed: the incident is then left out, as when `notReplayable`
    /// says why, and the reason is given instead.
    package func replayed(files: [String]) -> Result<ReplayIncident, Skipped> {
        guard notReplayable == nil, let pid, let m = moments else { return .failure(Skipped(reason: notReplayable ?? "naming no pid")) }
        func place(_ stamp: Stamp) -> String { "\(files[stamp.file]):\(stamp.line)" }
        var assumed: [String] = []
        let raise = m.raise.flatMap(Moment.init)
        // The launch, or when the input does not show it, the interval from the process's first line to its raise.
        var launch = m.launch.flatMap(Moment.init)
        if m.launch == nil, let first = Moment(m.firstSeen), let upper = raise ?? Moment(m.gone), first.low < upper.low {
            launch = Moment(low: first.low, high: upper.low)
            assumed.append("launch not in the input: assumed between its first line (\(place(m.firstSeen))) and "
                + (raise == nil ? "its end" : "the raise"))
        }
        func span(_ name: String, from launch: Moment, to later: Moment) -> ReplayIncident.Span? {
            guard let span = launch.span(to: later) else { return nil }
            if span.cut { assumed.append("\(name) may lie past the hour after launch a schedule holds: cut there") }
            return span.span
        }
        let attach: ReplayIncident.Span
        if let launch, let raise {
            guard let span = span("the attach", from: launch, to: raise) else { return .failure(.pastTheLimit) }
            attach = span
        } else {
            attach = Moment.untimed
            let why = m.raise == nil ? "no raise in the input"
                : m.launch == nil ? "no launch in the input before the raise" : "no time to measure it by"
            assumed.append("\(why): attach assumed within \(Int(Self.untimedMs / 1000)) s of launch")
        }
        // Told, or after its last sign of life and no later than the line that found it gone.
        var died = m.death.flatMap(Moment.init)
        if died == nil, let gone = Moment(m.gone), let after = m.alive.flatMap(Moment.init) ?? launch {
            died = Moment(low: after.low, high: gone.high)
        }
        let death: ReplayIncident.Span
        if let launch, let died {
            guard let span = span("the death", from: launch, to: died) else { return .failure(.pastTheLimit) }
            death = span
        } else {
            death = Moment.untimed
            assumed.append("death assumed within \(Int(Self.untimedMs / 1000)) s of launch")
        }
        return .success(ReplayIncident(
            id: "pid \(pid)", kind: kind, attach: attach, death: death, band: m.band, rendered: m.rendered,
            cause: m.cause, detail: ([m.why] + assumed).joined(separator: "; "),
            evidence: evidence.prefix(Self.replayEvidenceLimit).map { place($0.stamp) + " " + $0.text }))
    }

    /// Why an incident is not in a schedule, in the words the summary counts it by.
    package struct Skipped: Error {
        package let reason: String

        /// A moment of the worker's life lies wholly past the latest a schedule may name.
        static let pastTheLimit = Skipped(reason: "past the hour after launch a schedule holds")
    }
}

/// A moment in microseconds since 1970, or the interval it lies in: a line written in whole seconds lies anywhere
/// in its second.
private struct Moment {
    static let untimed = ReplayIncident.Span(lowMs: 0, highMs: Incident.untimedMs)!

    var low: Int
    var high: Int

    init(low: Int, high: Int) { (self.low, self.high) = (low, high) }

    init?(_ stamp: Stamp) {
        guard let time = stamp.time else { return nil }
        (low, high) = (time, time + (stamp.coarse ? 999_999 : 0))
    }

    /// From `self` (the launch) to `later`, in milliseconds: exact when both are, never below zero, and cut at the
    /// latest moment a schedule may name (`cut` then says so). Nil when even its earliest lies past that.
    func span(to later: Moment) -> (span: ReplayIncident.Span, cut: Bool)? {
        let low = Double(max(0, later.low - high)) / 1000
        let high = max(low, Double(later.high - self.low) / 1000)
        let limit = ReplayIncident.Span.limitMs
        guard let span = ReplayIncident.Span(lowMs: low, highMs: min(high, limit)) else { return nil }
        return (span, high > limit)
    }
}
