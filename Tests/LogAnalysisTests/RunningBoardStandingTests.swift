import Testing

@testable import LogAnalysis

/// runningboardd's word on where it put a WebKit process (issue 33, item 3): the jetsam priority it set, naming the
/// process, and the role it calculated, naming it by identity alone; in the shapes real logs print (an identity with
/// `{vt hash: 0}` in it, as macOS 26's runningboardd writes for XPC services).
@Suite struct RunningBoardStandings {
    static let identity = "xpcservice<com.apple.WebKit.WebContent([app<application.com.example.App(501)>:812])(501)>{vt hash: 0}"

    func observe(_ message: String) -> [Observation] {
        var out: [Observation] = []
        WebKitMessage.observe(Array(message.utf8).span, into: &out)
        return out
    }

    @Test func thePriorityNamesTheProcessAndTheRoleItsIdentity() throws {
        let set = observe("[\(Self.identity):5120] Set jetsam priority to 40 [0] flag[1]")
        #expect(set.map(\.kind) == [.hostIdentity, .role] && set[0].pid == 812 && set[1].pid == 5120, "\(set.map { ($0.kind, $0.pid) })")
        #expect(set[1].runningBoard == RunningBoardStanding(role: nil, jetsamPriority: 40) && set[1].process == .webContent)
        let state = observe("Calculated state for \(Self.identity): running-active (role: UserInteractiveNonFocal) (endowments: (null))")
        #expect(state.map(\.kind) == [.hostIdentity, .role] && state[0].pid == 812 && state[1].pid == nil)
        #expect(state[1].runningBoard?.role == "UserInteractiveNonFocal" && state[1].runningBoard?.band == "foreground")
        #expect(state[1].identity == set[1].identity && set[1].identity == Array(Self.identity.utf8))
        // The role's pid is the one its identity last came with.
        var identities = RunningBoardIdentities()
        #expect(identities.resolve(state[1]) == nil)
        _ = identities.resolve(set[1])
        #expect(identities.resolve(state[1])?.pid == 5120)
    }

    @Test func theWordsSayTheBandAndWhatTheLogSaid() {
        #expect(RunningBoardStanding(role: "Background", jetsamPriority: 40).words
            == "background (RunningBoard role Background, jetsam priority 40)")
        #expect(RunningBoardStanding(role: "None", jetsamPriority: nil).words == "suspended (RunningBoard role None)")
        #expect(RunningBoardStanding(role: nil, jetsamPriority: 100).words == "band unknown (jetsam priority 100)")
        #expect(RunningBoardStanding(role: "Mystery", jetsamPriority: nil).band == nil)
    }
}
