import Glibc

/// The real unified-log files of Tests/Fixtures/unified-log (libyal's dtformats test data; NOTICE.md there).
enum Fixture {
    static let folder: String = {
        var path = #filePath
        for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/Fixtures/unified-log"
    }()

    static let iOS = "0000000000000f85"
    static let mac = "0000000000000030"

    /// The bytes of the file `name` there.
    static func bytes(_ name: String) -> [UInt8] {
        let file = fopen(folder + "/" + name, "rb")!
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }
}
