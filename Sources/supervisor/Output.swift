import Glibc
import System

/// Writes to standard output, or fails with a message (a closed pipe, a full disk) instead of losing the output.
func writeStandardOutput(_ text: String) throws {
    do {
        try Sys.write(text, to: 1)
    } catch {
        throw RuntimeError("cannot write to standard output: \(String(cString: strerror(error.errno)))")
    }
}
