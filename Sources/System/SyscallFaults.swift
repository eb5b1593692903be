import CShim
import Glibc
import ProcFS
import Synchronization

/// The seam through which tests make system calls fail, inside `syscall`, as if the kernel had said so: EINTR on
/// every call of a whole run, EAGAIN on a channel, ENOSPC on one file's writes, EMFILE on a spawn.
///
/// A test arms rules in its own process (`arm`, by default for calls on its own thread only, so that tests running
/// beside it are untouched), or gives a supervisor it starts the environment variable
///
///     SUPERVISOR_SYSCALL_FAULTS='report=PATH;KINDS:ERRNO[:every=N][:after=N][:times=N][:fd=N][:path=TEXT];...'
///
/// KINDS is `*` or `SyscallKind` names joined by `,`; ERRNO a name such as ENOSPC. At exit, each rule's count of
/// failures made is written to PATH, one number a line, so a test can tell that its faults were really made.
/// A call fails at most once by a rule: its retry after an injected EINTR goes to the kernel.
package enum SyscallFaults {
    package struct Rule: Sendable {
        /// Empty: every kind.
        package var kinds: Set<SyscallKind>
        package var errno: Int32
        /// Of the calls the rule matches, it fails every `every`th one (1: each).
        package var every = 1
        /// The first `after` calls it matches pass.
        package var after = 0
        /// At most this many failures.
        package var times = Int.max
        /// Only calls on this descriptor.
        package var fd: Int32?
        /// Only calls on a path (or a descriptor open on one, as /proc/self/fd shows it) that contains this.
        package var path: String?
        /// Only calls made on this thread.
        package var thread: pid_t?
        package var matched = 0
        package fileprivate(set) var failed = 0

        package init(_ kinds: Set<SyscallKind>, _ errno: Int32) {
            self.kinds = kinds
            self.errno = errno
        }

        fileprivate mutating func fault(_ kind: SyscallKind, fd: Int32, path: () -> String?) -> Int32 {
            guard failed < times, kinds.isEmpty || kinds.contains(kind), self.fd == nil || self.fd == fd,
                thread == nil || thread == sv_gettid()
            else { return 0 }
            if let wanted = self.path {
                guard let named = path(), named.contains(wanted) else { return 0 }
            }
            matched += 1
            guard matched > after, (matched - after) % every == 0 else { return 0 }
            failed += 1
            return errno
        }
    }

    private struct State {
        package var rules: [Rule] = []
        package var report: String?
        package var readEnvironment = false
    }

    private static let state = Mutex(State())

    /// Makes calls fail by `rules` until `disarm`; with `thisThreadOnly`, only calls on the calling thread.
    package static func arm(_ rules: [Rule], thisThreadOnly: Bool = true) {
        state.withLock { state in
            state.readEnvironment = true
            state.rules = rules.map { rule in
                var rule = rule
                if thisThreadOnly { rule.thread = sv_gettid() }
                return rule
            }
        }
        sv_syscall_faults_set(1)
    }

    /// Stops making calls fail, and returns the rules as they ended, with their counts.
    @discardableResult
    package static func disarm() -> [Rule] {
        sv_syscall_faults_set(0)
        return state.withLock { state in
            defer { state.rules = [] }
            return state.rules
        }
    }

    /// The errno a call of `kind` is to fail with, or 0. Only called while armed.
    @inline(never)
    package static func injection(_ kind: SyscallKind, fd: Int32, path: String?) -> Int32 {
        state.withLock { state in
            if !state.readEnvironment { readEnvironment(into: &state) }
            var named: String?? = path.map { .some($0) }
            let lookUp = { () -> String? in
                if named == nil { named = fd >= 0 ? ProcFS.descriptorTarget(.current, fd) : .some(nil) }
                return named!
            }
            for i in state.rules.indices {
                let code = state.rules[i].fault(kind, fd: fd, path: lookUp)
                if code != 0 { return code }
            }
            return 0
        }
    }

    private static func readEnvironment(into state: inout State) {
        state.readEnvironment = true
        guard let text = getenv("SUPERVISOR_SYSCALL_FAULTS").map({ String(cString: $0) }) else { return }
        for entry in text.split(separator: ";") {
            if entry.hasPrefix("report=") {
                state.report = String(entry.dropFirst(7))
            } else if let rule = Rule(parsing: entry) {
                state.rules.append(rule)
            } else {
                sv_syscall_faults_set(0)
                printError("supervisor: error: SUPERVISOR_SYSCALL_FAULTS: cannot read '\(entry)'")
                exit(64)
            }
        }
        if state.report != nil { atexit { SyscallFaults.writeReport() } }
    }

    private static func writeReport() {
        sv_syscall_faults_set(0)
        let (report, counts) = state.withLock { ($0.report, $0.rules.map(\.failed)) }
        guard let report, let file = try? Sys.open(report, O_WRONLY | O_CREAT | O_TRUNC) else { return }
        _ = try? Sys.write(counts.map { "\($0)\n" }.joined(), to: file.rawValue)
    }

    package static let errnoNames: [String: Int32] = [
        "EINTR": EINTR, "EAGAIN": EAGAIN, "ENOSPC": ENOSPC, "EMFILE": EMFILE, "ENFILE": ENFILE, "EIO": EIO,
        "ENOMEM": ENOMEM, "EPIPE": EPIPE, "EACCES": EACCES,
    ]
}

extension SyscallFaults.Rule {
    /// `KINDS:ERRNO[:every=N][:after=N][:times=N][:fd=N][:path=TEXT]`; nil when it is not that.
    package init?(parsing text: Substring) {
        var parts = text.split(separator: ":", omittingEmptySubsequences: false)[...]
        guard parts.count >= 2, let errno = SyscallFaults.errnoNames[String(parts[parts.startIndex + 1])] else {
            return nil
        }
        let names = parts.removeFirst()
        parts.removeFirst()
        var kinds: Set<SyscallKind> = []
        if names != "*" {
            for name in names.split(separator: ",") {
                guard let kind = SyscallKind(rawValue: String(name)) else { return nil }
                kinds.insert(kind)
            }
        }
        self.init(kinds, errno)
        for option in parts {
            let pair = option.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return nil }
            let value = String(pair[1])
            switch pair[0] {
            case "path": path = value
            case "every": guard let n = Int(value), n > 0 else { return nil }; every = n
            case "after": guard let n = Int(value), n >= 0 else { return nil }; after = n
            case "times": guard let n = Int(value), n > 0 else { return nil }; times = n
            case "fd": guard let n = Int32(value) else { return nil }; fd = n
            default: return nil
            }
        }
    }
}
