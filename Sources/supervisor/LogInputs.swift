import Charts
import Glibc
import LogAnalysis
import System
import Text

/// The logs to read: files, the files under directories (recursively, sorted, hidden ones skipped), and `-` for
/// standard input. They are found and checked before any work starts, and opened one at a time as they are read, so
/// a directory of any size is read within the descriptor limit.
///
/// A FIFO, socket or device named as a log is an error; one found in a directory is passed over with a warning, since
/// it cannot be read without waiting on whoever holds its other end. A file named as a log that cannot be read is an
/// error; one in a directory that cannot be read, or a symbolic link there that leads nowhere, is skipped with a
/// warning: one bad file in a sysdiagnose must not cost the rest. A `.logarchive` folder, or a `.tracev3` file named,
/// is read as Apple's binary unified log (`LogArchive`).
///
/// A directory is read within itself: a symbolic link in it is followed only to a file inside the directory named
/// (a log's other name); one that leads out of it, or to a directory, is not followed, and said (`loop -> ..` read
/// the parent's files).
struct LogInputs {
    struct Input {
        let name: String
        /// nil for standard input.
        let path: String?
        let bytes: Int
        /// Found in a directory rather than named: skipped with a warning if it cannot be opened.
        let inDirectory: Bool

        var isStandardInput: Bool { path == nil }
    }

    private(set) var files: [Input] = []
    private var passedOver: [String] = []
    /// `path (why)` of each file in a directory that cannot be read.
    private var unreadable: [String] = []
    private var logArchives: [LogArchive] = []
    /// Symbolic links in a directory that lead out of the directory named, or to a directory: not followed.
    private var notFollowed: [String] = []
    /// Directories already walked: a directory mounted inside itself is not walked round.
    private var walked: Set<UserPath.Identity> = []
    /// Files already taken, by identity, with the name each was taken under: a file reached again by another name
    /// (a link, a hard link, named twice) is read once, or its incidents would count twice.
    private var taken: [UserPath.Identity: String] = [:]
    /// `path (as name)` of each file reached again.
    private var again: [String] = []
    var totalBytes: Int { files.reduce(0) { $0 + $1.bytes } }
    var title: String { files.count == 1 ? files[0].name : counted(files.count, "file") }

    init(_ paths: [String]) throws {
        for path in paths { try add(path, within: nil) }
        if !passedOver.isEmpty {
            printError("supervisor: warning: passed over \(counted(passedOver.count, "file")) that "
                + "\(passedOver.count == 1 ? "is" : "are") not regular: \(listed(passedOver))")
        }
        if !notFollowed.isEmpty {
            printError("supervisor: warning: did not follow \(counted(notFollowed.count, "symbolic link")) that "
                + "\(notFollowed.count == 1 ? "leads" : "lead") out of the directory analyzed or to a directory: "
                + listed(notFollowed))
        }
        if !again.isEmpty {
            printError("supervisor: warning: read once \(counted(again.count, "file")) reached by two names: "
                + listed(again))
        }
        if files.isEmpty && logArchives.isEmpty {
            throw RuntimeError("no files to analyze in \(paths.map { "'\($0)'" }.joined(separator: ", "))")
        }
    }

    /// Reads every input into `analyzer`, one open file at a time, then warns of what was skipped or passed over.
    func read(into analyzer: LogAnalyzer, progress: ByteProgress) throws {
        let reader = InputReader(analyzer)
        for archive in logArchives {
            do throws(SystemError) { try reader.read(archive) } catch { throw FileError(archive.name, "read", error) }
        }
        var skipped = unreadable
        var ours: [String] = []
        for input in files {
            let base = progress.done
            if let path = input.path {
                let file: InputFile
                do {
                    file = try InputFile(path)
                } catch {
                    guard input.inDirectory else { throw error }
                    skipped.append("\(path) (\(error.reason))")
                    continue
                }
                if let kind = Self.ownOutput(file) {
                    ours.append("\(path) (\(kind.name))")
                    progress.done = base + input.bytes
                    continue
                }
                try reader.read(file.fd, name: input.name, passingOverBinary: input.inDirectory) { progress.show(base + $0) }
            } else {
                try reader.read(0, name: input.name, passingOverBinary: false) { progress.show(base + $0) }
            }
            progress.done = base + input.bytes
        }
        progress.finish()
        if !skipped.isEmpty {
            printError("supervisor: warning: skipped \(counted(skipped.count, "file")) that cannot be "
                + "read: \(listed(skipped.sorted()))")
        }
        if !ours.isEmpty {
            printError("supervisor: warning: skipped \(counted(ours.count, "file")) this tool wrote, which "
                + "\(ours.count == 1 ? "is" : "are") not evidence: \(listed(ours))")
        }
        for note in reader.notes { printError("supervisor: warning: \(note)") }
    }

