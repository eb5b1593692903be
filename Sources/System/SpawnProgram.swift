import CShim
import Glibc
import Vocabulary

/// What a child runs: its program, arguments and environment, held as the C arrays posix_spawn takes, made once
/// (a worker's never change) and freed with the value.
package final class SpawnProgram {
    package let path: String
    let argv: [UnsafeMutablePointer<CChar>?]
    let envp: [UnsafeMutablePointer<CChar>?]

    /// `arguments` follow the path, which is the child's argument 0.
    package init(_ path: String, arguments: [String], environment: [String]) {
        self.path = path
        argv = ([path] + arguments).map { strdup($0) } + [nil]
        envp = environment.map { strdup($0) } + [nil]
    }

    deinit {
        for pointer in argv + envp { free(pointer) }
    }
}

/// One descriptor a child starts with: a copy of one of ours, or a file opened for it. Every descriptor of ours
/// named must sit above every target, so that no copy clobbers one still to be made.
package enum ChildDescriptor {
    case copy(Int32, as: Int32)
    case file(String, flags: Int32, as: Int32)
}

extension Sys {
    /// Starts `program` with `descriptors`: 0 to 2 not named there are inherited, every other descriptor is closed.
    /// Its signal mask and dispositions are reset; with `ownGroup` it leads a process group of its own. A pidfd is
    /// taken before anything else can happen to it. The corresponding C functions are `posix_spawn`, then
    /// `pidfd_open`.
    package static func spawn(
        _ program: SpawnProgram, _ descriptors: [ChildDescriptor], ownGroup: Bool
    ) throws(SystemError) -> ChildProcess {
        let paths = descriptors.map { descriptor -> UnsafeMutablePointer<CChar>? in
            if case .file(let path, _, _) = descriptor { strdup(path) } else { nil }
        }
        defer { paths.forEach { free($0) } }
        let table = zip(descriptors, paths).map { descriptor, path in
            switch descriptor {
            case .copy(let source, let target): sv_child_fd(target: target, source: source, path: nil, flags: 0, mode: 0)
            case .file(_, let flags, let target): sv_child_fd(target: target, source: -1, path: path, flags: flags, mode: 0o644)
            }
        }
        let path = program.path
        var pid: pid_t = 0
        var pidfd: Int32 = -1
        try Orphans.spawning { () throws(SystemError) -> Int32 in
            _ = try retrying("posix_spawn(\(path))", .spawn, path: path) { () -> Int32 in
                let rc = sv_spawn(
                    path, program.argv, program.envp, table, Int32(table.count), ownGroup ? 1 : 0, &pid, &pidfd)
                Glibc.errno = rc
                return rc == 0 ? 0 : -1
            }
            return pid
        }
        return ChildProcess(pid: pid, pidfd: FileDescriptor(pidfd))
    }

    /// Runs `path` with `arguments` to its end, its standard output written to `output` (and its standard error to
    /// `errors`, if given) and nothing of ours but its standard input and error inherited, and says how it ended.
    package static func run(_ path: String, _ arguments: [String], environment: [String] = [], output: String, errors: String? = nil)
        throws(SystemError) -> ProcessExit
    {
        let program = SpawnProgram(path, arguments: arguments, environment: environment)
        let files = [output, errors].enumerated().compactMap { index, path in
            path.map { ChildDescriptor.file($0, flags: O_WRONLY | O_CREAT | O_TRUNC, as: Int32(index + 1)) }
        }
        let child = try spawn(program, files, ownGroup: false)
        return try child.reap()
    }
}
