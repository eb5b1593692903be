import CShim
import Glibc
import ProcFS
import Vocabulary

/// The Linux-only process calls, in one place: pidfds (pidfd_open, pidfd_send_signal, waitid(P_PIDFD), Linux 5.1
/// to 5.4), spawning with a pidfd, process groups, and the priority knobs (nice, oom_score_adj).
extension Sys {
    package static func pidfdSignal(_ pidfd: Int32, _ signal: Int32) throws(SystemError) {
        _ = try retrying("pidfd_send_signal", .signal, fd: pidfd) { sv_pidfd_send_signal(pidfd, signal) }
    }

    /// Whether the child behind `pidfd` has exited, without reaping it (so its pid, and the id of the process
    /// group it leads, stay its own); with `wait`, waits for that. The corresponding C function is `waitid`, with
    /// WNOWAIT.
    package static func hasExited(_ pidfd: Int32, wait: Bool) throws(SystemError) -> Bool {
        try retrying("waitid(P_PIDFD, WNOWAIT)", .wait, fd: pidfd) { sv_pidfd_exited(pidfd, wait ? 1 : 0) } == 1
    }

    /// Reaps the exited child behind `pidfd`, and says how it ended; nil if it is still running, unless `wait` makes
    /// it wait for the exit. The corresponding C function is `waitid`.
    package static func reap(_ pidfd: Int32, wait: Bool = false) throws(SystemError) -> ProcessExit? {
        var code: Int32 = 0
        var status: Int32 = 0
        _ = try retrying("waitid(P_PIDFD)", .wait, fd: pidfd) { sv_waitid_pidfd(pidfd, &code, &status, wait ? 1 : 0) }
        guard code != 0 else { return nil }
        // CLD_EXITED with the exit code; CLD_KILLED or CLD_DUMPED with the signal.
        return code == sv_cld_exited() ? .code(Int(status)) : .signal(Int(status))
    }

    /// How the process `pidfd` names ended, read by a holder of the pidfd that is not its parent once its parent has
    /// reaped it (PIDFD_GET_INFO with PIDFD_INFO_EXIT, Linux 6.15); nil until then.
    package static func reapedExit(_ pidfd: Int32) throws(SystemError) -> ProcessExit? {
        var status: Int32 = 0
        guard try retrying("ioctl(PIDFD_GET_INFO)", fd: pidfd, { sv_pidfd_exit_status(pidfd, &status) }) == 1 else { return nil }
        // A wait status: the signal in the low 7 bits, else the exit code in the next 8.
        return status & 0x7F == 0 ? .code(Int((status >> 8) & 0xFF)) : .signal(Int(status & 0x7F))
    }

    /// Sends `signal` to the process group `group`; false when the group is empty. The corresponding C function is
    /// `kill`, with a negative pid.
    @discardableResult
    package static func signalGroup(_ group: Int32, _ signal: Int32) -> Bool {
        sv_kill_group(group, signal) == 0
    }

    package static func setPriority(_ pid: Int32, nice: Int32) throws(SystemError) {
        _ = try retrying("setpriority", .other) { sv_setpriority(pid, nice) }
    }

    /// Writes `/proc/PID/oom_score_adj`. A vanished process shows up as ENOENT on open or ESRCH on write; both
    /// are reported as ESRCH, which is what they mean.
    package static func setOOMScoreAdjust(_ pid: Int32, _ value: Int32) throws(SystemError) {
        let file: FileDescriptor
        do throws(SystemError) {
            file = try open("/proc/\(pid)/oom_score_adj", O_WRONLY)
        } catch let error where error.errno == ENOENT {
            throw SystemError("open(/proc/\(pid)/oom_score_adj)", errno: ESRCH)
        }
        let fd = file.rawValue
        let text = Array("\(value)\n".utf8)
        _ = try retrying("write(/proc/\(pid)/oom_score_adj)", .write, fd: fd) { Glibc.write(fd, text, text.count) }
    }

    /// The current oom_score_adj of `pid`, as jetsam would read it.
    package static func oomScoreAdjust(_ pid: Int32) throws(SystemError) -> Int32 {
        guard let value = ProcFS.oomScoreAdjust(pid) else { throw SystemError("read(/proc/\(pid)/oom_score_adj)", errno: ESRCH) }
        return Int32(value)
    }

    /// CPU time `pid` has used, user and system, in nanoseconds (to the clock tick): /proc/PID/stat.
    package static func cpuNanoseconds(_ pid: Int32) throws(SystemError) -> Int {
        guard let stat = ProcFS.stat(.pid(pid)) else { throw SystemError("read(/proc/\(pid)/stat)", errno: ESRCH) }
        return Int(stat.cpuTicks) * (1_000_000_000 / clockTicksPerSecond)
    }

    private static let clockTicksPerSecond = sysconf(Int32(_SC_CLK_TCK))

    /// Resident pages of `pid`: the second field of /proc/PID/statm.
    package static func residentPages(_ pid: Int32) throws(SystemError) -> Int {
        guard let pages = ProcFS.residentPages(.pid(pid)) else { throw SystemError("read(/proc/\(pid)/statm)", errno: ESRCH) }
        return pages
    }

    /// Where `name` is found on `PATH` (or the usual system directories without one): an executable regular file.
    package static func executable(named name: String) -> String? {
        let search = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for directory in search.split(separator: ":") where !directory.isEmpty {
            let path = directory.hasSuffix("/") ? "\(directory)\(name)" : "\(directory)/\(name)"
            if access(path, X_OK) == 0, (try? status(ofPath: path, following: true))??.isRegular == true { return path }
        }
        return nil
    }
}

extension Sys {
    /// The running kernel's release, as `uname -r` prints it. The corresponding C function is `uname`.
    package static func kernelRelease() -> String {
        var names = utsname()
        guard uname(&names) == 0 else { return "unknown" }
        return withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
