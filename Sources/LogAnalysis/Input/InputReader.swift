import Glibc
import System
import Text

/// Reads what a user brings into an analyzer, whatever wraps it: a log or report as it is, a `.gz` of one, a
/// sysdiagnose `.tar.gz` (or `.tar`) member by member, UTF-16 text, Apple's binary unified log. Each file is told
/// from its first bytes, never its name. What cannot be a log is passed over cheaply and said once at the end: binary
/// files found in a directory or an archive.
public final class InputReader {
    /// A file is passed over as binary when more than a tenth of its first `binaryProbe` bytes are control bytes
    /// other than tab, line ends, form feed and escape: a NUL-padded log still reads, a tracev3 or a plist does not.
    package static let binaryProbe = 4096

    /// The most files read from one archive; the rest are counted. Each costs its name in the report, and an archive
    /// of empty members with long names is small packed: without a limit, 3 MB of gzip could hold millions of them.
    package static let memberLimit = 20_000

    private let analyzer: LogAnalyzer
    var found = InputNotes()

    public init(_ analyzer: LogAnalyzer) {
        self.analyzer = analyzer
    }

    /// Reads the open file `fd`, named `name` in the report; `progress` is called with how far into the file the
    /// reading has come. A compressed file must be a regular file: gzip rereads it from its start. A binary file
    /// is passed over when `passingOverBinary` (found in a directory); one the user named is read as it is.
    public func read(_ fd: Int32, name: String, passingOverBinary: Bool, progress: ((Int) -> Void)? = nil) throws(InputError) {
        let tick = { if let progress, let offset = Sys.offset(fd) { progress(offset) } }
        let source: ReplaySource<FileSource>
        do throws(SystemError) { source = try ReplaySource(FileSource(fd: fd), limit: DiagnosticReport.headLimit) } catch {
            throw InputError(name, error)
        }
        guard source.head.starts(with: [0x1F, 0x8B]) else {
            do throws(SystemError) {
                try readUnpacked(source, name: name, passingOverBinary: passingOverBinary, tick: tick)
            } catch {
                throw InputError(name, error)
            }
            return try readTarredArchives(fd, name: name, gzip: nil)
        }
        guard let gzip = Sys.executable(named: "gzip") else {
            throw InputError(name, "it is gzip-compressed, and no 'gzip' program was found on PATH to unpack it")
        }
        let unpacked: GzipSource
        do throws(SystemError) { unpacked = try GzipSource(file: fd, gzip: gzip) } catch {
            guard error.errno == ESPIPE else { throw InputError(name, error) }
            throw InputError(name, "it is gzip-compressed and cannot be reread from its start: unpack it with 'gzip -dc' first")
        }
        do throws(SystemError) {
            let source = try ReplaySource(unpacked, limit: DiagnosticReport.headLimit)
            try readUnpacked(source, name: name, passingOverBinary: passingOverBinary, tick: tick)
        } catch {
            throw InputError(name, error)
        }
        if unpacked.outcome == .failed, found.damaged.last != name { found.damaged.add(name) }
        try readTarredArchives(fd, name: name, gzip: gzip)
    }

    /// Reads a binary unified log (a `.logarchive` folder, a `.tracev3` file): the entries `LogArchive.analysisKeeps`
    /// keeps, in time order, as `log show --style ndjson` would print them. What could not be read is said in `notes`.
    public func read(_ archive: LogArchive) throws(SystemError) {
        let (entries, strings) = archive.entries(keep: LogArchive.analysisKeeps)
        // The device's build says which WebKit it ran, for reasons its log wrote as numbers.
        if let header = entries.headers.first(where: { $0.hardwareModel.hasPrefix("iP") }) {
            analyzer.noteOS("iOS (\(header.build))", from: archive.name)
        }
        let lines = EntryLines(entries)
        try analyzer.read(lines, name: archive.name)
        // What was passed over was read as far as telling whose it is: the file is a log read, not a stranger.
        analyzer.countRead(entries.passedOver + entries.passedOverChunksets)
        archiveNotes += archive.notes(entries, strings: strings)
        if lines.count == 0 {
            archiveNotes.append("\(visible(archive.name)): nothing of WebKit, RunningBoard, the kernel or an app: "
                + "\(grouped(entries.passedOver)) entries and \(grouped(entries.passedOverChunksets)) chunksets of other "
                + "processes passed over" + (strings.missing.isEmpty ? "" : "; without its uuidtext files no process is known to be an app"))
        }
    }

