import Glibc
import System

/// Writes to standard output, or fails with a message (a full disk) instead of losing the output. A reader that
/// went away (`analyze … | head`) is no failure: the process ends silently, killed by SIGPIPE, as a program that
/// never ignored the signal is; `session show` ends so.
func writeStandardOutput(_ text: String) throws {
    if try !writeStandardOutputWhileRead(text) { endOnClosedPipe() }
}

/// Bytes written to standard output, as `writeStandardOutput(_:)` writes text.
func writeStandardOutput(_ bytes: [UInt8]) throws {
    if try !writeStandardOutputWhileRead({ () throws(SystemError) in try Sys.write(bytes, to: 1) }) { endOnClosedPipe() }
}

/// Writes to standard output; false when its reader went away, for a command with more to say before it ends
/// (`analyze --fail-on`'s status).
func writeStandardOutputWhileRead(_ text: String) throws -> Bool {
    try writeStandardOutputWhileRead { () throws(SystemError) in try Sys.write(text, to: 1) }
}

private func writeStandardOutputWhileRead(_ write: () throws(SystemError) -> Void) throws -> Bool {
    do {
        try write()
        return true
    } catch {
        if error.errno == EPIPE { return false }
        throw RuntimeError("cannot write to standard output: \(String(cString: strerror(error.errno)))")
    }
}

/// Ends the process by SIGPIPE, the signal restored to its default and unblocked first (the commands that write to
/// workers ignore it); should it still return, the status a shell gives that death.
func endOnClosedPipe() -> Never {
    signal(SIGPIPE, SIG_DFL)
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    sigprocmask(SIG_UNBLOCK, &pipeSignal, nil)
    raise(SIGPIPE)
    exit(128 + SIGPIPE)
}
