import CShim
import Glibc
import Vocabulary

/// Holder: keeps a run's workers alive across the supervisor's death, for a lease, and never longer (issue 34).
///
/// It is the workers' parent (and a subreaper, so nothing they start escapes it): the supervisor asks it to spawn
/// each worker, over a SOCK_SEQPACKET socket on fd 3, and gets back the worker's pidfd and channel ends (SCM_RIGHTS)
/// while the holder keeps its own copies, so a worker's channel stays open when the supervisor dies. When the socket
/// ends (the supervisor died or let go), the lease runs; when it runs out, every worker still held is SIGKILLed
/// through its pidfd and reaped, and the holder exits; with nothing held, it exits at once. The workers die with the
/// holder (their parent-death signal), so nothing is ever orphaned.
///
/// With `--name`, it listens on that abstract socket address for the next supervisor of the same session: a process
/// of the same user only (SO_PEERCRED), and one at a time: one that connects while another is attached waits for it
/// to hang up, and a third is refused. A supervisor that connects ends the lease and takes the workers back (`list`);
/// it is the holder's next generation.
///
///   Holder --lease-ms N [--name NAME]
///
/// A request is one message of NUL-separated fields: `spawn`, the program's path, the number of arguments, the
/// arguments, then the environment's entries. The answer is `spawned` and the pid, with the pidfd, the worker's
/// input (to write), its output and its standard error (to read) passed; or `failed` and an errno. `ping` is
/// answered `pong` once every child that ended before it has been reaped, so that the kernel has their exit for any
/// pidfd (PIDFD_INFO_EXIT). `label`, a pid and a text names what that worker serves, and is not answered. `list` is
/// answered with a `held` message, the pid and the label per worker, its four descriptors passed as a spawn's are,
/// then `listed`, the generation (the first supervisor's is 1) and the count.

func fail(_ message: String) -> Never {
    _ = message.withCString { write(2, $0, strlen($0)) }
    _ = write(2, "\n", 1)
    exit(64)
}

let usage = "usage: Holder --lease-ms N (1 to 600000) [--name NAME]"
var arguments = CommandLine.arguments.dropFirst()
var leaseNanoseconds = 0
var listener: Int32?
while let name = arguments.popFirst() {
    guard let value = arguments.popFirst() else { fail(usage) }
    switch name {
    case "--lease-ms":
        guard let ms = Int(value), (1...600_000).contains(ms) else { fail(usage) }
        leaseNanoseconds = ms * 1_000_000
    case "--name":
        let fd = sv_listen_abstract(value)
        guard fd >= 0 else { fail("Holder: cannot listen on '\(value)': \(String(cString: strerror(errno)))") }
        listener = fd
    default: fail(usage)
    }
}
guard leaseNanoseconds > 0 else { fail(usage) }

/// The supervisor's socket; nil while none is attached.
var supervisor: Int32? = 3
/// How many supervisors have been attached: the generation of the one attached now.
var generation = 1
_ = sv_set_child_subreaper()
var blocked = sigset_t()
sigemptyset(&blocked)
sigaddset(&blocked, SIGCHLD)
sigprocmask(SIG_BLOCK, &blocked, nil)
let childEnded = signalfd(-1, &blocked, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
let null = open("/dev/null", O_RDWR | O_CLOEXEC)
guard childEnded >= 0, null >= 0 else { fail("Holder: cannot set up: errno \(errno)") }

/// A worker held: its pid, its pidfd, and the holder's copies of its channel and error ends.
struct Held {
    let pid: Int32
    let pidfd: Int32
    let ends: [Int32]
    /// What the supervisor said it serves (`label`), handed back with it.
    var label = ""
}
var held: [Int32: Held] = [:]

func monotonic() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now.tv_sec * 1_000_000_000 + now.tv_nsec
}

