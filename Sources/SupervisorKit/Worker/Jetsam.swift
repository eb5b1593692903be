import CShim
import Glibc

/// How to run the Jetsam memory-pressure killer beside a run.
public struct JetsamSettings: Sendable {
    public var executable: String
    public var budgetMegabytes = 256
    public var intervalMilliseconds = 2.0
    /// Kill the lowest-priority background worker every interval, whatever the total RSS.
    public var critical = false
    /// Where Jetsam writes its JSON lines, one per kill.
    public var logPath: String?

    public init(executable: String) { self.executable = executable }
}

/// The running Jetsam process. It is the OS in this model: the supervisor starts and stops it, and never hears
/// from it; its kills arrive like any other death, through the workers' pidfds.
final class JetsamProcess {
    private let pid: pid_t
    private let pidfd: Int32

    init(_ settings: JetsamSettings) throws(SystemError) {
        let null = try Sys.open("/dev/null", O_RDWR)
        defer { Sys.close(null) }
        var arguments = [
            settings.executable, "--supervisor", "\(getpid())", "--budget-mb", "\(settings.budgetMegabytes)",
            "--interval-ms", "\(settings.intervalMilliseconds)", "--pressure", settings.critical ? "critical" : "normal",
        ]
        if let log = settings.logPath { arguments += ["--log", log] }
        var argv = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = [strdup(WorkerLauncher.environment), nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        var pidfd: Int32 = -1
        let rc = sv_spawn(settings.executable, &argv, &envp, null, null, null, &pid, &pidfd)
        guard rc == 0 else { throw SystemError("posix_spawn(\(settings.executable))", errno: rc) }
        self.pid = pid
        self.pidfd = pidfd
    }

    /// Kills and reaps it; SIGKILL makes the wait short and certain.
    func stop() {
        _ = sv_pidfd_send_signal(pidfd, SIGKILL)
        var ready = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
        _ = poll(&ready, 1, 5000)
        _ = try? Sys.reap(pidfd, wait: true)
        Sys.close(pidfd)
    }
}
