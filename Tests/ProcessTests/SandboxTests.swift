import Foundation
import Glibc
import Testing

@testable import Core
@testable import Process
@testable import Scenario
import Vocabulary
@testable import SupervisorTesting

extension Processes {
    /// The worker's sandbox (Workers/WorkerRuntime/sandbox.c): a page that tries what hostile content would is
    /// stopped by the kernel, and the supervisor names the death and recovers the view as from a crash.
    @Suite struct SandboxedWorker {
        @Test(arguments: [("open", "openat"), ("socket", "socket"), ("exec", "execve")])
        func aForbiddenCallKillsTheWorkerAndItsViewIsRecovered(page kind: String, call: String) throws {
            let content = try TemporaryFolder([
                "hostile.html": page("Hostile", fault: "syscall=\(kind); when=rendered"),
            ])
            let (summary, events) = try simulate({
                $0.policy = .guarded
                $0.loads = 1
                $0.dwellNanoseconds = 200_000_000
                $0.policy.crashBackoffNanoseconds = 10_000_000
            }, content: try content.provider)
            let deaths = events.named("death")
            try #require(deaths.count == 4, "\(deaths)")
            for death in deaths {
                #expect(death.string("status") == "sandbox-violation")
                #expect(death.int("signal") == Int(SIGSYS))
                #expect(death.string("reason")?.hasPrefix("the sandbox caught ") == true)
            }
            // The trap handler's report names the call whenever its channel was still open to read it.
            #expect(deaths.contains { $0.string("reason")?.hasPrefix("the sandbox caught \(call) (") == true })
            // Recovered as from a crash: every death is followed by a new worker that renders the page again,
            // until the crash-loop limit ends the load on an error page.
            #expect(events.named("recovery").count == 3)
            let renderers = Set(events.named("render").compactMap(\.pid))
            #expect(renderers == Set(deaths.compactMap(\.pid)))
            #expect(events.named("crash-loop").count == 1)
            #expect(summary.failed == 1 && summary.deathsByStatus[.sandboxViolation] == 4)
            #expect(childProcesses().filter { $0.state != "Z" }.isEmpty)
        }

        /// The kernel's own word that the file was never opened: inotify reports every open of a watched file.
        /// Without the sandbox the same page opens it and goes on rendering, so the watch does see opens.
        @Test(arguments: [true, false])
        func theFileAPageTriesToOpenIsNeverOpened(sandboxed: Bool) throws {
            let folder = try TemporaryFolder(["secret": "credentials"])
            let secret = folder.path + "/secret"
            let content = try TemporaryFolder([
                "open.html": page("Open", fault: "syscall=open; path=\(secret); when=rendered"),
            ])
            let watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            try #require(watch >= 0)
            defer { close(watch) }
            try #require(inotify_add_watch(watch, secret, UInt32(IN_OPEN)) >= 0)
            let (summary, events) = try simulate({
                $0.loads = 1
                $0.sandbox = sandboxed
                $0.policy.maxRecoveries = 0
            }, content: try content.provider)
            var buffer = [UInt8](repeating: 0, count: 4096)
            let read = Glibc.read(watch, &buffer, buffer.count)
            let opens = read > 0 ? read / MemoryLayout<inotify_event>.size : 0
            #expect(events.named("hello").map { $0.string("sandbox") } == [sandboxed ? "installed" : "off"])
            if sandboxed {
                #expect(opens == 0)
                #expect(events.named("death").map { $0.string("status") } == ["sandbox-violation"])
            } else {
                #expect(opens == 1)
                #expect(summary.rendered == 1 && summary.deathsByStatus[.sandboxViolation] == nil)
            }
        }

