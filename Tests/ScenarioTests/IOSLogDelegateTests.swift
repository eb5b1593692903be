import Events
import Foundation
import Testing
import Vocabulary

@testable import Scenario
@testable import System
@testable import SupervisorTesting

/// The iOS log writes WebKit's own reload after a death only for an app without a termination delegate: the
/// policy's `delegate` field says so, whatever the policy is called.
@Suite struct IOSLogDelegate {
    /// The iOS log of a run of `policy` (with `delegate`) whose view died and was recovered.
    func log(policy: String, delegate: Bool) throws -> String {
        let folder = try TemporaryFolder([:])
        let path = folder.path + "/ios.log"
        let output = try OutputFile(path, kind: IOSConsoleLog.outputKind)
        let log = IOSConsoleLog(output: output)
        let events: [(SupervisorEvent, view: Int?, pid: Int32?)] = [
            (.runBegin(.init(
                policy: policy, delegate: delegate, loads: 1, views: 1, hidden: 0, seed: 1, raceRate: 0, killRate: 0,
                tabs: nil)), nil, nil),
            (.termination(status: .killed, reason: .evictedForMemory), 1, 4107),
            (.recovery(kind: .reload, reason: .termination, attempt: 1), 1, nil),
        ]
        for (event, view, pid) in events { log.record(Event(event, monotonic: 1, wall: 1_795_000_000_000_000_000, view: view, pid: pid)) }
        if let error = log.flush() { throw error }
        try output.commit()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func webKitReloadsByItselfOnlyWithoutADelegate() throws {
        #expect(try log(policy: "my-own", delegate: false).contains("tryReloadAfterProcessTermination"))
        #expect(try !log(policy: "webkit-default", delegate: true).contains("tryReloadAfterProcessTermination"))
    }
}