/// Reaps every child that ended, closing what was held of it; then kills every live child it does not hold. The
/// holder is a subreaper, so what a held worker started (a `--worker` script's children, in its group or escaped
/// from it with `setsid`) is re-parented here when that worker dies, and dies now, as the supervisor's orphans do
/// (`Orphans` in System). Each of them is still the holder's child until it is reaped, so its pid names no one else.
@MainActor func reap() {
    while true {
        let pid = sv_next_exited_child()
        guard pid > 0 else { break }
        if let gone = held.removeValue(forKey: pid) { ([gone.pidfd] + gone.ends).forEach { _ = close($0) } }
        _ = waitpid(pid, nil, 0)
    }
    for pid in children() where held[pid] == nil { kill(pid, SIGKILL) }
}

/// The holder's children, from /proc/self/task/PID/children (it has one thread).
func children() -> [Int32] {
    let fd = open("/proc/self/task/\(getpid())/children", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return [] }
    defer { close(fd) }
    var text: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while case let count = read(fd, &chunk, chunk.count), count > 0 { text += chunk[..<count] }
    return text.split(separator: UInt8(ascii: " ")).compactMap { Int32(String(decoding: $0, as: UTF8.self)) }
}

/// An end of a pipe above 4, where mapping the child's 0 to 4 cannot clobber it.
func aboveChannel(_ fd: Int32) -> Int32 {
    guard fd <= 4 else { return fd }
    let raised = fcntl(fd, F_DUPFD_CLOEXEC, 5)
    close(fd)
    return raised
}

/// Spawns the worker a request names and answers with its descriptors, keeping copies.
@MainActor func spawn(_ fields: [String]) {
    guard fields.count >= 3, let count = Int(fields[2]), count >= 0, fields.count >= 3 + count else {
        return answer(HolderWords.failed + "\0\(EINVAL)")
    }
    var pipes: [Int32] = []
    for _ in 0..<3 {
        var ends: [Int32] = [-1, -1]
        guard sv_pipe_cloexec(&ends) == 0 else {
            pipes.forEach { _ = close($0) }
            return answer(HolderWords.failed + "\0\(errno)")
        }
        pipes += ends
    }
    // To the worker, from it, its errors: the child's ends raised above its channel's numbers.
    let (childIn, parentOut, parentIn, childOut, errorsIn, childErrors) =
        (aboveChannel(pipes[0]), pipes[1], pipes[2], aboveChannel(pipes[3]), pipes[4], aboveChannel(pipes[5]))
    let table = [
        sv_child_fd(target: 0, source: null, path: nil, flags: 0, mode: 0), sv_child_fd(target: 1, source: null, path: nil, flags: 0, mode: 0),
        sv_child_fd(target: 2, source: childErrors, path: nil, flags: 0, mode: 0),
        sv_child_fd(target: SV_CHANNEL_IN_FD, source: childIn, path: nil, flags: 0, mode: 0),
        sv_child_fd(target: SV_CHANNEL_OUT_FD, source: childOut, path: nil, flags: 0, mode: 0),
    ]
    let argv = ([fields[1]] + fields[3..<(3 + count)]).map { strdup($0) } + [nil]
    let envp = fields[(3 + count)...].map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    var pidfd: Int32 = -1
    let rc = sv_spawn(fields[1], argv, envp, table, Int32(table.count), 1, &pid, &pidfd)
    [childIn, childOut, childErrors].forEach { _ = close($0) }
    guard rc == 0 else {
        [parentOut, parentIn, errorsIn].forEach { _ = close($0) }
        return answer(HolderWords.failed + "\0\(rc)")
    }
    held[pid] = Held(pid: pid, pidfd: pidfd, ends: [parentOut, parentIn, errorsIn])
    answer(HolderWords.spawned + "\0\(pid)", [pidfd, parentOut, parentIn, errorsIn])
}

/// Sends `words` and `fds` to the supervisor attached.
@MainActor func answer(_ words: String, _ fds: [Int32] = []) {
    guard let supervisor else { return }
    let bytes = Array(words.utf8)
    _ = bytes.withUnsafeBytes { raw in
        fds.withUnsafeBufferPointer {
            sv_send_with_fds(supervisor, raw.baseAddress, raw.count, $0.baseAddress, Int32($0.count))
        }
    }
}