        /// `analyze` reads a sandbox violation in our log as the crash it is, naming it.
        @Test func theAnalyzerTellsASandboxViolationAsACrash() throws {
            let content = try TemporaryFolder(["socket.html": page("Socket", fault: "syscall=socket; when=rendered")])
            let folder = try TemporaryFolder([:])
            let log = folder.path + "/run.jsonl"
            // On screen when it dies, and not recovered: one death, with no teardown of the view before it.
            let run = try runSupervisorBounded([
                "run", "--content", content.path, "--loads", "1", "--policy", "none", "--dwell", "300", "--blank-timeout", "400",
                "--log", log,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let analysis = try runSupervisorBounded(["analyze", log, "--json"])
            let report = try #require(try JSONSerialization.jsonObject(with: Data(analysis.stdout.utf8)) as? [String: Any])
            let incidents = try #require(report["incidents"] as? [[String: Any]])
            #expect(incidents.count == 1)
            #expect(incidents.first?["kind"] as? String == "crash")
            #expect((incidents.first?["detail"] as? String)?.hasPrefix("sandbox-violation after render") == true)
        }

        /// A kernel without seccomp filters, made for the run by a filter of its own that refuses
        /// `prctl(PR_SET_SECCOMP)` as such a kernel does (EINVAL): the run says so once and goes on unsandboxed.
        @Test func withoutSeccompTheRunSaysSoOnceAndGoesOn() throws {
            let content = try TemporaryFolder(["a.html": page("A"), "b.html": page("B")])
            let result = try runCommand("/usr/bin/timeout", ["-s", "KILL", "30", "python3", "-c", Self.withoutSeccomp,
                supervisorPath, "run", "--content", content.path, "--loads", "4", "--views", "2", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr == "supervisor: warning: this kernel has no seccomp filters; workers run without their sandbox\n")
            #expect(result.stdout.contains(#""rendered":4"#))
        }

        /// Installs a filter that fails `prctl(PR_SET_SECCOMP, …)` with EINVAL and `seccomp()` with ENOSYS and allows
        /// everything else, then runs argv[1...]: every process below it sees a kernel without seccomp.
        static let withoutSeccomp = """
            import ctypes, os, struct, sys
            def op(code, k, jt=0, jf=0): return struct.pack("HBBI", code, jt, jf, k)
            LD, JEQ, RET = 0x20, 0x15, 0x06
            ERRNO, ALLOW = 0x00050000, 0x7fff0000
            prctl, seccomp = {"x86_64": (157, 317), "aarch64": (167, 277)}[os.uname().machine]
            program = b"".join([
                op(LD, 0), op(JEQ, prctl, 0, 3), op(LD, 16), op(JEQ, 22, 0, 3), op(RET, ERRNO | 22),
                op(JEQ, seccomp, 0, 1), op(RET, ERRNO | 38), op(RET, ALLOW)])
            buffer = ctypes.create_string_buffer(program)
            fprog = struct.pack("HxxxxxxQ", len(program) // 8, ctypes.addressof(buffer))
            libc = ctypes.CDLL(None, use_errno=True)
            assert libc.prctl(38, 1, 0, 0, 0) == 0
            assert libc.prctl(22, 2, ctypes.c_char_p(fprog), 0, 0) == 0, os.strerror(ctypes.get_errno())
            os.execv(sys.argv[1], sys.argv[1:])
            """
    }
}

@Suite struct SandboxClassification {
    @Test func sigsysInASandboxedWorkerIsAViolationAndElsewhereACrash() {
        let killed = ProcessExit.signal(Int(SIGSYS))
        #expect(TerminationStatus.classify(killed, saidHello: true, verdict: nil, sandboxed: true, forbidden: 41)
            == .sandboxViolation(syscall: 41))
        #expect(TerminationStatus.classify(killed, saidHello: true, verdict: nil, sandboxed: false, forbidden: nil)
            == .crashed(signal: SIGSYS))
        #expect(TerminationStatus.sandboxViolation(syscall: nil).isCrash)
        #expect(TerminationStatus.sandboxViolation(syscall: nil).reason
            == "the sandbox caught a system call the worker did not report")
    }
}
