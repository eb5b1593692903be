import Glibc
import Testing
import Vocabulary
import WireProtocol

@testable import Process
@testable import System

/// Drives one real WebContent worker by hand over its channel, the way the supervisor would, one message at a time.
final class WorkerDriver {
    let worker: WorkerProcess
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    /// The launcher, kept as long as its worker.
    private let launcher: any Launcher

    /// A worker started by this process, told `parent` is its parent; or by `holder`, whose child it is then.
    init(parent: pid_t = getpid(), holder: HolderLink? = nil) throws {
        ProcessGateTrait.expectAlone("WorkerDriver")
        Sys.ignoreSignal(SIGPIPE)
        if let holder {
            let held = HeldLauncher(executable: workerPath, holder: holder, loop: try EventLoop(), sandboxed: true)
            (launcher, worker) = (held, try held.launchProcess())
        } else {
            let own = try WorkerLauncher(executable: workerPath, loop: EventLoop(), parent: parent, sandboxed: true)
            (launcher, worker) = (own, try own.launchProcess())
        }
    }

    deinit {
        guard !worker.reaped else { return }
        worker.signal(SIGKILL, by: .supervisor)
        var ready = pollfd(fd: worker.pidfd, events: Int16(POLLIN), revents: 0)
        _ = poll(&ready, 1, 5000)
        _ = try? worker.reap(wait: true)
    }

    func send(_ message: ToWorker) throws {
        try worker.channel.send(message)
        while worker.channel.hasPendingOutput {
            var ready = pollfd(fd: worker.channel.writeFD, events: Int16(POLLOUT), revents: 0)
            _ = poll(&ready, 1, 5000)
            try worker.channel.flush()
        }
    }

    /// The next message from the worker, waiting up to five seconds for it.
    func receive() throws -> FromWorker {
        while true {
            if let message = try worker.channel.next() { return message }
            var ready = pollfd(fd: worker.channel.readFD, events: Int16(POLLIN), revents: 0)
            try #require(poll(&ready, 1, 5000) == 1, "the worker said nothing for 5 s")
            try #require(try worker.channel.fill(using: &scratch), "the worker closed its channel")
        }
    }

    /// Waits for the worker to exit and returns how.
    func exit() throws -> ProcessExit {
        var ready = pollfd(fd: worker.pidfd, events: Int16(POLLIN), revents: 0)
        try #require(poll(&ready, 1, 5000) == 1)
        return try #require(try worker.reap(wait: true))
    }
}

extension ToWorker {
    /// A fetch reply whose body fits in its one frame.
    static func wholeReply(status: UInt16, mime: String, body: [UInt8]) -> ToWorker {
        .fetchReply(status: status, mime: mime, length: UInt32(body.count), body: body)
    }
}
