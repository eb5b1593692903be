/// The words of the holder's protocol (Workers/Holder, issue 34): the supervisor's request to spawn a worker and
/// the holder's two answers; a ping, whose answer comes after every child that ended before it was reaped; a label
/// the supervisor gives a worker, unanswered; and the list of the workers held, each with its label, for a
/// supervisor that takes them back. Each is the first NUL-separated field of a message.
public enum HolderWords {
    public static let spawn = "spawn"
    public static let spawned = "spawned"
    public static let failed = "failed"
    public static let ping = "ping"
    public static let pong = "pong"
    public static let label = "label"
    public static let list = "list"
    public static let held = "held"
    public static let listed = "listed"
}
