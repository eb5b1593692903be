/// What an output option writes, as far as deciding whether a file may be replaced: its role in messages, what
/// it is called, and how its first bytes are recognised. A file already at an output's name is replaced only when
/// it is empty or is of the same kind (an older schedule, an earlier run's log), so that `analyze LOG --replay
/// device.log`, a slip between the input and the output, destroys nothing. Each writer defines its own kind, from
/// its own format's first bytes.
public struct OutputKind: Sendable {
    /// The file's role in this command, for messages: `the replay schedule`.
    public let role: String
    /// What such a file is: `a replay schedule`.
    public let name: String
    /// Whether `head`, a file's first bytes (up to `Leftovers.headSize`), begins the way this kind does.
    public let recognises: @Sendable (ArraySlice<UInt8>) -> Bool
    /// Whether it is a run's log: read while the run goes (`tail -f`), so a new one is written at its name from
    /// its first line; and kept when the run dies, as the evidence of how it died, where half a chart is nothing.
    public let isLog: Bool

    public init(
        role: String, name: String, isLog: Bool = false, recognises: @escaping @Sendable (ArraySlice<UInt8>) -> Bool
    ) {
        self.role = role
        self.name = name
        self.isLog = isLog
        self.recognises = recognises
    }

    /// A kind recognised by the text its files begin with.
    public init(role: String, name: String, isLog: Bool = false, beginning: String) {
        let signature = Array(beginning.utf8)
        self.init(role: role, name: name, isLog: isLog) { $0.starts(with: signature) }
    }
}
