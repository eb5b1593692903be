import Text

/// The members of a JetsamEvent report (`bug_type` 298) that say which processes were killed: the entries of
/// `processes` that carry a `reason`. The others were alive when the report was taken, and are only counted. The
/// kill's time is the report's; the page size, needed to turn `rpages` into bytes, may come after the processes.
package struct JetsamFields {
    package struct Entry {
        package var pid: Int?
        package var name: String?
        package var reason: String?
        package var pages: Int?
        package var coalition: Int?
        package var reasonAt = 0
    }

    package private(set) var entries: [Entry] = []
    package private(set) var alive = 0
    package var date: String?
    package var pageSize: Int?

    /// Reads the member `key` if it is one of these; other members are left to be skipped.
    package mutating func take(_ key: Range<Int>, from reader: inout JSONReader) {
        if reader.key(key, is: Key.processes) {
            guard reader.beginArray() else { return }
            while reader.nextElement() {
                guard let entry = Self.entry(&reader) else { continue }
                if entry.reason == nil { alive += 1 } else { entries.append(entry) }
            }
        } else if reader.key(key, is: Key.date) {
            date = reader.string()
        } else if reader.key(key, is: Key.pageSize) {
            pageSize = pageSize ?? reader.integer()
        } else if reader.key(key, is: Key.memoryStatus), reader.beginObject() {
            while let member = reader.nextMember() {
                if reader.key(member, is: Key.pageSize) { pageSize = reader.integer() }
            }
        }
    }

    /// One fact per killed entry that names its pid and process.
    package func facts(_ metadata: IPSReport.Metadata, _ lines: inout ReportLines) -> [ReportFact] {
        let time = (date ?? metadata.time).flatMap(DiagnosticReport.time)
        return entries.compactMap { entry in
            guard let reason = entry.reason, let pid = entry.pid.flatMap(Int32.init(exactly:)), let name = entry.name else {
                return nil
            }
            return ReportFact(
                event: .jetsamKilled(reason: reason, pages: entry.pages, pageSize: pageSize), pid: pid,
                name: name, path: nil, responsible: (nil, nil), coalition: entry.coalition,
                time: time?.micros, zoneSeconds: time?.zoneSeconds, line: lines.line(at: entry.reasonAt),
                text: lines.text(at: entry.reasonAt), os: metadata.os)
        }
    }

    /// An entry of `processes`; nil for an element that is not an object.
    private static func entry(_ reader: inout JSONReader) -> Entry? {
        guard reader.beginObject() else { return nil }
        var entry = Entry()
        while let key = reader.nextMember() {
            if reader.key(key, is: Key.pid) {
                entry.pid = reader.integer()
            } else if reader.key(key, is: Key.name) {
                entry.name = reader.string()
            } else if reader.key(key, is: Key.reason) {
                entry.reasonAt = key.lowerBound - 1
                entry.reason = reader.scalar()
            } else if reader.key(key, is: Key.rpages) {
                entry.pages = reader.integer()
            } else if reader.key(key, is: Key.coalition) {
                entry.coalition = reader.integer()
            }
        }
        return entry
    }

    private enum Key {
        package static let processes = bytes("processes")
        package static let date = bytes("date")
        package static let pageSize = bytes("pageSize")
        package static let memoryStatus = bytes("memoryStatus")
        package static let pid = bytes("pid")
        package static let name = bytes("name")
        package static let reason = bytes("reason")
        package static let rpages = bytes("rpages")
        package static let coalition = bytes("coalition")
    }
}
