import CShim
import Glibc
import ProcFS

/// A failed system call: which call, and the errno it returned.
///
/// The supervisor's system calls go through `syscall` below, so EINTR is retried, EAGAIN told and a programmer's
/// error trapped in exactly one place, every error names its call, and tests can make any call fail there
/// (`SyscallFaults`).
public struct SystemError: Error, Equatable, CustomStringConvertible {
    public let call: String
    public let errno: Int32

    public init(_ call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call): \(String(cString: strerror(errno)))" }
}

/// What a call is, for a fault rule to name: `SUPERVISOR_SYSCALL_FAULTS="write:ENOSPC"` fails writes only.
package enum SyscallKind: String, Sendable {
    case read, write, open, pipe, fcntl, spawn, wait, signal, sync, path, stat, poll, other
}

/// The one way into the kernel. Runs `body`, a call that returns -1 and sets errno on failure, and:
/// - retries it while it fails with EINTR;
/// - returns nil when it fails with EAGAIN (would block), which is an answer, not an error;
/// - traps on EBADF and EFAULT, which only a bug in this program can cause (a descriptor closed twice, a bad
///   pointer), naming the call: going on would act on a descriptor that may by now be another file;
/// - throws any other errno as a `SystemError` named `call`, which is built only then.
/// When faults are armed, `fd` and `path` let a rule pick the calls it fails; disarmed, that costs one load and
/// one branch.
@inline(__always)
package func syscall<T: FixedWidthInteger>(
    _ kind: SyscallKind, _ call: @autoclosure () -> String, fd: Int32 = -1, path: String? = nil, _ body: () -> T
) throws(SystemError) -> T? {
    var injected: Int32 = 0
    if _slowPath(sv_syscall_faults_armed() != 0) { injected = SyscallFaults.injection(kind, fd: fd, path: path) }
    while true {
        let result: T
        if _slowPath(injected != 0) {
            Glibc.errno = injected
            injected = 0
            result = -1
        } else {
            result = body()
        }
        if result != -1 { return result }
        switch Glibc.errno {
        case EINTR: continue
        case EAGAIN: return nil
        case EBADF, EFAULT: programmerError(call(), errno: Glibc.errno)
        case let code: throw SystemError(call(), errno: code)
        }
    }
}

/// `syscall` for a call that cannot block (or waits until it can go on): EAGAIN is then an error like any other.
@inline(__always)
package func retrying<T: FixedWidthInteger>(
    _ call: @autoclosure () -> String, _ kind: SyscallKind = .other, fd: Int32 = -1, path: String? = nil,
    _ body: () -> T
) throws(SystemError) -> T {
    guard let result = try syscall(kind, call(), fd: fd, path: path, body) else {
        throw SystemError(call(), errno: EAGAIN)
    }
    return result
}

/// A call failed in a way only a bug can explain.
@inline(never)
package func programmerError(_ call: String, errno code: Int32) -> Never {
    preconditionFailure("\(call): \(String(cString: strerror(code))) (a bug: the descriptor or pointer was invalid)")
}

public enum Sys {
    // MARK: - Descriptors

    /// A close-on-exec pipe, whose two ends the caller owns. The corresponding C function is `pipe2`.
    package static func pipe() throws(SystemError) -> Pipe {
        var fds: [Int32] = [-1, -1]
        _ = try retrying("pipe2", .pipe) { sv_pipe_cloexec(&fds) }
        return Pipe(read: FileDescriptor(fds[0]), write: FileDescriptor(fds[1]))
    }

    /// A file in memory that no path names, holding `bytes`, its offset back at 0: for a program that rereads its input
    /// from the start (gzip), fed bytes that are not in a file of their own.
    package static func memoryFile(named name: String, holding bytes: [UInt8]) throws(SystemError) -> FileDescriptor {
        let fd = FileDescriptor(try retrying("memfd_create") { sv_memfd(name) })
        try write(bytes[...], to: fd.rawValue, at: 0)
        try seek(fd.rawValue, to: 0)
        return fd
    }

    /// `fd` at the lowest free number at or above `minimum`: itself if it is there already, else a copy there, the
    /// original closed.
    package static func raise(_ fd: consuming FileDescriptor, above minimum: Int32) throws(SystemError) -> FileDescriptor {
        guard fd.rawValue < minimum else { return fd }
        return try duplicate(fd.rawValue, above: minimum)
    }

    package static func setNonBlocking(_ fd: Int32) throws(SystemError) {
        try addStatusFlag(O_NONBLOCK, to: fd)
    }

    /// Makes every write to `fd` land at the file's end (O_APPEND), whatever offset it names.
    package static func setAppending(_ fd: Int32) throws(SystemError) {
        try addStatusFlag(O_APPEND, to: fd)
    }

    private static func addStatusFlag(_ flag: Int32, to fd: Int32) throws(SystemError) {
        let flags = try retrying("fcntl(F_GETFL)", .fcntl, fd: fd) { fcntl(fd, F_GETFL) }
        _ = try retrying("fcntl(F_SETFL)", .fcntl, fd: fd) { fcntl(fd, F_SETFL, flags | flag) }
    }

