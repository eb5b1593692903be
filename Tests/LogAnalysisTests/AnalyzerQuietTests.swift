import Testing

@testable import LogAnalysis
@testable import Browser
@testable import System
@testable import SupervisorTesting

/// The cases that look like a kill before render and are not. Each stays quiet, and each is shown to be kept quiet
/// by its own rule: with that rule off, the same log reports an incident.
@Suite struct AnalyzerQuiet {
    static let cases: [(Rule, String)] = [
        // WebKit was already tearing the process down when the assertion failed.
        (.teardown, Fixture.launched("""
            2025-03-02 10:11:12.122000+0100 MyApp[4100:99001] [Process] 0x10a2b3c40 - [PID=4107] WebProcessProxy::shutDown:
            \(Fixture.failure())
            """)),
        // The termination watchdog is taken only while a process is torn down; its failure, or a failure after it,
        // means "already gone".
        (.watchdogAssertion, Fixture.launched(Fixture.failure("ConnectionTerminationWatchdog"))),
        (.watchdogAssertion, Fixture.launched("""
            2025-03-02 10:11:12.122000+0100 MyApp[4100:99001] [ProcessSuspension] 0x10a2b3c40 - ProcessAssertion::acquireSync Successfully took RBS assertion 'XPCConnectionTerminationWatchdog' for process with PID=4107
            \(Fixture.failure())
            """)),
        // Debug builds and the simulator: code 2, but about an entitlement.
        (.entitlement, Fixture.launched("""
            2025-03-02 10:11:12.124000+0100 MyApp[4100:99002] [assertion] Error acquiring assertion: <NSError: 0x283cbdef0; domain: RBSAssertionErrorDomain; code: 2; reason: "Client is missing required entitlement"> {
                userInfo = {
                    RBSAssertionAttribute = <RBSLegacyAttribute: 0x100b49240; requestedReason: FinishTaskUnbounded; reason: FinishTaskUnbounded; flags: PreventTaskSuspend>;
                }
            }
            \(Fixture.failure(error: "(null)"))
            """)),
        (.invalidationInPast, Fixture.launched(Fixture.failure(
            error: #"Error Domain=RBSAssertionErrorDomain Code=2 "Assertion's invalidation time is in the past" UserInfo={}"#))),
        // Code 3 and RBSServiceErrorDomain, with nothing else to go on.
        (.ambiguousError, Fixture.launched("""
            \(Fixture.failure(error: #"Error Domain=RBSAssertionErrorDomain Code=3 "Target is not running or required target entitlement is missing" UserInfo={RBSAssertionAttribute=<RBSDomainAttribute| domain:"com.apple.webkit" name:"Foreground">}"#))
            \(Fixture.failure(error: #"Error Domain=RBSServiceErrorDomain Code=1 "target is not running or doesn't have entitlement com.apple.runningboard.assertions.webkit" UserInfo={}"#, at: "10:11:12.130000"))
            """)),
        // The network process, and the host app itself (pid 4100).
        (.otherProcess, """
            \(Fixture.failure("Networking Background Assertion", pid: 4109))
            2025-03-02 10:11:12.124500+0100 MyApp[4100:99002] [ProcessSuspension]  0x11cad94c8 - ProcessAssertion() PID 4100 Unable to acquire assertion for process with PID 4100
            2025-03-02 10:11:12.124400+0100 MyApp[4100:99002] [assertion] Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={}>

            """),
        // The host app was quitting: every process it had goes with it.
        (.hostQuit, Fixture.launched("""
            2025-03-02 10:11:12.123000+0100 MyApp[4100:99001] [Lifecycle] -[AppDelegate applicationWillTerminate:]
            \(Fixture.failure())
            """)),
        // The app went to the background, its process died there, and raising it on the way back found it gone.
        (.backFromBackground, Fixture.launched("""
            2025-03-02 10:11:13.000000+0100 MyApp[4100:99001] [Lifecycle] -[SceneDelegate sceneDidEnterBackground:]
            2025-03-02 10:11:18.000000+0100 MyApp[4100:99001] [Lifecycle] -[SceneDelegate sceneWillEnterForeground:]
            \(Fixture.failure(at: "10:11:18.000300"))
            """)),
    ]

    @Test(arguments: cases.indices)
    func staysQuietBecauseOfItsRule(index: Int) throws {
        let (rule, text) = Self.cases[index]
        #expect(try analyze(text).incidents.isEmpty, "\(rule.rawValue) did not keep its case quiet")
        #expect(try !analyze(text, disabled: [rule]).incidents.isEmpty, "\(rule.rawValue) is not what keeps its case quiet")
    }

    /// Every quiet rule has its case.
    @Test func everyQuietRuleIsCovered() {
        #expect(Set(Self.cases.map(\.0)) == Set(Rule.allCases.filter(\.isQuiet)))
    }
}
