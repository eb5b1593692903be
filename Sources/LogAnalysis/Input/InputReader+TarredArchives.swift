import Glibc
import System
import UnifiedLog

extension InputReader {
    /// After a tar's first pass: its `.logarchive` folders' strings files met too early (a second pass) and their
    /// tracev3 files (a third), each pass a new reading of the file from its start. A tar read from a pipe cannot be
    /// read again: its archives are said, not read.
    func readTarredArchives(_ fd: Int32, name: String, gzip: String?) throws(InputError) {
        guard !tarred.isEmpty else { return }
        defer { tarred = TarredLogArchives() }
        do throws(SystemError) {
            if tarred.needsStringsPass {
                try rereadTar(fd, gzip: gzip) { (folder, relative, _, read) throws(SystemError) in try tarred.second(folder, relative, read: read) }
            }
            try rereadTar(fd, gzip: gzip) { (folder, relative, member, read) throws(SystemError) in
                try tarred.third(folder, relative, name: "\(name):\(member)", read: read)
            }
        } catch {
            guard error.errno == ESPIPE else { throw InputError(name, error) }
            return found.logArchives.add(name)
        }
        do throws(SystemError) {
            for (archive, reading) in tarred.finished(in: name) { try analyze(reading, name: archive) }
        } catch {
            throw InputError(name, error)
        }
    }

    /// The file's tar read again from its start: each file member in a `.logarchive` handed to `visit` with its
    /// folder, its path within the folder and within the tar, and a way to read it whole.
    private func rereadTar(
        _ fd: Int32, gzip: String?,
        visit: (String, String, String, () throws(SystemError) -> [UInt8]) throws(SystemError) -> Void
    ) throws(SystemError) {
        func walk<S: ByteSource>(_ source: S) throws(SystemError) {
            let archive = TarReader(source)
            while let entry = try archive.next() {
                guard entry.kind == .file, let (folder, relative) = TarredLogArchives.split(entry.path) else { continue }
                try visit(folder, relative, entry.path) { () throws(SystemError) in try Self.whole(archive) }
            }
        }
        if let gzip {
            try walk(try GzipSource(file: fd, gzip: gzip))
        } else {
            try Sys.seek(fd, to: 0)
            try walk(FileSource(fd: fd))
        }
    }

    /// The current member whole, up to `LogArchive.fileLimit` bytes (a longer one is cut there).
    static func whole<S: ByteSource>(_ archive: TarReader<S>) throws(SystemError) -> [UInt8] {
        try upToLimit { (bytes, from) throws(SystemError) in try archive.readMember(into: &bytes, from: from) }
    }

    /// What `read` gives until it gives nothing, up to `LogArchive.fileLimit` bytes.
    static func upToLimit(_ read: (inout [UInt8], Int) throws(SystemError) -> Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        var count = 0
        while count < LogArchive.fileLimit {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: min(bytes.count, LogArchive.fileLimit - count)) }
            let n = try read(&bytes, count)
            if n == 0 { break }
            count += n
        }
        bytes.removeSubrange(count...)
        return bytes
    }
}
