import Events
import Foundation
import Testing
import Vocabulary

@testable import LogAnalysis
@testable import Scenario
@testable import System
@testable import SupervisorTesting

/// Every line the iOS log writer prints is read back by the analyzer to the fact it was written for: one event at
/// a time, each line's message through `WebKitMessage`, the reader of device logs.
@Suite struct IOSLogRoundTrip {
    typealias Kind = Observation.Kind

    /// The lines `events` make, after `context`, with the observations the analyzer reads from each.
    func lines(_ events: [SupervisorEvent], after context: [SupervisorEvent] = [], delegate: Bool = true) throws
        -> [(line: String, kinds: [Kind], pid: Int32?, causes: [TerminationCause])]
    {
        let folder = try TemporaryFolder([:])
        let path = folder.path + "/ios.log"
        let output = try OutputFile(path, kind: IOSConsoleLog.outputKind)
        let log = IOSConsoleLog(output: output)
        let begin = SupervisorEvent.runBegin(.init(
            policy: "p", delegate: delegate, loads: 1, views: 1, hidden: 0, seed: 1, raceRate: 0, killRate: 0, tabs: nil))
        for event in [begin] + context { log.record(Event(event, monotonic: 1, wall: 1_795_000_000_000_000_000, view: 1, pid: 4107)) }
        if let error = log.flush() { throw error }
        let before = try String(contentsOfFile: path, encoding: .utf8).count
        for event in events { log.record(Event(event, monotonic: 2, wall: 1_795_000_001_000_000_000, view: 1, pid: 4107)) }
        if let error = log.flush() { throw error }
        try output.commit()
        let written = String(try String(contentsOfFile: path, encoding: .utf8).dropFirst(before))
        var read: [(line: String, kinds: [Kind], pid: Int32?, causes: [TerminationCause])] = []
        for line in written.split(separator: "\n").map(String.init) {
            // `<time> <process>[pid:tid] [<category>] <message>`
            var message = line
            if let open = line.range(of: "] ["), let close = line[open.upperBound...].range(of: "] ") {
                message = String(line[close.upperBound...])
            }
            let bytes = Array(message.utf8)
            var observations: [Observation] = []
            WebKitMessage.observe(bytes.span, into: &observations)
            read.append((line, observations.map(\.kind), observations.last?.pid, observations.compactMap(\.cause)))
        }
        return read
    }

    static let signalled = SupervisorEvent.Death(
        status: .killed, terminationReason: .evictedForMemory, exit: .signal(9), reason: nil, rendered: true, attached: true, spare: false, band: .foreground,
        lifetimeMs: 5, cause: .outside, shutdown: false)