    /// Opens `path` close-on-exec; files it creates get `mode` (less the umask).
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(SystemError) -> FileDescriptor {
        FileDescriptor(try retrying("open(\(path))", .open, path: path) { Glibc.open(path, flags | O_CLOEXEC, mode) })
    }

    /// Closes `fd`. EINTR is not retried: on Linux the descriptor is gone either way. EBADF (closed twice) traps.
    package static func close(_ fd: Int32) {
        if Glibc.close(fd) != 0, Glibc.errno == EBADF { programmerError("close(\(fd))", errno: EBADF) }
    }

    /// Reads what is available; 0 means end of file, nil means it would block.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int? {
        try syscall(.read, "read", fd: fd) { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Writes what fits; nil means the pipe is full.
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int? {
        try syscall(.write, "write", fd: fd) { Glibc.write(fd, bytes.baseAddress, bytes.count) }
    }

    /// Waits until `fd` is ready for `events` (POLLIN, POLLOUT): what a blocking call does when a descriptor it
    /// was given turns out to be non-blocking (a terminal or pipe shared with another program) and says EAGAIN.
    package static func waitUntilReady(_ fd: Int32, for events: Int32) throws(SystemError) {
        var ready = pollfd(fd: fd, events: Int16(events), revents: 0)
        _ = try retrying("poll", .poll, fd: fd) { poll(&ready, 1, -1) }
    }

    /// Writes every byte to a blocking descriptor (files, the terminal).
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            guard let n = try write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...])) else {
                try waitUntilReady(fd, for: POLLOUT)
                continue
            }
            offset += n
        }
    }

    /// Reads into `buffer` from `offset` to its end, blocking until something arrives; 0 means end of file.
    package static func read(_ fd: Int32, into buffer: inout [UInt8], from offset: Int) throws(SystemError) -> Int {
        precondition(offset < buffer.count)
        while true {
            let count = try buffer.withUnsafeMutableBytes { raw in
                Result { () throws(SystemError) in try read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[offset...])) }
            }.get()
            if let count { return count }
            try waitUntilReady(fd, for: POLLIN)
        }
    }

    /// Reads a file from its current offset to its end, or to just past `limit` bytes, whichever comes first.
    package static func readAll(_ fd: Int32, limit: Int = .max) throws(SystemError) -> [UInt8] {
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
        try text.withUTF8 { bytes in Result { () throws(SystemError) in try writeAll(fd, UnsafeRawBufferPointer(bytes)) } }.get()
    }

    /// Writes all of `bytes` to a blocking descriptor.
    package static func write(_ bytes: [UInt8], to fd: Int32) throws(SystemError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(SystemError) in try writeAll(fd, raw) } }.get()
    }

    /// Cuts the file open on `fd` to `length` bytes. The corresponding C function is `ftruncate`.
    package static func truncate(_ fd: Int32, to length: Int) throws(SystemError) {
        _ = try retrying("ftruncate", .write, fd: fd) { ftruncate(fd, off_t(length)) }
    }

    /// Waits until the file's data written so far is on the disk. The corresponding C function is `fdatasync`.
    package static func dataSync(_ fd: Int32) throws(SystemError) {
        _ = try retrying("fdatasync", .sync, fd: fd) { fdatasync(fd) }
    }

    /// Moves `fd`'s offset to `offset` from the start. The corresponding C function is `lseek`.
    package static func seek(_ fd: Int32, to offset: Int) throws(SystemError) {
        _ = try retrying("lseek", .other, fd: fd) { lseek(fd, off_t(offset), SEEK_SET) }
    }

    /// `fd`'s offset: for a file another process reads through the same open file, how far it has read.
    package static func offset(_ fd: Int32) -> Int? {
        (try? retrying("lseek", .other, fd: fd) { lseek(fd, 0, SEEK_CUR) }).map { Int($0) }
    }

    /// The names in a directory, `.` and `..` left out. The corresponding C functions are `opendir` and `readdir`.
    public static func directoryEntries(_ path: String) throws(SystemError) -> [String] {
        var directory: OpaquePointer?
        _ = try retrying("opendir(\(path))", .open, path: path) { () -> Int32 in
            directory = opendir(path)
            return directory == nil ? -1 : 0
        }
        defer { closedir(directory!) }
        var names: [String] = []
        while let entry = readdir(directory!) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// This process's peak resident set since it was exec'd: `VmHWM` in /proc/self/status. (`ru_maxrss` would not
    /// do: at exec the kernel folds in the peak of the image it replaced, which for a posix_spawn child is its
    /// parent's.)
    public static func peakResidentBytes() -> Int? {
        ProcFS.status(.current)?.kilobytes("VmHWM").map { $0 * 1024 }
    }

    package static func ignoreSignal(_ signal: Int32) {
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

    package static func wallNanoseconds() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return ts.tv_sec * 1_000_000_000 + ts.tv_nsec
    }
}
