import Glibc
import System
import UnifiedLog

/// Apple's binary unified log as a user brings it: a `.logarchive` folder (a sysdiagnose's `system_logs.logarchive`),
/// a folder under one, or a `.tracev3` file. Its tracev3 files are read one at a time; the strings files their
/// messages are made with (`XX/…` uuidtext files, `dsc/…`) are read from the archive's root when first needed, or
/// from `uuidtext/` under it, as a device's `/private/var/db` keeps them beside `diagnostics/`.
public struct LogArchive {
    /// The largest tracev3 or strings file read: logd writes tracev3 files of about 10 MB, shared-cache strings of
    /// tens of MB.
    public static let fileLimit = 256 << 20

    public let name: String
    /// The tracev3 files, sorted.
    public let traceFiles: [String]
    /// The folder strings files are read from; nil when none was found.
    public let root: String?

    /// The archive at `path`. Its root is the folder itself, or the nearest one above a file or a `Persist`-style
    /// folder that holds `dsc`, `timesync` or `uuidtext`.
    public init(_ path: String) throws {
        let named = try UserPath(path, for: "read")
        guard let status = named.status else { throw FileError(path, "read", SystemError("stat", errno: ENOENT)) }
        name = path
        traceFiles = status.isDirectory ? try Self.traceFiles(under: path) : [path]
        var folder = status.isDirectory ? path : Self.parent(path)
        var root: String?
        for _ in 0..<3 {
            if ["dsc", "timesync", "uuidtext"].contains(where: { Self.isFolder(folder + "/" + $0) }) {
                root = folder
                break
            }
            folder = Self.parent(folder)
        }
        self.root = root ?? (status.isDirectory ? path : nil)
    }

    /// Format strings read from the root, each file once.
    public func strings() -> FormatStrings {
        let root = self.root
        return FormatStrings { path in
            guard let root else { return nil }
            for folder in [root, root + "/uuidtext"] {
                if let bytes = try? InputFile(folder + "/" + path).readAll(limit: Self.fileLimit) { return bytes }
            }
            return nil
        }
    }

    /// Every `.tracev3` file under `path`, sorted; AppleDouble `._` files and symbolic links to folders passed over.
    static func traceFiles(under path: String) throws -> [String] {
        var found: [String] = []
        var folders = [path]
        while let folder = folders.popLast() {
            let names: [String]
            do throws(SystemError) { names = try Sys.directoryEntries(folder) } catch {
                throw FileError(folder, "read", error)
            }
            for name in names.sorted() where !name.hasPrefix("._") {
                let child = folder + "/" + name
                guard let kind = try? Sys.status(ofPath: child) else { continue }
                if kind.isDirectory { folders.append(child) } else if kind.isRegular, name.hasSuffix(".tracev3") { found.append(child) }
            }
        }
        return found.sorted()
    }

    private static func isFolder(_ path: String) -> Bool { (try? Sys.status(ofPath: path, following: true))??.isDirectory == true }

    private static func parent(_ path: String) -> String {
        guard let slash = path.dropLast().lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
