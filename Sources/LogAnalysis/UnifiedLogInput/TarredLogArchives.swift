import System
import Text
import UnifiedLog

/// The `.logarchive` folders inside a tar (a sysdiagnose `.tar.gz`), read without unpacking to disk. A tar's order
/// need not put the strings files before the tracev3 files that need them, so the reading takes passes over the
/// tar: the first (the analyzer's own) reads each tracev3 file's catalogs for the strings files it needs and keeps
/// those met after the need; a second keeps those met before it; a third decodes the tracev3 files. Memory holds one
/// tracev3 file at a time and only the strings files needed.
final class TarredLogArchives {
    struct Archive {
        var traces = 0
        var needed: Set<String> = []
        var strings: [String: [UInt8]] = [:]
        /// Strings files met before anything needed them.
        var passed: Set<String> = []
        /// The boots' clocks (`timesync/*.timesync`), small and all read in the first pass.
        var timesync = Timesync()
    }

    /// By the archive's folder within the tar.
    private(set) var archives: [String: Archive] = [:]
    private var order: [String] = []
    var isEmpty: Bool { archives.isEmpty }

    /// Whether a second pass is needed: a strings file needed was passed over before the need was known.
    var needsStringsPass: Bool { archives.values.contains { !$0.needed.subtracting($0.strings.keys).isDisjoint(with: $0.passed) } }

    /// `path` within the tar if it lies in a `.logarchive`: the archive's folder and the path within it.
    static func split(_ path: String) -> (folder: String, relative: String)? {
        let components = path.split(separator: "/")
        guard let at = components.firstIndex(where: { $0.hasSuffix(".logarchive") }) else { return nil }
        return (components[...at].joined(separator: "/"), components[(at + 1)...].joined(separator: "/"))
    }

    /// The path under which a strings file is looked up: `uuidtext/XX/…` and `XX/…` alike; nil if it is none.
    static func stringsPath(_ relative: String) -> String? {
        let path = relative.hasPrefix("uuidtext/") ? String(relative.dropFirst(9)) : relative
        let parts = path.split(separator: "/")
        guard parts.count == 2, !parts[1].hasPrefix(".") else { return nil }
        let isHex = { (text: Substring) in text.allSatisfy(\.isHexDigit) }
        if parts[0] == "dsc", parts[1].count == 32, isHex(parts[1]) { return path }
        return parts[0].count == 2 && parts[1].count == 30 && isHex(parts[0]) && isHex(parts[1]) ? path : nil
    }

    /// The first pass: a member of an archive. A tracev3 file's catalogs say what it needs; a strings file already
    /// needed is kept.
    func first(_ folder: String, _ relative: String, read: () throws(SystemError) -> [UInt8]) throws(SystemError) {
        if archives[folder] == nil { order.append(folder) }
        var archive = archives[folder] ?? Archive()
        defer { archives[folder] = archive }
        if relative.hasSuffix(".tracev3"), relative.split(separator: "/").last?.hasPrefix("._") == false {
            archive.traces += 1
            archive.needed.formUnion(TraceFile.stringsFiles(try read()))
        } else if relative.hasPrefix("timesync/"), relative.hasSuffix(".timesync"), !relative.contains("/._") {
            archive.timesync.add(try read())
        } else if let path = Self.stringsPath(relative) {
            if archive.needed.contains(path) { archive.strings[path] = try read() } else { archive.passed.insert(path) }
        }
    }

    /// The second pass: the strings files needed and not yet kept.
    func second(_ folder: String, _ relative: String, read: () throws(SystemError) -> [UInt8]) throws(SystemError) {
        guard let path = Self.stringsPath(relative), let archive = archives[folder], archive.needed.contains(path),
            archive.strings[path] == nil
        else { return }
        archives[folder]!.strings[path] = try read()
    }

    /// The third pass's readings, one per archive, in the order met.
    private var readings: [String: ArchiveReading] = [:]
    private var formats: [String: FormatStrings] = [:]

    func third(_ folder: String, _ relative: String, name: String, read: () throws(SystemError) -> [UInt8]) throws(SystemError) {
        guard relative.hasSuffix(".tracev3"), relative.split(separator: "/").last?.hasPrefix("._") == false,
            let archive = archives[folder]
        else { return }
        let strings = formats[folder] ?? FormatStrings { archive.strings[$0] }
        formats[folder] = strings
        readings[folder, default: ArchiveReading()].add(
            try read(), name: name, strings: strings, timesync: archive.timesync, keep: LogArchive.analysisKeeps)
    }

    /// Each archive read, in the order met: its name and its reading.
    func finished(in tar: String) -> [(name: String, reading: ArchiveReading)] {
        order.map { folder in
            var reading = readings[folder] ?? ArchiveReading()
            reading.finish(strings: formats[folder] ?? FormatStrings { _ in nil }, root: "\(tar):\(folder)")
            return ("\(tar):\(folder)", reading)
        }
    }
}
