import Text

/// A command-line mistake: reported in one line, exit status 64 (EX_USAGE).
public struct UsageError: Error {
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// How an option's text becomes a value. `read` checks it (a range, a list of choices) and throws the one-line error
/// that names the option and what it accepts; `show` writes a value back as the option takes it, so the default that
/// help prints is one the parser reads back to the same value.
public struct ValueKind<Value: Sendable>: Sendable {
    /// `<n>`, `<ms>`, `<file>`, `normal|critical`.
    public let placeholder: String
    /// What it accepts, briefly (`1-1048576`), where a sub-option's help shows it.
    public let accepts: String?
    /// The `key=value` options of a value that is a comma-separated list of them, for help and its test.
    public let subOptions: [SubOption]
    let read: @Sendable (_ name: String, _ text: String) throws(UsageError) -> Value
    let show: @Sendable (Value) -> String

    public init(
        placeholder: String, accepts: String? = nil, subOptions: [SubOption] = [],
        read: @escaping @Sendable (_ name: String, _ text: String) throws(UsageError) -> Value,
        show: @escaping @Sendable (Value) -> String
    ) {
        self.placeholder = placeholder
        self.accepts = accepts
        self.subOptions = subOptions
        self.read = read
        self.show = show
    }
}

/// What an option means when it is not given, as help says it.
public enum DefaultText: Sendable, Equatable {
    /// A value the option takes (`20`, `2-6`), perhaps with what it means (`0, no editor`).
    case value(String, note: String?)
    /// Something no option value names: `the zone the other files write, else this machine's`.
    case described(String)
}

/// One `key=value` entry of a list option such as `--jetsam=budget=64,log=kills.jsonl`, as help shows it.
public struct SubOption: Sendable {
    public let name: String
    public let placeholder: String
    public let accepts: String?
    public let help: String?
    public let defaultText: DefaultText?
}

/// One row of a command's option table, whatever its value's type: what the parser and help both read.
public struct OptionEntry: Sendable {
    public enum Takes: Sendable {
        /// `--json`.
        case nothing
        /// `--loads 5` or `--loads=5`.
        case value
        /// `--jetsam` or `--jetsam=budget=64`: the value, if any, only after `=`.
        case optionalValue
    }

    public let name: String
    public let takes: Takes
    public let placeholder: String
    public let help: String
    public let defaultText: DefaultText?
    public let subOptions: [SubOption]
    let read: @Sendable (_ name: String, _ text: String) throws(UsageError) -> any Sendable
    let show: @Sendable (any Sendable) -> String?
    let defaultValue: (any Sendable)?
}

/// An option's typed handle: what a command reads its value with. Each kind of handle makes one `OptionEntry`.
public protocol OptionHandle: Sendable {
    var entry: OptionEntry { get }
}

/// An option whose absence means a value: reading it always yields one. The default is written here only.
public struct DefaultedOption<Value: Sendable>: OptionHandle {
    public let entry: OptionEntry
    let fallback: Value

    public init(_ name: String, _ kind: ValueKind<Value>, default value: Value, note: String? = nil, help: String) {
        fallback = value
        entry = OptionEntry(
            name: name, takes: .value, placeholder: kind.placeholder, help: help,
            defaultText: .value(kind.show(value), note: note), subOptions: kind.subOptions,
            read: { name, text throws(UsageError) in try kind.read(name, text) },
            show: { ($0 as? Value).map(kind.show) }, defaultValue: value)
    }
}

/// An option that may be absent, or given more than once (`--truth a --truth b`): reading it yields the last value,
/// or nil, or every value in order.
public struct Option<Value: Sendable>: OptionHandle {
    public let entry: OptionEntry

    /// `described` says what its absence means when that is more than "off" (`the built-in pages`).
    public init(
        _ name: String, _ kind: ValueKind<Value>, optionalValue: Bool = false, default described: String? = nil, help: String
    ) {
        entry = OptionEntry(
            name: name, takes: optionalValue ? .optionalValue : .value, placeholder: kind.placeholder, help: help,
            defaultText: described.map(DefaultText.described), subOptions: kind.subOptions,
            read: { name, text throws(UsageError) in try kind.read(name, text) },
            show: { ($0 as? Value).map(kind.show) }, defaultValue: nil)
    }
}

/// `--json`: on when given.
public struct Flag: OptionHandle {
    public let entry: OptionEntry

    public init(_ name: String, help: String) {
        entry = OptionEntry(
            name: name, takes: .nothing, placeholder: "", help: help, defaultText: nil, subOptions: [],
            read: { _, _ in true }, show: { _ in nil }, defaultValue: nil)
    }
}

/// `--force`, for every command that writes files: an existing file at an output's name is replaced only when it
/// is of the kind the output is (an earlier run's log, an older chart) or empty, unless this is given.
public let forceFlag = Flag(
    "--force",
    help: "Replace a file at an output's name even if it is not one of that output's kind (a symbolic link is "
        + "never followed or replaced).")
