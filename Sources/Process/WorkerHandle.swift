import System
import WireProtocol
import Vocabulary

/// A launched worker as the core drives it: what it sends, how it ends, the band it runs in. The real one is a
/// process with a pidfd and a channel (`WorkerProcess`); tests drive a fake one in virtual time.
package protocol WorkerHandle: AnyObject {
    var pid: Int32 { get }
    /// When it was spawned, on the clock the core runs on.
    var spawnedAt: Int { get }
    /// Bytes queued for it that it has not read yet.
    var pendingOutput: Int { get }
    /// The last signal the supervisor sent it, and why: a death by any other signal did not come from it.
    var sent: (signal: Int32, by: DeathCause.Sender)? { get }
    /// Starts reporting: `readable` when messages may have arrived, `exited` once the process has exited (it is
    /// then reaped with `reap`).
    func watch(readable: @escaping () -> Void, exited: @escaping () -> Void) throws(SystemError)
    /// Queues `message` and writes what the channel takes now; `broken` runs if a later write of it fails.
    func send(_ message: ToWorker, broken: @escaping () -> Void) throws(ChannelError)
    /// Takes in what has arrived; false once the worker closed its end or reading failed.
    func receive() -> Bool
    /// The next whole message received, if any.
    func next() throws(WireError) -> FromWorker?
    /// Continues it if it was stopped and asks it to resynchronise (issue 34): it drops what it had half read and
    /// answers `FromWorker.resynced` stamped with `generation`.
    func askResync(generation: UInt64) throws(SystemError)
    /// Drops what it sent before its answer to resynchronisation `generation`; true once that answer is next.
    func skip(toResynced generation: UInt64) -> Bool
    /// Closes its end of the channel: nothing more is read or written.
    func closeChannel()
    /// Sends `signal`; `sender` says whose doing the death is.
    func signal(_ signal: Int32, by sender: DeathCause.Sender)
    /// Collects its exit once it has exited (waiting for that with `wait`): how it ended, or nil if it still runs.
    func reap(wait: Bool) throws(SystemError) -> ProcessExit?
    /// Moves it to `band`, at `rank` in it, as `bands` define them.
    func apply(_ band: PriorityBand, rank: Int, _ bands: PriorityBands) -> PriorityResult
    /// Its resident memory now; nil if that cannot be read (it is exiting).
    func residentBytes() -> Int?
    /// CPU time it has used so far, in nanoseconds; nil if that cannot be read (it is exiting).
    func cpuNanoseconds() -> Int?
    /// How readily the OOM killer takes it now; nil if that cannot be read.
    func oomScoreAdjust() -> Int32?
}

/// Starts workers.
package protocol Launcher: AnyObject {
    /// The program it starts, for messages.
    var executable: String { get }
    func launch() throws(LaunchError) -> any WorkerHandle
}