/// Hands every worker held to the supervisor attached: its own copies of each one's descriptors.
@MainActor func list() {
    for worker in held.values.sorted(by: { $0.pid < $1.pid }) {
        answer(HolderWords.held + "\0\(worker.pid)\0" + worker.label, [worker.pidfd] + worker.ends)
    }
    answer(HolderWords.listed + "\0\(generation)\0\(held.count)")
}

var leaseEnds: Int?
/// The next supervisor, connected while the one before was still attached: it takes over when that one hangs up.
var next: Int32?
var buffer = [UInt8](repeating: 0, count: 64 << 10)

/// Serves one request of the supervisor attached; false once it has hung up.
@MainActor func serve(_ supervisorFD: Int32) -> Bool {
    var fds = [Int32](repeating: -1, count: Int(SV_MAX_PASSED_FDS))
    var passed: Int32 = 0
    var truncated: Int32 = 0
    let received = buffer.withUnsafeMutableBytes { raw in
        fds.withUnsafeMutableBufferPointer { sv_receive_with_fds(supervisorFD, raw.baseAddress, raw.count, $0.baseAddress, &passed, &truncated) }
    }
    // Nothing is taken from the supervisor: anything it passed is closed.
    fds.prefix(Int(passed)).forEach { _ = close($0) }
    if received < 0, errno == EINTR || errno == EAGAIN { return true }
    guard received > 0 else { return false }
    let fields = buffer[..<received].split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    if fields.first == HolderWords.spawn, truncated == 0 { spawn(fields) }
    if fields.first == HolderWords.ping {
        // Every child whose end was signalled before the ping came is reaped before the answer.
        reap()
        answer(HolderWords.pong)
    }
    if fields.first == HolderWords.list { list() }
    if fields.first == HolderWords.label, fields.count == 3, let pid = Int32(fields[1]) { held[pid]?.label = fields[2] }
    return true
}

while true {
    if let ends = leaseEnds, monotonic() >= ends { break }
    var ready = [pollfd(fd: childEnded, events: Int16(POLLIN), revents: 0)]
    if let supervisor { ready.append(pollfd(fd: supervisor, events: Int16(POLLIN), revents: 0)) }
    if let listener { ready.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)) }
    let timeout = leaseEnds.map { Int32(max(0, ($0 - monotonic() + 999_999) / 1_000_000)) } ?? -1
    guard poll(&ready, nfds_t(ready.count), timeout) >= 0 || errno == EINTR else { break }
    if ready[0].revents != 0 {
        var info = signalfd_siginfo()
        while withUnsafeMutableBytes(of: &info, { read(childEnded, $0.baseAddress, $0.count) }) > 0 {}
        reap()
        // The lease keeps workers; once none is left, there is nothing to keep.
        if supervisor == nil && held.isEmpty { break }
    }
    if let supervisorFD = supervisor, ready.contains(where: { $0.fd == supervisorFD && $0.revents != 0 }),
        !serve(supervisorFD)
    {
        // The supervisor is gone, or let go: the next one takes over, or the lease runs from now, or, with nothing
        // held, is over.
        close(supervisorFD)
        supervisor = next
        next = nil
        if supervisor != nil {
            generation += 1
        } else if held.isEmpty {
            break
        } else {
            leaseEnds = monotonic() + leaseNanoseconds
        }
    }
    if let listener, ready.contains(where: { $0.fd == listener && $0.revents != 0 }) {
        let connected = sv_accept_same_user(listener)
        if connected >= 0, supervisor == nil {
            // The next supervisor of the session: the lease ends, and the workers are its to take back.
            supervisor = connected
            generation += 1
            leaseEnds = nil
        } else if connected >= 0, next == nil {
            // The one attached may be dead with its hang-up not read yet (a supervisor restarted at once): this one
            // waits for it.
            next = connected
        } else if connected >= 0 {
            close(connected)
        }
    }
}
// The lease ran out: every worker still held dies, and is reaped, before the holder goes.
for worker in held.values { _ = sv_pidfd_send_signal(worker.pidfd, SIGKILL) }
for worker in held.values { _ = waitpid(worker.pid, nil, 0) }
held = [:]
// What the last of them left, re-parented here as they died.
while !children().isEmpty {
    reap()
    _ = waitpid(-1, nil, 0)
}
exit(0)
