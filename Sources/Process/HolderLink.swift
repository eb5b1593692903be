import CShim
import Glibc
import System
import Vocabulary

/// The supervisor's side of a holder (Workers/Holder, issue 34): the holder started with its lease, asked to spawn
/// workers, each answered with the worker's descriptors (`HeldWorker`); letting go of the link, as dying does, starts
/// the lease. `run --keep-workers` uses it; adoption by a restarted supervisor is still to come.
package final class HolderLink {
    /// A worker the holder spawned: its pid, and its pidfd, input (to write), output and standard error (to read)
    /// at `pidfd`, `input`, `output` and `errors` in `descriptors`, each closed unless taken.
    package struct HeldWorker {
        package let pid: Int32
        package let descriptors: ReceivedDescriptors
        /// What the supervisor before said it served (`label`); empty if it said nothing.
        package var label = ""
        package static let pidfd = 0, input = 1, output = 2, errors = 3
    }

    package let pid: Int32
    /// The holder while it is this process's child (it started it); nil for one an earlier supervisor started.
    private var holder: ChildProcess?
    /// The supervisor's end of the holder's socket; -1 once let go.
    private var socket: Int32

    /// Starts the holder at `path`, which keeps its workers `leaseMilliseconds` after this link is let go; with a
    /// `name`, it waits there for the next supervisor (`connect`) while the lease runs.
    package init(holder path: String, leaseMilliseconds: Int, name: String? = nil) throws(SystemError) {
        let pair = try Sys.messagePair()
        // Above the child's fd 3, so that mapping it there cannot clobber it.
        let holderEnd = try Sys.duplicate(pair.second.rawValue, above: 5)
        let arguments = ["--lease-ms", "\(leaseMilliseconds)"] + (name.map { ["--name", $0] } ?? [])
        let started = try Sys.spawn(
            SpawnProgram(path, arguments: arguments, environment: []), [.copy(holderEnd.rawValue, as: 3)], ownGroup: true)
        pid = started.pid
        holder = consume started
        socket = try retrying("fcntl(F_DUPFD_CLOEXEC)") { fcntl(pair.first.rawValue, F_DUPFD_CLOEXEC, 5) }
    }

    /// The holder an earlier supervisor started with `name`, if one of this user's still waits there; nil if none
    /// does.
    package static func connect(name: String) throws(SystemError) -> HolderLink? {
        var peer: pid_t = 0
        let fd = sv_connect_abstract(name, &peer)
        guard fd >= 0 else {
            if errno == ECONNREFUSED || errno == ENOENT { return nil }
            throw SystemError("connect to the holder '\(name)'", errno: errno)
        }
        return HolderLink(connected: fd, pid: peer)
    }

    private init(connected socket: Int32, pid: Int32) {
        self.socket = socket
        self.pid = pid
        holder = nil
    }

    /// The workers the holder holds, each with its descriptors, and this link's generation: 1 for the supervisor that
    /// started the holder, one more for each that came back to it.
    package func list() throws(SystemError) -> (generation: Int, workers: [HeldWorker]) {
        guard socket >= 0 else { throw SystemError("ask the holder", errno: EPIPE) }
        try Sys.send(Array(HolderWords.list.utf8), on: socket)
        var workers: [HeldWorker] = []
        while true {
            guard let answer = try Sys.receive(on: socket, capacity: 256) else {
                throw SystemError("list the held workers", errno: EPIPE)
            }
            let fields = String(decoding: answer.bytes, as: UTF8.self)
                .split(separator: "\0", omittingEmptySubsequences: false)
            if fields.count == 3, fields[0] == HolderWords.held, let pid = Int32(fields[1]),
                answer.descriptors.count == 4
            {
                workers.append(HeldWorker(pid: pid, descriptors: answer.descriptors, label: String(fields[2])))
                continue
            }
            guard fields.count == 3, fields[0] == HolderWords.listed, let generation = Int(fields[1]),
                Int(fields[2]) == workers.count
            else { throw SystemError("list the held workers", errno: EPROTO) }
            return (generation, workers)
        }
    }

    /// Asks the holder to spawn `path` with `arguments` and `environment`; the holder's errno if it could not.
    package func spawn(_ path: String, arguments: [String], environment: [String]) throws(SystemError) -> HeldWorker {
        let answer = try ask([HolderWords.spawn, path, "\(arguments.count)"] + arguments + environment)
        let fields = String(decoding: answer.bytes, as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: false)
        guard fields.count == 2, fields[0] == HolderWords.spawned, let pid = Int32(fields[1]), answer.descriptors.count == 4 else {
            let code = fields.count == 2 && fields[0] == HolderWords.failed ? Int32(fields[1]) ?? EPROTO : EPROTO
            throw SystemError("spawn through the holder (\(path))", errno: code)
        }
        return HeldWorker(pid: pid, descriptors: answer.descriptors)
    }

    /// Names what the worker `pid` serves, for the supervisor that may take it back: the holder keeps it, and does
    /// not answer. Only a hint: the worker's own answers decide where it is adopted.
    package func label(_ pid: Int32, _ text: String) throws(SystemError) {
        guard socket >= 0 else { throw SystemError("label a held worker", errno: EPIPE) }
        try Sys.send(Array([HolderWords.label, "\(pid)", text].joined(separator: "\0").utf8), on: socket)
    }

    /// Returns once the holder has reaped every child that ended before this call: their exits are then the
    /// kernel's to tell any pidfd (`Sys.reapedExit`).
    package func ping() throws(SystemError) {
        let answer = try ask([HolderWords.ping])
        guard answer.bytes == Array(HolderWords.pong.utf8) else { throw SystemError("ping the holder", errno: EPROTO) }
    }

    private func ask(_ fields: [String]) throws(SystemError) -> (bytes: [UInt8], descriptors: ReceivedDescriptors) {
        guard socket >= 0 else { throw SystemError("ask the holder", errno: EPIPE) }
        try Sys.send(Array(fields.joined(separator: "\0").utf8), on: socket)
        guard let answer = try Sys.receive(on: socket, capacity: 256) else { throw SystemError("ask the holder", errno: EPIPE) }
        return answer
    }

    /// Lets go of the holder, as this process's death would: its lease starts.
    package func letGo() {
        guard socket >= 0 else { return }
        Sys.close(socket)
        socket = -1
    }

    /// Waits for the holder's exit (after its lease, once let go).
    package func reap() throws(SystemError) -> ProcessExit {
        guard let holder = holder.take() else { throw SystemError("reap the holder", errno: ECHILD) }
        return try holder.reap()
    }

    deinit {
        letGo()
        if let holder = holder.take() {
            try? holder.signal(SIGKILL)
            _ = try? holder.reap()
        }
    }
}
