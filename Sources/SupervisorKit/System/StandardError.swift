/// Writes `line` and a newline to standard error, unbuffered.
public func printError(_ line: String) {
    writeStandardError(line + "\n")
}

/// Writes `text` to standard error as it is, unbuffered: for progress lines that redraw themselves.
public func writeStandardError(_ text: String) {
    try? Sys.write(text, to: 2)
}
