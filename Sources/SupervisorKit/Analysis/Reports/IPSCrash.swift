import Events
/// The members of a JSON crash report (`bug_type` 309) that say which process crashed, when and how, gathered in
/// whatever order they come; `threads` and `usedImages`, most of the report, are skipped unread.
struct CrashFields {
    var pid: Int?
    var name: String?
    var path: String?
    var parent: (name: String?, pid: Int?)
    var responsible: (name: String?, pid: Int?)
    var coalition: Int?
    var time: String?
    var exception: String?
    var signal: String?
    var termination: (namespace: String?, code: String?, indicator: String?)
    /// Where the members the evidence cites begin: the exception, else the termination, else the name, else the pid.
    var exceptionAt: Int?
    var terminationAt: Int?
    var nameAt: Int?
    var pidAt: Int?

    /// Reads the member `key` if it is one of these; false leaves its value to be skipped.
    mutating func take(_ key: Range<Int>, from reader: inout JSONReader) -> Bool {
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
    func fact(_ metadata: IPSReport.Metadata, _ lines: inout ReportLines) -> ReportFact? {
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
            text: lines.text(at: cited))
    }

    private enum Key {
        static let pid = bytes("pid")
        static let procName = bytes("procName")
        static let procPath = bytes("procPath")
        static let parentProc = bytes("parentProc")
        static let parentPid = bytes("parentPid")
        static let responsibleProc = bytes("responsibleProc")
        static let responsiblePid = bytes("responsiblePid")
        static let coalitionID = bytes("coalitionID")
        static let captureTime = bytes("captureTime")
        static let exception = bytes("exception")
        static let termination = bytes("termination")
        static let type = bytes("type")
        static let signal = bytes("signal")
        static let namespace = bytes("namespace")
        static let code = bytes("code")
        static let indicator = bytes("indicator")
    }
}