    /// What this tool writes and never reads back as evidence: a replay schedule, a chart, an HTML report. Each is
    /// told by how it begins, as the outputs' own checks tell them (its event logs and iOS-style logs are inputs).
    private static let ownOutputs = [ReplayExport.outputKind, DocumentKinds.chart, DocumentKinds.report]

    private static func ownOutput(_ file: InputFile) -> OutputKind? {
        guard let head = try? file.head(Leftovers.headSize) else { return nil }
        return ownOutputs.first { $0.recognises(head[...]) }
    }

    /// The clocks the files write in their first dated lines, read one open file at a time: what a file with no
    /// zone of its own is read in. A few agreeing are enough; standard input and unreadable files give none.
    func writtenClocks() -> [WrittenClock?] {
        var clocks: [WrittenClock?] = []
        for input in files where clocks.count(where: { $0 != nil }) < Self.clocksEnough {
            clocks.append(input.path.flatMap { try? InputFile($0) }.flatMap { WrittenClock.scan(file: $0.fd) })
        }
        return clocks
    }

    private static let clocksEnough = 16

    /// Adds `path`, named by the user (`root` nil) or found in the directory whose real path is `root`.
    private mutating func add(_ path: String, within root: String?) throws {
        let inDirectory = root != nil
        if path == "-" {
            files.append(Input(name: "<stdin>", path: nil, bytes: 0, inDirectory: false))
            return
        }
        let named: UserPath
        do {
            named = try UserPath(path, for: "read")
        } catch {
            guard inDirectory else { throw error }
            return unreadable.append("\(path) (\(error.reason))")
        }
        guard let status = named.status else { throw FileError(path, "read", SystemError("stat", errno: ENOENT)) }
        // A symbolic link (only a link resolves to another path) is followed to a file within the directory named.
        if let root, named.resolved != path, status.isDirectory || !named.resolved.hasPrefix(root == "/" ? "/" : root + "/") {
            return notFollowed.append(path)
        }
        if status.isDirectory {
            if path.split(separator: "/").last?.hasSuffix(".logarchive") == true { return logArchives.append(try LogArchive(path)) }
            guard walked.insert(named.identity).inserted else { return }
            let names: [String]
            do {
                names = try Sys.directoryEntries(path).filter { !$0.hasPrefix(".") }
            } catch {
                let reason = String(cString: strerror(error.errno))
                guard inDirectory else { throw RuntimeError("cannot read directory '\(path)': \(reason)") }
                return unreadable.append("\(path) (\(reason))")
            }
            var within = root
            if within == nil {
                do throws(SystemError) { within = try Sys.realPath(path) } catch { throw FileError(path, "read", error) }
            }
            for name in names.sorted() { try add(path.hasSuffix("/") ? path + name : path + "/" + name, within: within) }
        } else if !status.isRegular && inDirectory {
            passedOver.append("\(path) (\(status.kindName))")
        } else {
            // A named file is opened (and closed) now, so that one that cannot be read stops the command before work.
            if !inDirectory { _ = try InputFile(path) }
            if path.hasSuffix(".tracev3") { return logArchives.append(try LogArchive(path)) }
            if let first = taken[named.identity] { return again.append("\(path) (as \(first))") }
            taken[named.identity] = path
            files.append(Input(name: path, path: path, bytes: status.size, inDirectory: inDirectory))
        }
    }
}
