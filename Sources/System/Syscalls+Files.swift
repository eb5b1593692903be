import CShim
import Glibc

/// Files beneath a directory: what the scheme handler needs to serve a content root without ever leaving it.
extension Sys {
    /// What `stat` says about a file: its kind, which file it is (so two names or descriptors can be seen to be
    /// one file), its size (so it can be refused before it is read), its permission bits, its links (none left:
    /// deleted while open), and when its data and its inode last changed (so a copy can be checked against it).
    public struct FileStatus: Equatable, Sendable {
        /// `st_mode & S_IFMT`: `S_IFREG`, `S_IFDIR`, `S_IFIFO`, `S_IFCHR`, ...
        package let type: mode_t
        package let permissions: mode_t
        package let device: UInt64
        package let inode: UInt64
        public let size: Int
        package let links: Int
        /// `st_mtim` and `st_ctim`, in nanoseconds.
        package let modified: Int
        package let changed: Int

        package init(_ info: stat) {
            type = info.st_mode & S_IFMT
            permissions = info.st_mode & 0o7777
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int(info.st_size)
            links = Int(info.st_nlink)
            modified = info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
            changed = info.st_ctim.tv_sec * 1_000_000_000 + info.st_ctim.tv_nsec
        }

        public var isRegular: Bool { type == S_IFREG }
        public var isDirectory: Bool { type == S_IFDIR }
        /// The same file: one device, one inode.
        package func isSameFile(as other: FileStatus) -> Bool { device == other.device && inode == other.inode }
        /// The device's major and minor numbers, as glibc's `major` and `minor` macros split them.
        package var major: UInt64 { ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff) }
        package var minor: UInt64 { (device & 0xff) | ((device >> 12) & ~0xff) }
    }

    /// Whether the file open on `fd` is one the kernel makes as it is read (in /proc, /sys and their like): it says it
    /// is regular and empty, and may be endless or wait for data. The corresponding C function is `fstatfs`.
    package static func isMadeByTheKernel(_ fd: Int32) throws(SystemError) -> Bool {
        try retrying("fstatfs", .stat, fd: fd) { sv_on_kernel_file_system(fd) } == 1
    }

    /// The status of the file open on `fd`, an O_PATH descriptor included. The corresponding C function is `fstat`.
    package static func status(_ fd: Int32) throws(SystemError) -> FileStatus {
        var info = stat()
        _ = try retrying("fstat", .stat, fd: fd) { fstat(fd, &info) }
        return FileStatus(info)
    }

    /// Holds the directory at `path` for `openBeneath`, without the right to read anything through it. The
    /// corresponding C function is `open`, with O_PATH | O_DIRECTORY.
    package static func openDirectoryPath(_ path: String) throws(SystemError) -> FileDescriptor {
        FileDescriptor(try retrying("open(\(path), O_PATH)", .open, path: path) { sv_open_directory_path(path) })
    }

    /// An O_PATH descriptor for `path` beneath the directory `root`, resolved by the kernel so that no `..`,
    /// absolute path or symlink can lead it out (EXDEV), nor a /proc-style link (ELOOP). Nothing is opened for
    /// reading, so reaching a FIFO cannot block and reaching a device cannot touch it. Where openat2 is missing
    /// (ENOSYS, Linux before 5.6) this falls back to `walkBeneath`, which refuses every symlink. The corresponding C
    /// function is `openat2`, with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS.
    package static func openBeneath(_ root: Int32, _ path: [UInt8]) throws(SystemError) -> FileDescriptor {
        guard !path.contains(0) else { throw SystemError("openat2", errno: EINVAL) }
        do throws(SystemError) {
            // The root as the call's descriptor: a fault rule can pick the opens beneath one root by its path.
            return FileDescriptor(try retrying("openat2", .open, fd: root) { sv_openat2_beneath(root, cString(path)) })
        } catch let error where error.errno == ENOSYS {
            return try walkBeneath(root, path)
        }
    }

    /// `openBeneath` for kernels before 5.6, which lack openat2: one O_PATH | O_NOFOLLOW `openat` per component,
    /// refusing every symlink with ELOOP (even one that stays inside: only the kernel can follow one safely), and
    /// every `..`, absolute path or mount point with EXDEV. The corresponding C function is `openat`.
    package static func walkBeneath(_ root: Int32, _ path: [UInt8]) throws(SystemError) -> FileDescriptor {
        guard path.first != UInt8(ascii: "/") else { throw SystemError("openat", errno: EXDEV) }
        var current = FileDescriptor(try retrying("openat", .open) { sv_openat_path_nofollow(root, ".") })
        var last = try status(current.rawValue)
        let device = last.device
        for component in path.split(separator: UInt8(ascii: "/")) where !component.elementsEqual(".".utf8) {
            guard !component.elementsEqual("..".utf8) else { throw SystemError("openat", errno: EXDEV) }
            let parent = current.rawValue
            // The parent is closed as its child replaces it.
            current = FileDescriptor(try retrying("openat", .open) { sv_openat_path_nofollow(parent, cString(component)) })
            let found = try status(current.rawValue)
            // A symlink may not be followed here; a mount point (another device) may not be crossed, as
            // RESOLVE_NO_XDEV forbids.
            if found.type == S_IFLNK || found.device != device {
                throw SystemError("openat", errno: found.type == S_IFLNK ? ELOOP : EXDEV)
            }
            last = found
        }
        // As the kernel resolves it: a name followed by `/` or `/.` must be a directory.
        let end = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).last
        if let end, end.isEmpty || end.elementsEqual(".".utf8), last.type != S_IFDIR {
            throw SystemError("openat", errno: ENOTDIR)
        }
        return current
    }

    /// Opens for reading the file that the O_PATH descriptor `pathFD` names, through its /proc/self/fd link. That
    /// link has to be followed, so O_NOFOLLOW cannot be used; O_NONBLOCK and O_NOCTTY make sure that, were it
    /// anything but the regular file the caller saw, the open would neither wait nor take a terminal, and the caller
    /// checks the inode again. The corresponding C function is `open`.
    package static func reopenForReading(_ pathFD: Int32) throws(SystemError) -> FileDescriptor {
        try open("/proc/self/fd/\(pathFD)", O_RDONLY | O_NONBLOCK | O_NOCTTY)
    }

    /// `bytes` NUL-terminated, for a C `const char *`.
    private static func cString(_ bytes: some Collection<UInt8>) -> [CChar] {
        bytes.map { CChar(bitPattern: $0) } + [0]
    }
}
