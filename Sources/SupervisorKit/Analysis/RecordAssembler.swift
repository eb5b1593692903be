/// Groups lines into records: a first line in a known envelope and the lines that continue it (indented lines, an
/// NSError dump's closing brace, flutter's hard wraps). A line that names none of the words WebKit, RunningBoard or
/// our logs use (`Marker.relevant`) is counted and dropped without a copy or a `String`.
struct RecordAssembler {
    static let recordLimit = 16 << 10

    /// Lines per format, by `LogFormat.index`: counted for every line, so kept out of a dictionary.
    private(set) var formatCounts = [Int](repeating: 0, count: LogFormat.allCases.count)
    /// Blank lines and lines in no envelope the analyzer knows.
    private(set) var linesSkipped = 0

    private var record: [UInt8] = []
    private var format = LogFormat.messageOnly
    private var firstLine = 0
    private var kept = false
    private var open = false
    private var wrappedLines = 0

    /// A record the assembler completed: its bytes (cut at `recordLimit`), its envelope and the line it starts on.
    typealias Emit = (Span<UInt8>, LogFormat, Int) -> Void

    /// Takes the next line; calls `emit` with the record it completes, if any.
    mutating func take(_ text: Span<UInt8>, line: Int, emit: Emit) {
        switch Envelope.shape(of: text) {
        case .blank:
            linesSkipped += 1
        case .continuation where open:
            count(format)
            append(text, separator: 10, keep: kept || relevant(text))
        case .bare where open && format == .flutter && wrappedLines < 8:
            // flutter -v hard-wraps long device lines: the rest has no prefix, and nothing was lost at the cut.
            wrappedLines += 1
            count(.flutter)
            append(text, separator: nil, keep: true)
        case .continuation, .bare:
            finish(emit: emit)
            if relevant(text) {
                start(.messageOnly, text, line: line, keep: true)
            } else {
                linesSkipped += 1
            }
        case .record(let format):
            finish(emit: emit)
            let device = format == .flutter && text.contains(Marker.deviceLog)
            start(format, text, line: line, keep: format.keepsEveryRecord || format == .logShowJSON || device || relevant(text))
        }
    }

    /// Ends the open record, if any, and emits it if it is worth reading.
    mutating func finish(emit: Emit) {
        guard open else { return }
        open = false
        guard kept, format.keepsEveryRecord || relevant(record.span) else { return }
        emit(record.span, format, firstLine)
    }

    private func relevant(_ text: Span<UInt8>) -> Bool {
        Marker.relevant.occur(in: text)
    }

    private mutating func count(_ format: LogFormat) {
        formatCounts[format.index] += 1
    }

    private mutating func start(_ format: LogFormat, _ text: Span<UInt8>, line: Int, keep: Bool) {
        count(format)
        record.removeAll(keepingCapacity: true)
        self.format = format
        firstLine = line
        kept = false
        open = true
        wrappedLines = 0
        append(text, separator: nil, keep: keep)
    }

    private mutating func append(_ text: Span<UInt8>, separator: UInt8?, keep: Bool) {
        guard keep else { return }
        kept = true
        if let separator, record.count < Self.recordLimit { record.append(separator) }
        for i in 0..<min(text.count, Self.recordLimit - record.count) { record.append(text[i]) }
    }
}

extension LogFormat {
    /// Our own logs: every record counts, though most name no word `Marker.relevant` looks for.
    var keepsEveryRecord: Bool { self == .eventLog || self == .jetsamLog }
}
