import Events

/// The members of a JSON crash report (`bug_type` 309) that say which process crashed, when and how, gathered in
/// whatever order they come; `threads` and `usedImages`, most of the report, are skipped unread.
package struct CrashFields {
    package var pid: Int?
    package var name: String?
    package var path: String?
    package var parent: (name: String?, pid: Int?)
    package var responsible: (name: String?, pid: Int?)
    package var coalition: Int?
    package var time: String?
    package var exception: String?
    package var signal: String?
    package var termination: (namespace: String?, code: String?, indicator: String?)
    /// Where the members the evidence cites begin: the exception, else the termination, else the name, else the pid.
    package var exceptionAt: Int?
    package var terminationAt: Int?
    package var nameAt: Int?
    package var pidAt: Int?

    /// Reads the member `key` if it is one of these; false leaves its value to be skipped.
    package mutating func take(_ key: Range<Int>, from reader: inout JSONReader) -> Bool {
        let at = key.lowerBound - 1
        switch key.count {
        case 3 where reader.key(key, is: Key.pid):
            pid = reader.integer()
            pidAt = at
        case 8 where reader.key(key, is: Key.procName):
            name = reader.string()
            nameAt = at
        case 8 where reader.key(key, is: Key.procPath):
            path = reader.string()
        case 10 where reader.key(key, is: Key.parentProc):
            parent.name = reader.string()
        case 9 where reader.key(key, is: Key.parentPid):
            parent.pid = reader.integer()
        case 15 where reader.key(key, is: Key.responsibleProc):
            responsible.name = reader.string()
        case 14 where reader.key(key, is: Key.responsiblePid):
            responsible.pid = reader.integer()
        case 11 where reader.key(key, is: Key.coalitionID):
            coalition = reader.integer()
        case 11 where reader.key(key, is: Key.captureTime):
            time = reader.string()
        case 9 where reader.key(key, is: Key.exception):
            exceptionAt = at
            guard reader.beginObject() else { return true }
            while let member = reader.nextMember() {
                if reader.key(member, is: Key.type) {
                    exception = reader.string()
                } else if reader.key(member, is: Key.signal) {
                    signal = reader.string()
                }
            }
        case 11 where reader.key(key, is: Key.termination):
            terminationAt = at
            guard reader.beginObject() else { return true }
            var read: (namespace: String?, code: String?, indicator: String?)
            while let member = reader.nextMember() {
                if reader.key(member, is: Key.namespace) {
                    read.namespace = reader.scalar()
                } else if reader.key(member, is: Key.code) {
                    read.code = reader.scalar()
                } else if reader.key(member, is: Key.indicator) {
                    read.indicator = reader.string()
                }
            }
            // Its parts are written as one phrase, which a cut would leave looking whole but saying less.
            if !reader.stopped { termination = read }
        default:
            return false
        }
        return true
    }

    /// The report's one fact: nil without a pid, which a report cut off in its first lines may lack.
    package func fact(_ metadata: IPSReport.Metadata, _ lines: inout ReportLines) -> ReportFact? {
        guard let pid = pid.flatMap(Int32.init(exactly:)), let name = name ?? metadata.name else { return nil }
        let time = (time ?? metadata.time).flatMap(DiagnosticReport.time)
        let cited = exceptionAt ?? terminationAt ?? nameAt ?? pidAt ?? 0
        var words: [String] = []
        if let namespace = termination.namespace { words.append("Namespace \(namespace)") }
        if let code = termination.code { words.append("Code \(code)") }
        if let indicator = termination.indicator { words.append(indicator) }
        return ReportFact(
            event: .crashed(exception: exception, signal: signal, termination: words.isEmpty ? nil : words.joined(separator: ", ")),
            pid: pid, name: name, path: path, responsible: ReportFact.host(responsible: responsible, parent: parent),
            coalition: coalition, time: time?.micros, zoneSeconds: time?.zoneSeconds, line: lines.line(at: cited),
            text: lines.text(at: cited), os: metadata.os)
    }

    private enum Key {
        package static let pid = bytes("pid")
        package static let procName = bytes("procName")
        package static let procPath = bytes("procPath")
        package static let parentProc = bytes("parentProc")
        package static let parentPid = bytes("parentPid")
        package static let responsibleProc = bytes("responsibleProc")
        package static let responsiblePid = bytes("responsiblePid")
        package static let coalitionID = bytes("coalitionID")
        package static let captureTime = bytes("captureTime")
        package static let exception = bytes("exception")
        package static let termination = bytes("termination")
        package static let type = bytes("type")
        package static let signal = bytes("signal")
        package static let namespace = bytes("namespace")
        package static let code = bytes("code")
        package static let indicator = bytes("indicator")
    }
}
