import CShim
import Glibc

/// A failed system call: which call, and the errno it returned.
///
/// Every syscall in SupervisorKit goes through this file, so EINTR is retried in exactly one place and every error
/// names its call.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    public let call: String
    public let errno: Int32

    public init(_ call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call): \(String(cString: strerror(errno)))" }
}

/// Runs `body` until it stops failing with EINTR; a -1 becomes a `SystemError` named after `call`.
@inline(never)
func retrying<T: FixedWidthInteger>(_ call: String, _ body: () -> T) throws(SystemError) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = Glibc.errno
        if code != EINTR { throw SystemError(call, errno: code) }
    }
}

public enum Sys {
    // MARK: - Descriptors

    /// A close-on-exec pipe. The corresponding C function is `pipe2`.
    static func pipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        _ = try retrying("pipe2") { sv_pipe_cloexec(&fds) }
        return (fds[0], fds[1])
    }

    /// Moves `fd` to the lowest free number at or above `minimum`, closing the original.
    static func raise(_ fd: Int32, above minimum: Int32) throws(SystemError) -> Int32 {
        guard fd < minimum else { return fd }
        let moved = try retrying("fcntl(F_DUPFD_CLOEXEC)") { fcntl(fd, F_DUPFD_CLOEXEC, minimum) }
        close(fd)
        return moved
    }

    static func setNonBlocking(_ fd: Int32) throws(SystemError) {
        let flags = try retrying("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
        _ = try retrying("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Opens `path` close-on-exec; files it creates get `mode` (less the umask).
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(SystemError) -> Int32 {
        try retrying("open(\(path))") { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    /// Closes `fd`. EINTR is not retried: on Linux the descriptor is gone either way.
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Reads what is available; 0 means end of file, nil means it would block.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int? {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            switch Glibc.errno {
            case EINTR: continue
            case EAGAIN: return nil
            case let code: throw SystemError("read", errno: code)
            }
        }
    }

    /// Writes what fits; nil means the pipe is full.
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int? {
        while true {
            let n = Glibc.write(fd, bytes.baseAddress, bytes.count)
            if n >= 0 { return n }
            switch Glibc.errno {
            case EINTR: continue
            case EAGAIN: return nil
            case let code: throw SystemError("write", errno: code)
            }
        }
    }

    /// Writes every byte to a blocking descriptor (files, the terminal).
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let n = try retrying("write") { Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset) }
            offset += n
        }
    }

    /// Reads into `buffer` from `offset` to its end, blocking until something arrives; 0 means end of file.
    static func read(_ fd: Int32, into buffer: inout [UInt8], from offset: Int) throws(SystemError) -> Int {
        precondition(offset < buffer.count)
        let result = buffer.withUnsafeMutableBytes { raw in
            while true {
                let n = Glibc.read(fd, raw.baseAddress! + offset, raw.count - offset)
                if n >= 0 || Glibc.errno != EINTR { return n >= 0 ? n : -Int(Glibc.errno) }
            }
        }
        if result < 0 { throw SystemError("read", errno: Int32(-result)) }
        return result
    }

    /// Reads a file from its current offset to its end, or to just past `limit` bytes, whichever comes first.
    static func readAll(_ fd: Int32, limit: Int = .max) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= limit {
            let n = try read(fd, into: &chunk, from: 0)
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }

    /// Writes all of `text` to a blocking descriptor: a closed pipe or a full disk is an error, not a loss.
    public static func write(_ text: String, to fd: Int32) throws(SystemError) {
        var text = text
        var failure: SystemError?
        text.withUTF8 { bytes in
            do throws(SystemError) { try writeAll(fd, UnsafeRawBufferPointer(bytes)) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes all of `bytes` to a blocking descriptor.
    static func write(_ bytes: [UInt8], to fd: Int32) throws(SystemError) {
        var failure: SystemError?
        bytes.withUnsafeBytes { raw in
            do throws(SystemError) { try writeAll(fd, raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Cuts the file open on `fd` to `length` bytes. The corresponding C function is `ftruncate`.
    static func truncate(_ fd: Int32, to length: Int) throws(SystemError) {
        _ = try retrying("ftruncate") { ftruncate(fd, off_t(length)) }
    }

    /// Waits until the file's data written so far is on the disk. The corresponding C function is `fdatasync`.
    static func dataSync(_ fd: Int32) throws(SystemError) {
        _ = try retrying("fdatasync") { fdatasync(fd) }
    }

    /// The names in a directory, `.` and `..` left out. The corresponding C functions are `opendir` and `readdir`.
    public static func directoryEntries(_ path: String) throws(SystemError) -> [String] {
        guard let directory = opendir(path) else { throw SystemError("opendir(\(path))", errno: Glibc.errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    // MARK: - Processes

    static func pidfdSignal(_ pidfd: Int32, _ signal: Int32) throws(SystemError) {
        _ = try retrying("pidfd_send_signal") { sv_pidfd_send_signal(pidfd, signal) }
    }

    /// Reaps the exited child behind `pidfd`; nil if it is still running, unless `wait` makes it wait for the exit.
    /// The corresponding C function is `waitid`.
    static func reap(_ pidfd: Int32, wait: Bool = false) throws(SystemError) -> (code: Int32, status: Int32)? {
        var code: Int32 = 0
        var status: Int32 = 0
        _ = try retrying("waitid(P_PIDFD)") { sv_waitid_pidfd(pidfd, &code, &status, wait ? 1 : 0) }
        return code == 0 ? nil : (code, status)
    }

    static func setPriority(_ pid: Int32, nice: Int32) throws(SystemError) {
        _ = try retrying("setpriority") { sv_setpriority(pid, nice) }
    }

    /// Writes `/proc/PID/oom_score_adj`. A vanished process shows up as ENOENT on open or ESRCH on write; both
    /// are reported as ESRCH, which is what they mean.
    static func setOOMScoreAdjust(_ pid: Int32, _ value: Int32) throws(SystemError) {
        let fd: Int32
        do throws(SystemError) {
            fd = try open("/proc/\(pid)/oom_score_adj", O_WRONLY)
        } catch let error where error.errno == ENOENT {
            throw SystemError("open(/proc/\(pid)/oom_score_adj)", errno: ESRCH)
        }
        defer { close(fd) }
        let text = Array("\(value)\n".utf8)
        _ = try retrying("write(/proc/\(pid)/oom_score_adj)") { Glibc.write(fd, text, text.count) }
    }

    /// The current oom_score_adj of `pid`, as jetsam would read it.
    static func oomScoreAdjust(_ pid: Int32) throws(SystemError) -> Int32 {
        Int32(try readProcField(pid, "oom_score_adj", field: 0))
    }

    /// Resident pages of `pid`: the second field of /proc/PID/statm.
    static func residentPages(_ pid: Int32) throws(SystemError) -> Int {
        try readProcField(pid, "statm", field: 1)
    }

    /// The numeric field at `field` (space separated) of a small file under /proc/PID.
    private static func readProcField(_ pid: Int32, _ name: String, field: Int) throws(SystemError) -> Int {
        let fd = try open("/proc/\(pid)/\(name)", O_RDONLY)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = try retrying("read(/proc/\(pid)/\(name))") { Glibc.read(fd, &buffer, buffer.count) }
        let fields = buffer[0..<count].split { $0 == 32 || $0 == 10 }
        guard field < fields.count, let value = Int(String(decoding: fields[field], as: UTF8.self)) else {
            throw SystemError("parse(/proc/\(pid)/\(name))", errno: EINVAL)
        }
        return value
    }

    /// Runs `path` with `arguments` to its end, stdout to `output`, and returns its wait status. The corresponding
    /// C functions are `posix_spawn` and `waitpid`.
    public static func run(_ path: String, _ arguments: [String], environment: [String] = [], output: String)
        throws(SystemError) -> Int32
    {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        let status = sv_run_to_file(path, argv, envp, output)
        if status < 0 { throw SystemError("posix_spawn(\(path))", errno: -status) }
        return status
    }

    /// This process's peak resident set since it was exec'd: `VmHWM` in /proc/self/status. (`ru_maxrss` would not
    /// do: at exec the kernel folds in the peak of the image it replaced, which for a posix_spawn child is its
    /// parent's.)
    public static func peakResidentBytes() -> Int? {
        guard let fd = try? open("/proc/self/status", O_RDONLY) else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        guard let count = try? read(fd, into: &buffer, from: 0), count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.dropFirst(6).filter(\.isNumber))
        else { return nil }
        return kilobytes * 1024
    }

    static func ignoreSignal(_ signal: Int32) {
        _ = sv_ignore_signal(signal)
    }

    /// Bytes the heap holds for live allocations: what a data structure really costs, freed memory excluded.
    public static func heapInUse() -> Int {
        Int(sv_heap_in_use())
    }

    // MARK: - Clocks

    /// Nanoseconds on CLOCK_MONOTONIC: the clock every latency in the event log is measured on.
    public static func monotonicNanoseconds() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return ts.tv_sec * 1_000_000_000 + ts.tv_nsec
    }

    static func wallNanoseconds() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return ts.tv_sec * 1_000_000_000 + ts.tv_nsec
    }
}
