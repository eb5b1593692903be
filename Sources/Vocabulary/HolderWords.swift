/// The words of the holder's protocol (Workers/Holder, issue 34): the supervisor's request to spawn a worker, and
/// the holder's two answers. Each is the first NUL-separated field of a message.
public enum HolderWords {
    public static let spawn = "spawn"
    public static let spawned = "spawned"
    public static let failed = "failed"
}
