import Foundation
import UnifiedLog

/// A run's iOS log (the Xcode envelope `IOSConsoleLog` writes) as a device would keep it: a `.logarchive` of tracev3
/// files, uuidtext and shared-cache strings. Each message becomes a format string and its arguments, as WebKit and
/// runningboardd log them: hex addresses `%p`, numbers `%d`, quoted names `'%{public}s'`, the rest literal. WebKit's
/// lines come from the app with WebKit's subsystem, their strings in the shared cache; runningboardd's from itself.
enum IOSLogArchive {
    static let app = "/private/var/containers/Bundle/Application/5F2C9A1E/Supervisor.app/supervisor"
    static let runningBoard = "/usr/libexec/runningboardd"
    static let webKit = "/System/Library/Frameworks/WebKit.framework/WebKit"

    /// Writes the archive of `log` at `folder` (made if need be); returns how many entries it holds.
    @discardableResult
    static func write(_ log: String, to folder: String) throws -> Int {
        let (files, count) = files(log)
        for (path, bytes) in files {
            let url = URL(fileURLWithPath: folder + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        return count
    }

    /// The archive's files by their paths in it, the tracev3 file first; and how many entries it holds.
    static func files(_ log: String) -> (files: [(path: String, bytes: [UInt8])], entries: Int) {
        let entries = log.split(separator: "\n").compactMap { entry(String($0)) }
        let boot = (entries.map(\.wallNanoseconds).min() ?? 0) / 1_000_000_000 - 3600
        let writer = ArchiveWriter(bootWallSeconds: boot)
        for entry in entries { writer.add(entry) }
        var files: [(path: String, bytes: [UInt8])] = []
        if let trace = writer.traceFile() { files.append(("Persist/0000000000000001.tracev3", trace)) }
        return (files + writer.supportFiles(), entries.count)
    }

    /// `2026-11-29 05:52:21.449823+0000 process[pid:tid] [Category] message`.
    static func entry(_ line: String) -> ArchiveWriter.Entry? {
        let parts = line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, let time = wallNanoseconds(parts[0], parts[1]),
            let open = parts[2].firstIndex(of: "["), let colon = parts[2].firstIndex(of: ":"),
            let pid = UInt32(parts[2][parts[2].index(after: open)..<colon]), parts[3].hasPrefix("[")
        else { return nil }
        let name = parts[2][..<open]
        let thread = UInt64(parts[2][parts[2].index(after: colon)...].dropLast(), radix: 16) ?? 1
        let category = String(parts[3].dropFirst().dropLast())
        let (format, arguments) = template(String(parts[4]))
        let runningboardd = name == "runningboardd"
        let webKit = !runningboardd && category != "Lifecycle"
        return ArchiveWriter.Entry(
            wallNanoseconds: time, pid: pid, process: runningboardd ? runningBoard : app, thread: thread,
            subsystem: runningboardd ? "com.apple.runningboard" : webKit ? "com.apple.WebKit" : "",
            category: webKit || runningboardd ? category : "", type: .default, format: format, arguments: arguments,
            library: webKit ? Self.webKit : nil)
    }

    /// The message as a format string and its arguments.
    static func template(_ message: String) -> (String, [ArchiveWriter.Value]) {
        let bytes = Array(message.utf8)
        var format = "", arguments: [ArchiveWriter.Value] = []
        var i = 0
        func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= 48 && bytes[at] <= 57 }
        func isWord(_ at: Int) -> Bool { at >= 0 && at < bytes.count && (bytes[at] >= 65 || isDigit(at)) }
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "0"), i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "x"), !isWord(i - 1) {
                var end = i + 2
                while end < bytes.count, (isDigit(end) || (bytes[end] >= 97 && bytes[end] <= 102)) { end += 1 }
                if end > i + 2, bytes[i + 2] != 48, let value = Int64(String(decoding: bytes[(i + 2)..<end], as: UTF8.self), radix: 16) {
                    format += "%p"
                    arguments.append(.int(value))
                    i = end
                    continue
                }
            }
            if isDigit(i), !isWord(i - 1) {
                var end = i
                while isDigit(end) { end += 1 }
                if !isWord(end), end - i < 18, bytes[i] != 48 || end == i + 1 {
                    format += "%d"
                    arguments.append(.int(Int64(String(decoding: bytes[i..<end], as: UTF8.self))!))
                    i = end
                    continue
                }
            }
            if byte == UInt8(ascii: "'"), let close = bytes[(i + 1)...].firstIndex(of: UInt8(ascii: "'")) {
                format += "'%{public}s'"
                arguments.append(.string(String(decoding: bytes[(i + 1)..<close], as: UTF8.self)))
                i = close + 1
                continue
            }
            format += byte == UInt8(ascii: "%") ? "%%" : String(decoding: [byte], as: UTF8.self)
            i += 1
        }
        return (format, arguments)
    }

    /// `2026-11-29` `05:52:21.449823+0000` as nanoseconds since 1970.
    static func wallNanoseconds(_ date: Substring, _ time: Substring) -> Int? {
        let day = date.split(separator: "-").compactMap { Int($0) }
        guard day.count == 3, time.count >= 20 else { return nil }
        let clock = time.prefix(15).split(separator: ":")
        guard clock.count == 3, let hours = Int(clock[0]), let minutes = Int(clock[1]) else { return nil }
        let secondParts = clock[2].split(separator: ".")
        guard secondParts.count == 2, let seconds = Int(secondParts[0]), let micro = Int(secondParts[1]) else { return nil }
        let zone = time.suffix(5)
        guard let zoneHours = Int(zone.dropFirst().prefix(2)), let zoneMinutes = Int(zone.suffix(2)) else { return nil }
        let offset = (zoneHours * 60 + zoneMinutes) * (zone.first == "-" ? -1 : 1)
        // Days since 1970 of a civil date (Howard Hinnant's algorithm).
        let y = day[1] <= 2 ? day[0] - 1 : day[0]
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (day[1] + (day[1] > 2 ? -3 : 9)) + 2) / 5 + day[2] - 1
        let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
        let secondsSince1970 = days * 86_400 + hours * 3600 + minutes * 60 + seconds - offset * 60
        return secondsSince1970 * 1_000_000_000 + micro * 1000
    }
}
