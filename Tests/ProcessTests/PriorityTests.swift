import Foundation
import Glibc
import ProcFS
import Testing

@testable import Core
@testable import Process
@testable import Browser
@testable import Scenario
import Vocabulary
@testable import SupervisorTesting

extension Processes {
    /// Bands are really applied, read back from /proc, and failures are reported the RunningBoard way.
    @Suite struct Priority {
        /// The nice value (field 19 of /proc/PID/stat) and oom_score_adj, as the kernel reports them.
        static func standing(of pid: Int32) -> (nice: Int32, oom: Int)? {
            guard let stat = ProcFS.stat(.pid(pid)), let oom = ProcFS.oomScoreAdjust(pid) else { return nil }
            return (Int32(stat.nice), oom)
        }

        /// Each band as the kernel reports it (nice, oom_score_adj), per policy, for one visible and one hidden view:
        /// a new worker starts in the background band (no assertion), a hidden tab's worker ranks above it, an
        /// attached view's worker is foreground; guarded boosts a new worker (protected from the killer, scheduled
        /// like background); always-foreground never leaves the foreground band. (Suspension, and its band, is left
        /// out: whether the hidden tab renders before it is shown depends on the machine's load.)
        @Test(arguments: [
            ("rebuild", ["background": (10, 900), "hidden": (10, 800), "foreground": (0, 0)]),
            ("guarded", ["hidden": (10, 800), "boosted": (10, 0), "foreground": (0, 0)]),
            ("always-foreground", ["foreground": (0, 0)]),
        ] as [(String, [String: (Int32, Int)])])
        func bandsReadBackFromTheKernel(policy: String, expected: [String: (Int32, Int)]) throws {
            var readings: [String: (nice: Int32, oom: Int)] = [:]
            _ = try simulate({
                $0.policy = Policy.named(policy)!
                $0.policy.suspends = false
                $0.loads = 2
                $0.views = 2
                $0.hidden = 1
            }, content: ContentProvider()) { event in
                guard event.name == "priority", let pid = event.pid, let band = event.string("band") else { return }
                #expect(event.string("result") == "ok")
                readings[band] = Self.standing(of: pid)
            }
            #expect(readings.keys.sorted() == expected.keys.sorted())
            for (band, (nice, oom)) in expected {
                #expect(readings[band]?.nice == nice && readings[band]?.oom == oom, "\(band)")
            }
        }

        @Test func raisingAProcessThatIsGoneIsNoSuchProcess() throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/true")
            try process.run()
            process.waitUntilExit()
            #expect(PriorityBands().apply(.foreground, to: process.processIdentifier) == .noSuchProcess)
            #expect(RunningBoardError.targetMissing.rawValue.contains(#"RBSAssertionErrorDomain Code=2 "Specified target process does not exist""#))
        }

        @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
        func anUnprivilegedUserGetsAClearWarningAndTheRunGoesOn() throws {
            // The build folder may be private to root (a clone in a mktemp folder is), so the user "nobody" runs
            // copies of both binaries from a folder it can read.
            let folder = try TemporaryFolder([:])
            for binary in [supervisorPath, workerPath] {
                try FileManager.default.copyItem(atPath: binary, toPath: folder.path + "/" + (binary as NSString).lastPathComponent)
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
            let log = folder.path + "/events.jsonl"
            let result = try runCommand("/usr/bin/setpriv", [
                "--reuid=65534", "--regid=65534", "--clear-groups", folder.path + "/supervisor", "run", "--loads", "2",
                "--json", "--log", log,
            ])
            #expect(result.status == 0)
            #expect(result.stdout.contains(#""rendered":2"#))
            #expect(result.stderr.contains("warning: cannot change worker priority (setpriority: Permission denied)"))
            let text = try String(contentsOfFile: log, encoding: .utf8)
            #expect(text.contains(#""band":"foreground","nice":0,"oomScoreAdj":0,"result":"EACCES""#))
        }
    }
}