    /// Each event the writer speaks of, and what the analyzer must read from each line it prints for it.
    static let cases: [(event: SupervisorEvent, context: [SupervisorEvent], delegate: Bool, kinds: [[Kind]])] = [
        (.interrupt(signal: .SIGINT), [], true, [[.hostQuit]]),
        (.spawn(load: 1, reused: false), [], true, [[.launch]]),
        // The process cache, in WebKit's words: checked and added (parked), taken (reused), evicted (shut down).
        (.cacheCheck(site: "app://local"), [], true, [[.cached]]),
        (.cacheAdd(site: "app://local", size: 1, capacity: 10), [], true, [[.cached]]),
        (.cacheTaken(site: "app://local", size: 0, capacity: 10), [], true, [[.reused]]),
        (.cacheEvict(site: "app://local", reason: .sameSite), [], true, [[.teardown]]),
        (.cacheEvict(site: "app://local", reason: .capacity), [], true, [[.teardown]]),
        (.cacheEvict(site: "app://local", reason: .expired), [], true, [[.teardown]]),
        (.notCached(site: "app://local", reason: .notResponsive), [], true, [[]]),
        (.notCached(site: nil, reason: .memoryPressure), [], true, [[]]),
        (.hello(spawnToHelloMs: 0.3, sandbox: .installed), [], true, [[.launch]]),
        // runningboardd follows with the jetsam priority it set and the role it calculated (its host named inside).
        (.priority(band: .foreground, nice: 0, oomScoreAdj: 0, result: .applied, error: nil, rbs: nil), [], true,
         [[.assertionTaken], [.hostIdentity, .role], [.hostIdentity, .role]]),
        (.priority(band: .suspended, nice: 10, oomScoreAdj: 1000, result: .applied, error: nil, rbs: nil), [], true,
         [[.assertionTaken], [.hostIdentity, .role], [.hostIdentity, .role]]),
        (.priority(band: .foreground, nice: 0, oomScoreAdj: 0, result: .noSuchProcess, error: nil, rbs: .targetMissing),
         [], true, [[.assertionError], [.assertionFailed]]),
        (.commit(url: "app://local/"), [], true, [[.pageBound]]),
        (.render(title: "T", workersRSSBytes: 1), [], true, [[.render], [.render]]),
        (.shutdown, [], true, [[.teardown]]),
        (.kill(reason: "no pong", verdict: .unresponsive, terminationReason: .unresponsive), [], true, [[.unresponsive], [.teardown]]),
        (.kill(reason: "flood", verdict: .protocolViolation, terminationReason: .crash), [], true, [[.teardown]]),
        (.launchFailed(reason: "ENOENT"), [], true, [[.launchFailed]]),
        (.unresponsive(timeoutMs: 3000), [], true, [[.unresponsive]]),
        (.responsive(afterMs: 900), [], true, [[.responsive]]),
        (.prepareToSuspend, [], true, [[.preparingToSuspend]]),
        (.suspended(answered: true), [], true, [[.suspended]]),
        (.suspended(answered: false), [], true, [[.suspended]]),
        // A footprint threshold is a warning, not an end; the limits end the process, with their reason.
        (.memoryWarning(residentBytes: 96 << 20, limitBytes: 128 << 20), [], true, [[.memoryWarning]]),
        (.memoryLimit(residentBytes: 129 << 20, limitBytes: 128 << 20, warnedMsBefore: 40), [], true, [[.terminated]]),
        (.cpuLimit(usedPercent: 61.5, limitPercent: 50, windowMs: 480_000), [], true, [[.terminated]]),
        (.death(.init(
            status: .normal, terminationReason: .idleExit, exit: .code(0), reason: nil, rendered: true, attached: true, spare: false, band: .foreground,
            lifetimeMs: 5, cause: .worker, shutdown: true)), [], true, [[.teardown]]),
        (.death(.init(
            status: .launchFailed, terminationReason: .crash, exit: .code(1), reason: "died before hello", rendered: false, attached: false,
            spare: false, band: nil, lifetimeMs: 1, cause: .worker, shutdown: false)), [], true, [[.launchFailed]]),
        // runningboardd's report names the host app first (`[app<…>:pid]`), then the process.
        (.death(signalled), [], true, [[.terminated], [.terminated], [.hostIdentity, .killed]]),
        (.death(signalled), [.kill(reason: "no pong", verdict: .unresponsive, terminationReason: .unresponsive)], true, [[.terminated], [.hostIdentity, .killed]]),
        (.termination(status: .killed, reason: .evictedForMemory), [], true, [[.terminated, .callback], [.terminated, .callback]]),
        (.recovery(kind: .reload, reason: .termination, attempt: 1), [], false, [[.callback]]),
        (.recovery(kind: .reload, reason: .termination, attempt: 1), [], true, []),
    ]

