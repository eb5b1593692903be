/// The words of the holder's protocol (Workers/Holder, issue 34): the supervisor's request to spawn a worker and
/// the holder's two answers; and a ping, whose answer comes after every child that ended before it was reaped. Each
/// is the first NUL-separated field of a message.
public enum HolderWords {
    public static let spawn = "spawn"
    public static let spawned = "spawned"
    public static let failed = "failed"
    public static let ping = "ping"
    public static let pong = "pong"
}
