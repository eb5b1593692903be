import Glibc
import Process
import System
import WireProtocol

/// posix_spawn → hello for `supervisor bench`, through the supervisor's own launcher, channel and event loop, one worker
/// at a time: each is shut down and reaped before the next starts, as the C floor and the Foundation probe do, so
/// no worker's exit competes with the next one's start.
public enum SpawnBench {
    /// Milliseconds from posix_spawn to the decoded hello, one sample per worker; unless `sandboxed`, the workers
    /// are told `--no-sandbox`.
    public static func spawnToHello(iterations: Int, workerPath: String, sandboxed: Bool = true) throws -> [Double] {
        let loop = try EventLoop()
        let launcher = try WorkerLauncher(executable: workerPath, loop: loop, sandboxed: sandboxed)
        var scratch = [UInt8](repeating: 0, count: 4096)
        var samples: [Double] = []
        for _ in 0..<iterations {
            let worker = try launcher.launchProcess()
            defer {
                worker.channel.close()
                _ = try? worker.reap(wait: true)
            }
            var greeted = false
            var ended = false
            let token = try loop.watch(worker.channel.readFD) { _ in
                ended = (try? worker.channel.fill(using: &scratch)) != true
                do {
                    while let message = try worker.channel.next() {
                        if case .hello = message { greeted = true }
                    }
                } catch {
                    ended = true  // not a worker that speaks the protocol: no hello will come
                }
            }
            try loop.run { greeted || ended }
            loop.unwatch(worker.channel.readFD, token: token)
            guard greeted else { throw SystemError("worker '\(workerPath)' exited before its hello", errno: EPIPE) }
            samples.append(Double(Sys.monotonicNanoseconds() - worker.spawnedAt) / 1e6)
        }
        return samples
    }
}

