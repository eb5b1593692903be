import CShim
import Glibc

extension Sys {
    /// Starts `path` with `argv` and `envp` (NUL-terminated C arrays, built once by the caller): `input` and
    /// `output` become its fds 3 and 4, `null` its 0 and 1, standard error is shared, and nothing else is
    /// inherited; its signals are reset and it leads a process group of its own. The corresponding C function is
    /// `posix_spawn`, then `pidfd_open`.
    static func spawn(
        _ path: String, _ argv: [UnsafeMutablePointer<CChar>?], _ envp: [UnsafeMutablePointer<CChar>?], input: Int32,
        output: Int32, null: Int32
    ) throws(SystemError) -> ChildProcess {
        var pid: pid_t = 0
        var pidfd: Int32 = -1
        _ = try retrying("posix_spawn(\(path))", .spawn, path: path) { () -> Int32 in
            let rc = sv_spawn(path, argv, envp, input, output, null, &pid, &pidfd)
            Glibc.errno = rc
            return rc == 0 ? 0 : -1
        }
        return ChildProcess(pid: pid, pidfd: FileDescriptor(pidfd))
    }

    /// Starts `path` with `arguments` as a filter reading `input` and writing `output` (standard error to /dev/null,
    /// nothing else inherited, signals reset), with an empty environment. The corresponding C function is
    /// `posix_spawn`.
    static func spawnFilter(_ path: String, _ arguments: [String], input: Int32, output: Int32) throws(SystemError)
        -> (pid: Int32, pidfd: Int32)
    {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        var pidfd: Int32 = -1
        _ = try retrying("posix_spawn(\(path))", .spawn, path: path) { () -> Int32 in
            let rc = sv_spawn_filter(path, argv, envp, input, output, &pid, &pidfd)
            Glibc.errno = rc
            return rc == 0 ? 0 : -1
        }
        return (pid, pidfd)
    }

    /// Where `name` is found on `PATH` (or the usual system directories without one): an executable regular file.
    static func executable(named name: String) -> String? {
        let search = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for directory in search.split(separator: ":") where !directory.isEmpty {
            let path = directory.hasSuffix("/") ? "\(directory)\(name)" : "\(directory)/\(name)"
            if access(path, X_OK) == 0, (try? status(ofPath: path, following: true))??.isRegular == true { return path }
        }
        return nil
    }

    /// Moves `fd`'s offset to `offset` from the start. The corresponding C function is `lseek`.
    static func seek(_ fd: Int32, to offset: Int) throws(SystemError) {
        _ = try retrying("lseek", .other, fd: fd) { lseek(fd, off_t(offset), SEEK_SET) }
    }

    /// `fd`'s offset: for a file another process reads through the same open file, how far it has read.
    static func offset(_ fd: Int32) -> Int? {
        let offset = lseek(fd, 0, SEEK_CUR)
        return offset < 0 ? nil : Int(offset)
    }
}
