import Glibc

/// How `run --keep-workers` keeps the workers alive when the supervisor dies (issue 34): a holder process
/// (Workers/Holder) is their parent and keeps their pidfds and channels; once the supervisor is gone, it keeps them
/// for the lease and then kills every one. The default, without it, is iOS's: the workers die with the supervisor.
public struct KeepWorkersSettings: Sendable, Equatable {
    /// The holder's executable.
    public var holderPath: String
    /// How long the holder keeps the workers once the supervisor is gone.
    public var leaseNanoseconds = KeepWorkersSettings.defaultLeaseNanoseconds
    /// Where the holder waits for the session's next supervisor, which takes its workers back; nil for a run that
    /// browses no session, whose workers only outlive it for the lease.
    public var holderName: String?

    /// A few seconds: time for a supervisor restarted at once to come back, and no more.
    public static let defaultLeaseNanoseconds = 5_000_000_000
    /// The holder's bounds (Workers/Holder, `--lease-ms`).
    public static let leaseMilliseconds = 1...600_000

    public init(holderPath: String) {
        self.holderPath = holderPath
    }

    /// Why this kernel cannot keep workers, for its `uname` release (e.g. "6.18.0-1-amd64"); nil if it can. A held
    /// worker's end is read through its pidfd after the holder reaped it, which needs `PIDFD_INFO_EXIT`: Linux 6.15.
    public static func unsupported(kernelRelease release: String) -> String? {
        let numbers = release.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
        guard numbers.count == 2, (numbers[0], numbers[1]) < (6, 15) else { return nil }
        return "'--keep-workers' needs Linux 6.15 or later (PIDFD_INFO_EXIT); this kernel is \(release)"
    }

    /// The holder's name for the session at `absolutePath` (resolved, so that every spelling of one file names one
    /// holder) and this user: an abstract socket address, FNV-1a of the path in hex.
    public static func holderName(session absolutePath: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in absolutePath.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return "supervisor-holder-\(getuid())-" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
