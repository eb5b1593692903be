import Glibc
import SupervisorKit

/// The logs to read, opened before any work starts: files, the regular files under directories (sorted, hidden
/// ones skipped), and `-` for standard input. A FIFO, socket or device named as a log is an error; one found in a
/// directory is passed over with a warning, since it cannot be read without waiting on whoever holds its other end.
struct LogInputs {
    struct Input {
        let name: String
        /// nil for standard input.
        let file: InputFile?
        var fd: Int32 { file?.fd ?? 0 }
        var bytes: Int { file?.status.size ?? 0 }
    }

    private(set) var files: [Input] = []
    private var passedOver: [String] = []
    var totalBytes: Int { files.reduce(0) { $0 + $1.bytes } }
    var title: String { files.count == 1 ? files[0].name : "\(files.count) files" }

    init(_ paths: [String]) throws {
        for path in paths { try add(path, inDirectory: false) }
        if !passedOver.isEmpty {
            let shown = passedOver.prefix(3).joined(separator: ", ") + (passedOver.count > 3 ? ", ..." : "")
            printError("supervisor: warning: passed over \(passedOver.count) \(passedOver.count == 1 ? "file" : "files") that "
                + "\(passedOver.count == 1 ? "is" : "are") not regular: \(shown)")
        }
        if files.isEmpty { throw RuntimeError("no files to analyze in \(paths.map { "'\($0)'" }.joined(separator: ", "))") }
    }

    private mutating func add(_ path: String, inDirectory: Bool) throws {
        if path == "-" {
            files.append(Input(name: "<stdin>", file: nil))
            return
        }
        let named = try UserPath(path, for: "read")
        guard let status = named.status else { throw FileError(path, "read", SystemError("stat", errno: ENOENT)) }
        if status.isDirectory {
            let names: [String]
            do {
                names = try Sys.directoryEntries(path).filter { !$0.hasPrefix(".") }
            } catch {
                throw RuntimeError("cannot read directory '\(path)': \(String(cString: strerror(error.errno)))")
            }
            for name in names.sorted() { try add(path.hasSuffix("/") ? path + name : path + "/" + name, inDirectory: true) }
        } else if !status.isRegular && inDirectory {
            passedOver.append("\(path) (\(status.kindName))")
        } else {
            files.append(Input(name: path, file: try InputFile(path)))
        }
    }
}
