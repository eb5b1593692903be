import Glibc
import System
import Vocabulary

/// The kills that killers outside the supervisor owned up to: the only evidence that a worker's death by a signal
/// the supervisor did not send came from outside, since the kernel never says who sent it.
///
/// Each killer names a worker, one decimal pid a line, before it kills it: Jetsam on a pipe the run gives it,
/// scripts/chaos (or an operator's own killer) by appending to the file `run --outside-kills` names. The claim is
/// written before the signal is sent, so by the time the supervisor sees the death it is there to be read. A claim
/// is taken by the next death of its pid, whatever that death turns out to be, so a claim whose kill never landed
/// cannot vouch for a later worker that inherits the pid.
package final class KillClaims {
    private final class Source {
        let file: FileDescriptor
        /// The start of a line not yet ended, at most `longestLine` bytes; nil while a longer one is skipped.
        var partial: [UInt8]? = []

        init(_ file: consuming FileDescriptor) { self.file = file }
    }

    private var sources: [Source] = []
    /// Pids named and not yet taken, oldest first.
    private var named: [Int32] = []
    /// Told of each memory-pressure report (Jetsam's `pressure critical`: true; `pressure normal`: false), in order.
    package var pressure: (Bool) -> Void = { _ in }

    package init() {}

    /// Reads claims from `file` too: a pipe's read end, or a file read from where its offset stands.
    package func add(_ file: consuming FileDescriptor) {
        sources.append(Source(file))
    }

    /// Whether a killer named `pid`; the claim is used up either way. Reads every source first.
    package func take(_ pid: Int32) -> Bool {
        readAll()
        guard let index = named.firstIndex(of: pid) else { return false }
        named.remove(at: index)
        return true
    }

    /// Reads what every source holds now, without waiting.
    package func readAll() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        for source in sources {
            while true {
                // nil: nothing there now (an empty pipe), or a read that failed, which leaves the claims unread.
                let count = chunk.withUnsafeMutableBytes { try? Sys.read(source.file.rawValue, into: $0) } ?? nil
                guard let count, count > 0 else { break }
                for byte in chunk[..<count] { take(byte, into: source) }
                if count < chunk.count { break }
            }
        }
    }

    private func take(_ byte: UInt8, into source: Source) {
        guard byte == UInt8(ascii: "\n") else {
            if var line = source.partial {
                source.partial = nil
                line.append(byte)
                if line.count <= Self.longestLine { source.partial = line }
            }
            return
        }
        if let line = source.partial {
            if let pid = Int32(String(decoding: line, as: UTF8.self)), pid > 0 {
                named.append(pid)
                if named.count > Self.mostPending { named.removeFirst() }
            } else if line.elementsEqual(JetsamLog.pressureCritical.utf8) || line.elementsEqual(JetsamLog.pressureNormal.utf8) {
                pressure(line.elementsEqual(JetsamLog.pressureCritical.utf8))
            }
        }
        source.partial = []
    }

    /// A pid is at most 7 digits (`pid_max` is at most 2^22); a pressure report is the longest line read.
    static let longestLine = max(10, JetsamLog.pressureCritical.utf8.count, JetsamLog.pressureNormal.utf8.count)
    /// Claims kept untaken: a killer whose kills all miss cannot make the supervisor hold more.
    static let mostPending = 4096
}
