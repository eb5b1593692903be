import Foundation
import Testing
import UnifiedLog

@testable import LogAnalysis
@testable import SupervisorTesting

/// RunningBoard's statedumps in a real iOS unified log (Tests/Fixtures/unified-log, libyal's test data) name the
/// WebContent processes of an app with their roles (issue 33, item 3 and must-show).
@Suite struct RunningBoardState {
    @Test func theIOSFixturesDumpsListItsWebContentProcessesWithTheirAppAndRole() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/unified-log/0000000000000f85.tracev3").standardizedFileURL.path
        let file = try TraceFile([UInt8](try #require(FileManager.default.contents(atPath: path))))
        let processes = file.stateDumps.flatMap(RunningBoardProcess.named)
        let byPID = Dictionary(grouping: processes, by: \.pid)
        #expect(Set(byPID.keys) == [37730, 39583, 39591, 49622, 49624, 49664, 49670, 49684])
        #expect(processes.allSatisfy { $0.app == "es.socialpoint.MonsterCity" })
        let hosts = byPID.mapValues { Set($0.map(\.appPID)) }
        #expect(hosts[37730] == [37700] && hosts[39583] == [39532] && hosts[39591] == [39532] && hosts[49670] == [49551])
        // Each has its role in RunningBoard's assertion manager's dump: none, as a process with no assertion.
        #expect(byPID.values.allSatisfy { $0.contains { $0.role == "None" } })
        #expect(file.stateDumps.filter { $0.title.hasPrefix("RBProcessManager") }.count >= 1)
    }

    @Test func aLineWithoutItsPartsIsNoProcess() {
        for line in ["xpcservice<com.apple.WebKit.WebContent([application<>:1])>:2", "xpcservice<com.apple.WebKit.WebContent(",
                     "[xpcservice<com.apple.WebKit.WebContent([application<a>:x])>:2:2]", "nothing here"] {
            #expect(RunningBoardProcess.parse(line[...], at: 0) == nil, "\(line)")
        }
        let line = "\t[xpcservice<com.apple.WebKit.WebContent([application<com.example>:10])>:12:12],"
        #expect(RunningBoardProcess.parse(line[...], at: 5) == RunningBoardProcess(pid: 12, app: "com.example", appPID: 10, role: nil, at: 5))
    }
}