    /// An archive's entries, read by the analyzer as `log show --style ndjson` would print them.
    func analyze(_ reading: ArchiveReading, name: String) throws(SystemError) {
        archiveNotes += reading.notes
        var text: [UInt8] = []
        var clock = NDJSONClock()
        for entry in reading.entries { entry.appendNDJSON(to: &text, clock: &clock) }
        try analyzer.read(BufferSource(text), name: name)
    }

    private var archiveNotes: [String] = []
    /// The `.logarchive` folders of the tar being read.
    var tarred = TarredLogArchives()

    /// What the user should know about the reading, one message each: what was passed over, what was damaged.
    public var notes: [String] { archiveNotes + analyzer.readingNotes + found.messages }

    // MARK: - Inside a file

    private func readUnpacked<S: ByteSource>(
        _ source: ReplaySource<S>, name: String, passingOverBinary: Bool, tick: @escaping () -> Void
    ) throws(SystemError) {
        guard TarReader<S>.isTar(source.head) else {
            return try readText(source, name: name, passingOverBinary: passingOverBinary, tick: tick)
        }
        let archive = TarReader(source)
        tarred = TarredLogArchives()
        var read = 0
        while let entry = try archive.next() {
            let components = entry.path.split(separator: "/")
            if let (folder, relative) = TarredLogArchives.split(entry.path) {
                if entry.kind == .file { try tarred.first(folder, relative) { () throws(SystemError) in try Self.whole(archive) } }
                continue
            }
            let memberName = "\(name):\(entry.path)"
            switch entry.kind {
            case .directory: continue
            case .link: found.links.add(memberName)
            case .sparse: found.sparseMembers.add(memberName)
            case .other: found.otherMembers.add(memberName)
            case .file where components.last?.hasPrefix(".") == true: found.hiddenMembers.add(memberName)
            case .file where read == Self.memberLimit: found.unreadMembers.add(memberName)
            case .file:
                read += 1
                if entry.cut { found.cutNames.add(memberName) }
                let member = try ReplaySource(TarMember(archive: archive), limit: DiagnosticReport.headLimit)
                if member.head.starts(with: [0x1F, 0x8B]) {
                    try readCompressed(member, name: memberName, tick: tick)
                } else {
                    try readText(member, name: memberName, passingOverBinary: true, tick: tick)
                }
                tick()
            }
        }
        if archive.damaged { found.damaged.add(name) }
    }

    /// A gzip member of an archive (a sysdiagnose's `.gz` logs and reports): held in memory up to
    /// `LogArchive.fileLimit`, handed to gzip as a file in memory, and read unpacked as any file.
    private func readCompressed<S: ByteSource>(_ member: ReplaySource<S>, name: String, tick: @escaping () -> Void) throws(SystemError) {
        guard let gzip = Sys.executable(named: "gzip") else { return found.compressedMembers.add(name) }
        var member = member
        let bytes = try Self.upToLimit { (bytes, from) throws(SystemError) in try member.read(into: &bytes, from: from) }
        guard bytes.count < LogArchive.fileLimit else { return found.compressedMembers.add(name) }
        let file = try Sys.memoryFile(named: "member", holding: bytes)
        let unpacked = try GzipSource(file: file.rawValue, gzip: gzip)
        try readText(try ReplaySource(unpacked, limit: DiagnosticReport.headLimit), name: name, passingOverBinary: true, tick: tick)
        if unpacked.outcome == .failed { found.damaged.add(name) }
    }

    private func readText<S: ByteSource>(
        _ source: ReplaySource<S>, name: String, passingOverBinary: Bool, tick: @escaping () -> Void
    ) throws(SystemError) {
        if let order = UTF16Order.of(source.head) {
            return try analyzer.read(UTF16Source(source, order: order), name: name) { _ in tick() }
        }
        guard !passingOverBinary || !Self.looksBinary(source.head) else { return found.binary.add(name) }
        try analyzer.read(source, name: name) { _ in tick() }
    }

    package static func looksBinary(_ head: [UInt8]) -> Bool {
        let probe = head.prefix(binaryProbe)
        let control = probe.count { $0 < 32 && $0 != 9 && $0 != 10 && $0 != 12 && $0 != 13 && $0 != 27 }
        return control * 10 > probe.count
    }
}

/// An input that cannot be read: one sentence naming it and why.
public struct InputError: Error, CustomStringConvertible {
    public let description: String

    package init(_ name: String, _ reason: String) {
        description = "cannot read '\(visible(name))': \(reason)"
    }

    package init(_ name: String, _ error: SystemError) {
        self.init(name, String(cString: strerror(error.errno)))
    }
}
