/// How `run --keep-workers` keeps the workers alive when the supervisor dies (issue 34): a holder process
/// (Workers/Holder) is their parent and keeps their pidfds and channels; once the supervisor is gone, it keeps them
/// for the lease and then kills every one. The default, without it, is iOS's: the workers die with the supervisor.
public struct KeepWorkersSettings: Sendable, Equatable {
    /// The holder's executable.
    public var holderPath: String
    /// How long the holder keeps the workers once the supervisor is gone.
    public var leaseNanoseconds = KeepWorkersSettings.defaultLeaseNanoseconds

    /// A few seconds: time for a supervisor restarted at once to come back, and no more.
    public static let defaultLeaseNanoseconds = 5_000_000_000
    /// The holder's bounds (Workers/Holder, `--lease-ms`).
    public static let leaseMilliseconds = 1...600_000

    public init(holderPath: String) {
        self.holderPath = holderPath
    }
}