    @Test(arguments: cases.indices)
    func everyLineIsReadBackAsWritten(index: Int) throws {
        let (event, context, delegate, kinds) = Self.cases[index]
        let read = try lines([event], after: context, delegate: delegate)
        #expect(read.map(\.kinds) == kinds, "\(event.name): \(read.map(\.line))")
        // Every line names the worker it is about (last, after the host app), where it names one at all.
        for (line, _, pid, _) in read where pid != nil { #expect(pid == 4107, "\(line)") }
    }

    /// Every band a worker takes is read back from runningboardd's two lines: the jetsam priority it set (naming the
    /// worker) and the role it calculated (naming it by its identity alone, the same identity as the first line's).
    @Test(arguments: PriorityBand.allCases)
    func everyBandIsReadBackAsRunningBoardLogsIt(band: PriorityBand) throws {
        let event = SupervisorEvent.priority(band: band, nice: 0, oomScoreAdj: 0, result: .applied, error: nil, rbs: nil)
        let read = try lines([event])
        try #require(read.count == 3)
        var standings: [Observation] = []
        for (line, _, _, _) in read.dropFirst() {
            // `<time> runningboardd[33:tid] [process] <message>`
            let message = Array(line.split(separator: "] ", maxSplits: 2)[2].utf8)
            WebKitMessage.observe(message.span, into: &standings)
        }
        let roles = standings.filter { $0.kind == .role }
        try #require(roles.count == 2, "\(read.map(\.line))")
        #expect(roles[0].pid == 4107 && roles[0].runningBoard?.jetsamPriority == band.runningBoard.jetsamPriority)
        #expect(roles[1].pid == nil && roles[1].runningBoard?.role == band.runningBoard.role)
        #expect(roles[0].identity != nil && roles[0].identity == roles[1].identity)
        let expected: PriorityBand = band.isProtected ? .foreground : band.runningBoard.role == "None" ? .suspended : .background
        #expect(roles[1].runningBoard?.band == expected.rawValue)
    }

    /// Every reason a death carries is read back as WebKit prints it, from the process's end and from the page's
    /// callback: by its own name, or as a crash for the kills for memory that WebKit cannot tell from one.
    @Test(arguments: TerminationReason.allCases)
    func everyReasonIsReadBackAsWebKitPrintsIt(reason: TerminationReason) throws {
        let expected = TerminationCause.named([.oomProtected, .evictedForMemory].contains(reason) ? .crash : reason)
        var death = Self.signalled
        death.terminationReason = reason
        let kill = SupervisorEvent.kill(reason: "r", verdict: .killed, terminationReason: reason)
        // A death nobody asked for is a close first (WebKit's `didClose`, a crash), then its reason.
        for context in [[], [kill]] {
            let causes = try lines([.death(death)], after: context).flatMap(\.causes)
            #expect(causes.last == expected && causes.dropLast() == (context.isEmpty ? [.crash] : []), "\(context)")
        }
        let told = try lines([.termination(status: .killed, reason: reason)]).flatMap(\.causes)
        #expect(told == [expected, expected])
    }

    /// The limits' own lines name their reason, in the active or the inactive wording by the worker's last band.
    @Test func theLimitsAreReadBackToTheirReasons() throws {
        let foreground = SupervisorEvent.priority(band: .foreground, nice: 0, oomScoreAdj: 0, result: .applied, error: nil, rbs: nil)
        let memory = SupervisorEvent.memoryLimit(residentBytes: 129 << 20, limitBytes: 128 << 20, warnedMsBefore: nil)
        let active = try lines([memory], after: [foreground])
        #expect(active.map(\.causes) == [[.named(.exceededMemoryLimit)]] && active[0].line.contains("didExceedActiveMemoryLimit"))
        let inactive = try lines([memory])
        #expect(inactive.map(\.causes) == [[.named(.exceededMemoryLimit)]] && inactive[0].line.contains("didExceedInactiveMemoryLimit"))
        let cpu = try lines([.cpuLimit(usedPercent: 61.5, limitPercent: 50, windowMs: 480_000)])
        #expect(cpu.map(\.causes) == [[.named(.exceededCPULimit)]])
    }
}
