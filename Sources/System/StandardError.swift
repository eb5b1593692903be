import Text

/// Writes `message` and a newline to standard error, unbuffered, wrapped at words to the width every line the
/// tool prints keeps (later lines indented by two).
public func printError(_ message: String) {
    let lines = message.split(separator: "\n", omittingEmptySubsequences: false).flatMap { wrapped(String($0), indent: 2) }
    writeStandardError(lines.joined(separator: "\n") + "\n")
}

/// Writes `text` to standard error as it is, unbuffered: for progress lines that redraw themselves.
public func writeStandardError(_ text: String) {
    try? Sys.write(text, to: 2)
}
