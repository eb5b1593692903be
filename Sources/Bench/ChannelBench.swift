import CBench
import Process
import Glibc
import LogAnalysis
import System
import WireProtocol

/// The channel measured on its own, for `supervisor bench`: one real worker, driven through the same launcher,
/// channel and event loop the supervisor uses. Supervisor and worker share one CPU while it lives, as the C floor's two
/// processes do: on two CPUs every round trip would also pay for waking the other one, which on this VM alone
/// varies from run to run between about 5 and 60 µs.
public final class ChannelBench {
    private let loop: EventLoop
    private let worker: WorkerProcess
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    private var handle: (FromWorker) -> Void = { _ in }
    private var affinity = [UInt8](repeating: 0, count: 128)

    /// Launches a worker and waits for its hello.
    public init(workerPath: String) throws {
        loop = try EventLoop()
        _ = sv_pin_to_one_cpu(&affinity)
        worker = try WorkerLauncher(executable: workerPath, loop: loop, sandboxed: true).launchProcess()
        _ = try loop.watch(worker.channel.readFD) { [unowned self] _ in receive() }
        var greeted = false
        handle = { if case .hello = $0 { greeted = true } }
        try loop.run { greeted }
    }

    deinit {
        worker.channel.close()
        _ = try? worker.reap(wait: true)
        _ = sv_restore_affinity(affinity)
    }

    /// Title-probe round trips to the idle worker: send, wait on epoll, decode the reply. Milliseconds each.
    public func roundTrips(_ count: Int) throws -> [Double] {
        var samples: [Double] = []
        var sentAt = 0
        let probe = { [unowned self] in
            sentAt = Sys.monotonicNanoseconds()
            send(.titleQuery(id: UInt32(samples.count)))
        }
        handle = { message in
            guard case .title = message else { return }
            samples.append(Double(Sys.monotonicNanoseconds() - sentAt) / 1e6)
            if samples.count < count { probe() }
        }
        probe()
        try loop.run { samples.count == count }
        return samples
    }

    /// `frames` small frames one way (`unload`, 5 bytes each, one write per frame as the supervisor sends them), then
    /// a ping; the seconds until the pong says the worker has decoded them all.
    public func stream(_ frames: Int) throws -> Double {
        var done = false
        handle = { if case .pong = $0 { done = true } }
        let start = Sys.monotonicNanoseconds()
        for _ in 0..<frames { send(.unload) }
        send(.ping(seq: 1))
        try loop.run { done }
        return Double(Sys.monotonicNanoseconds() - start) / 1e9
    }

    private func send(_ message: ToWorker) {
        try? worker.channel.send(message, on: loop) {}
    }

    private func receive() {
        _ = try? worker.channel.fill(using: &scratch)
        while let message = try? worker.channel.next() { handle(message) }
    }
}
