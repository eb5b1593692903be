import CShim
import Synchronization
import Text

/// The outputs of this process not yet written, so that however a command ends early it leaves none of their
/// temporary files and says which it did not write: SIGINT or SIGTERM removes them in a handler (Interruption.c)
/// and prints one line; a failure names them in its error (`failureNote`). A death nothing can catch (SIGKILL, a
/// trap) leaves the temporary files, which the next run on the same names finds (`Leftovers`).
public enum UnwrittenOutputs {
    private struct State {
        /// By registration number: the name as the user gave it and the handler's slot.
        var pending: [Int: (path: String, slot: Int32)] = [:]
        var next = 0
        /// Outputs given up (a failure, an error before they were done), in order.
        var abandoned: [String] = []
    }

    private static let state = Mutex(State())

    /// Makes SIGINT and SIGTERM remove what is pending and say so before they end the process, as their default
    /// action would: called once, at start-up.
    public static func removeOnInterruption() {
        _ = sv_interruption_install()
    }

    /// The output `path` is being written, to `removing`, which goes if the process is interrupted.
    static func add(_ path: String, removing: String) -> Int {
        state.withLock { state in
            let id = state.next
            state.next += 1
            state.pending[id] = (path, sv_interruption_add(removing))
            setMessage(state)
            return id
        }
    }

    /// The output registered as `id` was placed (`written`), or given up.
    static func remove(_ id: Int, written: Bool) {
        state.withLock { state in
            guard let entry = state.pending.removeValue(forKey: id) else { return }
            sv_interruption_remove(entry.slot)
            if !written { state.abandoned.append(entry.path) }
            setMessage(state)
        }
    }

    /// `; nothing written to 'a.svg' or 'b.json'` for an error that ended the command with outputs given up; empty
    /// when there were none.
    public static var failureNote: String {
        let abandoned = state.withLock { $0.abandoned }
        return abandoned.isEmpty ? "" : "; " + nothingWritten(abandoned)
    }

    private static func setMessage(_ state: State) {
        let paths = state.pending.sorted { $0.key < $1.key }.map(\.value.path)
        let text = paths.isEmpty ? "" : wrapped("supervisor: interrupted: " + nothingWritten(paths), indent: 2)
            .joined(separator: "\n") + "\n"
        sv_interruption_message(text)
    }

    /// `nothing written to 'a', 'b' or 'c'`.
    private static func nothingWritten(_ paths: [String]) -> String {
        let quoted = paths.map { "'\(visible($0))'" }
        let list = quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
        return "nothing written to " + list
    }
}
