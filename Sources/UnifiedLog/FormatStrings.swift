/// Where messages' format strings come from: an archive's uuidtext files (`XX/<30 hex digits>`, one per ordinary
/// binary) and shared-cache strings (`dsc/<32 hex digits>`), each read once, when first needed, through `read` (a
/// path relative to the archive's root to the file's bytes, or nil if it has none).
public final class FormatStrings {
    public typealias Read = (String) -> [UInt8]?

    private let read: Read
    private var texts: [LogUUID: UUIDText?] = [:]
    private var caches: [LogUUID: SharedCacheStrings?] = [:]
    /// Files named by an entry that the archive lacks or that cannot be read, with why.
    public private(set) var missing: [String: String] = [:]

    public init(read: @escaping Read) {
        self.read = read
    }

    /// The format string and sender of a log record; the format read once into its pieces.
    struct Source {
        let format: String
        let senderUUID: LogUUID?
        let senderPath: String
        let parsed: MessageFormat

        init(format: String, senderUUID: LogUUID?, senderPath: String) {
            (self.format, self.senderUUID, self.senderPath) = (format, senderUUID, senderPath)
            parsed = MessageFormat(format)
        }
    }

    /// Each source found (or not), by its strings file, its offset there, and for a dynamic string its address.
    private struct SourceKey: Hashable {
        let file: LogUUID
        let offset: UInt64
        let address: UInt64?
    }

    private var sources: [SourceKey: Source?] = [:]

    private func cached(_ file: LogUUID, _ offset: UInt64, address: UInt64? = nil, _ find: () -> Source?) -> Source? {
        let key = SourceKey(file: file, offset: offset, address: address)
        if let known = sources[key] { return known }
        let found = find()
        if sources.count >= 1 << 16 { sources.removeAll(keepingCapacity: true) }
        sources.updateValue(found, forKey: key)
        return found
    }

    public static func uuidTextPath(_ uuid: LogUUID) -> String {
        let hex = uuid.hex
        return String(hex.prefix(2)) + "/" + String(hex.dropFirst(2))
    }

    func uuidText(_ uuid: LogUUID) -> UUIDText? {
        if let known = texts[uuid] { return known }
        let text = load(Self.uuidTextPath(uuid)) { bytes throws(ChunkFailure) in try UUIDText(bytes) }
        texts.updateValue(text, forKey: uuid)  // a miss is kept too: each file is looked for once
        return text
    }

    func sharedCache(_ uuid: LogUUID) -> SharedCacheStrings? {
        if let known = caches[uuid] { return known }
        let cache = load("dsc/" + uuid.hex) { bytes throws(ChunkFailure) in try SharedCacheStrings(bytes) }
        caches.updateValue(cache, forKey: uuid)
        return cache
    }

    private func load<T>(_ path: String, _ parse: ([UInt8]) throws(ChunkFailure) -> T) -> T? {
        guard let bytes = read(path) else {
            missing[path] = "not in the archive"
            return nil
        }
        do throws(ChunkFailure) {
            return try parse(bytes)
        } catch {
            missing[path] = error.reason
            return nil
        }
    }

    /// The image path of a process's main executable, from its uuidtext file's footer.
    func imagePath(_ uuid: LogUUID) -> String? { uuidText(uuid)?.imagePath }

    /// Where `record`'s format string lies, found: in its process's main executable, in the shared cache, in the
    /// image loaded at its address, or in the image its UUID names. A dynamic reference (high bit set) is a bare `%s`.
    func source(of record: LogRecord, reference: UInt32, process: Catalog.Process, catalog: Catalog) -> Source? {
        let dynamic = reference & 0x8000_0000 != 0
        let offset = record.formatOffset(reference)
        func text(_ uuid: LogUUID) -> Source? {
            cached(uuid, dynamic ? UInt64.max : offset) {
                guard let text = uuidText(uuid) else { return nil }
                guard let format = dynamic ? "%s" : text.string(at: offset) else { return nil }
                return Source(format: format, senderUUID: uuid, senderPath: text.imagePath)
            }
        }
        switch record.stringsFile {
        case .mainExecutable:
            return catalog.uuid(process.mainUUID).flatMap(text)
        case .uuidRelative(let uuid):
            return text(uuid)
        case .absolute(let upper):
            let address = UInt64(upper) << 32 | UInt64(record.address)
            let image = process.images.first { address >= $0.load && address - $0.load < UInt64($0.size) }
            return image.flatMap { catalog.uuid($0.uuid) }.flatMap(text)
        case .sharedCache, .largeSharedCache:
            guard let uuid = process.sharedCacheUUID.flatMap(catalog.uuid) else { return nil }
            return cached(uuid, offset, address: dynamic ? UInt64(record.address) : nil) {
                guard let cache = sharedCache(uuid) else { return nil }
                if dynamic {
                    let image = cache.image(holding: UInt64(record.address))
                    return Source(format: "%s", senderUUID: image?.uuid, senderPath: image?.path ?? "")
                }
                guard let (format, image) = cache.string(at: offset) else { return nil }
                return Source(format: format, senderUUID: image.uuid, senderPath: image.path)
            }
        case .unknown:
            return nil
        }
    }
}

extension Catalog {
    func uuid(_ index: Int) -> LogUUID? { uuids.indices.contains(index) ? uuids[index] : nil }
}

extension LogUUID {
    /// 32 uppercase hex digits, as archives name their strings files.
    var hex: String { description.filter { $0 != "-" } }
}
