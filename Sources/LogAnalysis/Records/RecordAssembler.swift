import System
import Text

/// Groups lines into records: a first line in a known envelope and the lines that continue it (indented lines, an
/// NSError dump's closing brace, flutter's hard wraps), as `Envelope.shape(of:)` tells them. A record is read only
/// if it names one of the words WebKit, RunningBoard or our logs use (`Marker.relevant`), or if its format keeps
/// every record. It is given the lines around the hits `RecordScanner` finds, or every line of a file.
package struct RecordAssembler {
    package static let recordLimit = 16 << 10

    /// Lines in the records read, per format, by `LogFormat.index`: kept out of a dictionary, as they are counted
    /// for every line taken.
    package private(set) var formatCounts = [Int](repeating: 0, count: LogFormat.allCases.count)
    /// Lines in no record read: blank, in no envelope the analyzer knows, in a record that names nothing it reads,
    /// or never looked at.
    package private(set) var linesSkipped = 0
    /// Of those, the lines in no envelope the analyzer knows (naming nothing it reads): what it could not tell
    /// apart, as against the lines it read as records of a known envelope and found not about WebContent.
    package private(set) var linesNotUnderstood = 0
    /// Lines taken that are in a known envelope (or continue one), read or not: how a file shows it is in a format
    /// the analyzer reads, though nothing in it matters. Exact for the lines a file's first window gives, and for
    /// every record read.
    package private(set) var placedLines = 0
    /// A record of a format that keeps every record was taken in this file: the rest of it must be read line by
    /// line.
    package private(set) var keepsEveryRecordSeen = false

    private var record: [UInt8] = []
    private var format = LogFormat.messageOnly
    private var firstLine = 0
    private var lines = 0
    private var open = false
    private var wrappedLines = 0

    /// A record the assembler completed: its bytes (cut at `recordLimit`), its envelope and the line it starts on.
    package typealias Emit = (Span<UInt8>, LogFormat, Int) -> Void

    /// A new file starts: what the last one was made of says nothing of this one.
    package mutating func beginFile() {
        keepsEveryRecordSeen = false
    }

    /// Takes the next line; calls `emit` with the record it completes, if any.
    package mutating func take(_ text: Span<UInt8>, line: Int, emit: Emit) {
        take(text, shape: Envelope.shape(of: text), line: line, emit: emit)
    }

    /// Takes the next line, whose shape the caller has already told.
    package mutating func take(_ text: Span<UInt8>, shape: LineShape, line: Int, emit: Emit) {
        switch shape {
        case .blank:
            linesSkipped += 1
        case .continuation where open:
            placedLines += 1
            append(text, separator: 10)
        case .bare where open && format == .flutter && wrappedLines < 8:
            // flutter -v hard-wraps long device lines: the rest has no prefix, and nothing was lost at the cut.
            placedLines += 1
            wrappedLines += 1
            append(text, separator: nil)
        case .continuation, .bare:
            finish(emit: emit)
            if relevant(text) {
                placedLines += 1
                start(.messageOnly, text, line: line)
            } else {
                linesSkipped += 1
                linesNotUnderstood += 1
            }
        case .record(let format):
            placedLines += 1
            finish(emit: emit)
            start(format, text, line: line)
        }
    }

    package var isOpen: Bool { open }

    /// Whether a line of this shape would leave the open record open: more of it, or a blank line within it.
    package func continues(_ shape: LineShape) -> Bool {
        switch shape {
        case .blank, .continuation: open
        case .bare: open && format == .flutter && wrappedLines < 8
        case .record: false
        }
    }

    /// Ends the open record, if any, and emits it if it is worth reading.
    package mutating func finish(emit: Emit) {
        guard open else { return }
        open = false
        guard format.keepsEveryRecord || relevant(record.span) else {
            linesSkipped += lines
            return
        }
        formatCounts[format.index] += lines
        emit(record.span, format, firstLine)
    }

    /// Counts lines that were never taken.
    package mutating func skip(_ count: Int) {
        linesSkipped += count
    }

    private func relevant(_ text: Span<UInt8>) -> Bool {
        Marker.relevant.occur(in: text)
    }

    private mutating func start(_ format: LogFormat, _ text: Span<UInt8>, line: Int) {
        record.removeAll(keepingCapacity: true)
        self.format = format
        firstLine = line
        lines = 0
        open = true
        wrappedLines = 0
        if format.keepsEveryRecord { keepsEveryRecordSeen = true }
        append(text, separator: nil)
    }

    private mutating func append(_ text: Span<UInt8>, separator: UInt8?) {
        lines += 1
        if let separator, record.count < Self.recordLimit { record.append(separator) }
        Sys.append(text.extracting(0..<min(text.count, Self.recordLimit - record.count)), to: &record)
    }
}
