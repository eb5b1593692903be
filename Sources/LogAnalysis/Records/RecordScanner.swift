import Events
import System
import Text

/// Finds the records worth reading without looking at every line. The words of `Marker.looked` are looked for
/// across a whole window of lines in one vector pass, which counts the newlines it passes on the way; only around a
/// hit are lines told apart: back from the hit's line to the nearest line that starts a record (at most
/// `LineLimits.lookBehind` bytes back, and never into lines already taken), then forward over the lines that continue
/// it. The assembler is given those lines in order, with their numbers, as it would be given every line.
///
/// A file's first window is read line by line, and so is the rest of a file once a record of a format that keeps
/// every record (our JSON Lines logs) turns up, since most of their records name no relevant word; their `"event":`
/// key is looked for beside the words, so that one turns up wherever it is.
package struct RecordScanner {
    private enum Reading { case everyLine, aroundHits }

    private var reading = Reading.everyLine
    /// Lines before the position being looked at: at the end, the lines read.
    package private(set) var lines = 0
    /// Lines given to the assembler.
    private var taken = 0
    /// Where the lines taken end, while that is still in the buffer: a walk back stops there.
    private var takenEnd: Int? = 0
    /// The record taken last is still open at the window's end: the next window starts with its continuations.
    private var continuing = false
    /// The hits found ahead of time in the window being scanned, the next of them to look at, and the lines before
    /// the window (the hits count newlines from its start).
    private var found: Prescan?
    private var nextFound = 0
    private var linesBeforeWindow = 0

    /// Whether hits are what the scanner looks for now (a window found ahead of time saves it that pass).
    package var skims: Bool { reading == .aroundHits }

    /// Gives `assembler` the lines of `range` (whole lines of `buffer`, each ending with a newline) that it must
    /// see. `moved` is by how much the reader moved the lines before the range since the last call; `prescan` holds
    /// the hits a helper thread found in the range, if one looked.
    package mutating func scan(
        _ range: Range<Int>, moved: Int, in buffer: [UInt8], prescan: Prescan? = nil,
        into assembler: inout RecordAssembler, emit: RecordAssembler.Emit
    ) {
        takenEnd = takenEnd.flatMap { $0 >= moved ? $0 - moved : nil }
        found = prescan
        nextFound = 0
        linesBeforeWindow = lines
        defer { found = nil }
        let window = LineWindow(buffer: buffer, end: range.upperBound)
        var at = range.lowerBound
        if continuing {
            at = follow(from: at, window, into: &assembler, emit: emit)
            if continuing { return }
        }
        switch reading {
        case .everyLine:
            takeEvery(from: at, window, into: &assembler, emit: emit)
            // The first lines of a file tell what it is.
            if taken > 0, !assembler.keepsEveryRecordSeen {
                reading = .aroundHits
                continuing = assembler.isOpen
            }
        case .aroundHits:
            while at < range.upperBound {
                at = takeAroundNextHit(from: at, window, into: &assembler, emit: emit)
                // Every line from here on, even when the record that says so goes on into the next window.
                if assembler.keepsEveryRecordSeen { reading = .everyLine }
                if continuing { return }
                if reading == .everyLine { return takeEvery(from: at, window, into: &assembler, emit: emit) }
            }
        }
    }

    /// Ends the input: the open record is emitted if it is worth reading, and the lines never taken are counted.
    package mutating func finish(into assembler: inout RecordAssembler, emit: RecordAssembler.Emit) {
        assembler.finish(emit: emit)
        assembler.skip(lines - taken)
    }

    // MARK: - Around a hit

    /// Finds the next hit from `start` on and takes the record it is in, from its first line to its last; returns
    /// where the lines not yet looked at start (the window's end if there is no hit).
    private mutating func takeAroundNextHit(
        from start: Int, _ window: LineWindow, into assembler: inout RecordAssembler, emit: RecordAssembler.Emit
    ) -> Int {
        let (hit, lineStart) = nextHit(from: start, window)
        guard hit < window.end else { return hit }
        let lineEnd = window.lineEnd(from: hit)
        // A hit past the part of its line that is read is no hit.
        guard hit - lineStart < LineLimits.maximumLength else {
            lines += 1
            return lineEnd + 1
        }
        let text = window.text(lineStart, lineEnd)
        let shape = window.shape(text)
        var (line, number) = walkBack(from: lineStart, shape: shape, window)
        while line < lineStart {
            let end = window.lineEnd(from: line)
            take(window.text(line, end), of: window, shape: nil, number: number, into: &assembler, emit: emit)
            line = end + 1
            number += 1
        }
        lines += 1
        take(text, of: window, shape: shape, number: lines, into: &assembler, emit: emit)
        return follow(from: lineEnd + 1, window, into: &assembler, emit: emit)
    }

    /// The first hit from `start` on (the window's end if there is none) and where its line starts, from the hits
    /// found ahead of time while they last; `lines` becomes the number of lines before that line.
    private mutating func nextHit(from start: Int, _ window: LineWindow) -> (at: Int, lineStart: Int) {
        var from = start
        if let found {
            while nextFound < found.count {
                let hit = found.hits[nextFound]
                nextFound += 1
                if hit.line_start >= start {
                    lines = linesBeforeWindow + hit.newlines
                    return (hit.at, hit.line_start)
                }
            }
            self.found = nil
            // The helper found every hit up to where it stopped.
            if found.end >= start {
                lines = linesBeforeWindow + found.newlines
                from = found.end
            }
        }
        let (hit, newlines, lineStart) = Marker.looked.next(in: window.buffer, from..<window.end)
        lines += newlines
        return (hit, lineStart)
    }

    /// The line to start from so that the assembler reads the hit's line as it would reading every line: the
    /// nearest line at or before it whose shape starts a record. Failing that, the earliest line the walk may reach,
    /// from which the assembler starts with no record open.
    private func walkBack(from lineStart: Int, shape: LineShape, _ window: LineWindow) -> (Int, Int) {
        var line = lineStart
        var number = lines + 1
        var shape = shape
        let bound = max(0, lineStart - LineLimits.lookBehind)
        let floor = takenEnd.map { max($0, bound) } ?? bound
        while !shape.startsRecord, line > floor {
            let previous: Int
            if let newline = Sys.lastIndex(of: 10, in: window.buffer, floor..<line - 1) {
                previous = newline + 1
            } else if floor == takenEnd {
                previous = floor
            } else {
                break
            }
            shape = window.shape(window.text(previous, line - 1))
            line = previous
            number -= 1
        }
        return (line, number)
    }

    /// Takes the lines from `start` on that continue the open record, and ends it at the first that does not;
    /// returns where it stopped. At the window's end the record may go on: `continuing` says so.
    private mutating func follow(
        from start: Int, _ window: LineWindow, into assembler: inout RecordAssembler, emit: RecordAssembler.Emit
    ) -> Int {
        var at = start
        continuing = true
        while at < window.end {
            let end = window.lineEnd(from: at)
            let text = window.text(at, end)
            let shape = window.shape(text)
            guard assembler.continues(shape) else {
                assembler.finish(emit: emit)
                continuing = false
                break
            }
            lines += 1
            take(text, of: window, shape: shape, number: lines, into: &assembler, emit: emit)
            at = end + 1
        }
        takenEnd = at
        return at
    }

    private mutating func takeEvery(
        from start: Int, _ window: LineWindow, into assembler: inout RecordAssembler, emit: RecordAssembler.Emit
    ) {
        var at = start
        while at < window.end {
            let end = window.lineEnd(from: at)
            lines += 1
            take(window.text(at, end), of: window, shape: nil, number: lines, into: &assembler, emit: emit)
            at = end + 1
        }
        takenEnd = at
    }

    private mutating func take(
        _ text: Range<Int>, of window: LineWindow, shape: LineShape?, number: Int, into assembler: inout RecordAssembler,
        emit: RecordAssembler.Emit
    ) {
        taken += 1
        assembler.take(window.buffer.span.extracting(text), shape: shape ?? window.shape(text), line: number, emit: emit)
    }
}

/// The whole lines of the reader's buffer up to `end`, and the history before them.
private struct LineWindow {
    package let buffer: [UInt8]
    package let end: Int

    /// The newline that ends the line holding `at`: every line of a window has one.
    package func lineEnd(from at: Int) -> Int {
        Sys.firstIndex(of: 10, in: buffer, at..<end)!
    }

    /// The line from `start` to its newline at `end`, as read: cut at `LineLimits.maximumLength`, without the `\r`
    /// of a CRLF.
    package func text(_ start: Int, _ end: Int) -> Range<Int> {
        var upper = min(end, start + LineLimits.maximumLength)
        if upper > start, buffer[upper - 1] == 13 { upper -= 1 }
        return start..<upper
    }

    package func shape(_ text: Range<Int>) -> LineShape {
        Envelope.shape(of: buffer.span.extracting(text))
    }
}

extension LineShape {
    package var startsRecord: Bool {
        if case .record = self { true } else { false }
    }
}

/// The hits a helper thread found in a window ahead of time: the first of each line, and where it stopped with the
/// newlines from the window's start to there.
package struct Prescan {
    package let hits: [Sys.NeedleHit]
    package let count: Int
    package let end: Int
    package let newlines: Int
}

extension LineReader {
    /// Reads the source to its end, giving `assembler` the lines it must see; `afterRead` is called with the bytes
    /// read so far after every block. Returns the number of lines read.
    ///
    /// Each window is read before the one before it is worked on, so that a helper thread can look for the hits in
    /// the one while the scanner takes the records of the other (and the analyzer reads them).
    package mutating func records(
        into assembler: inout RecordAssembler, emit: RecordAssembler.Emit, afterRead: (Int) -> Void = { _ in }
    ) throws(SystemError) -> Int {
        var scanner = RecordScanner()
        var helper = Helper.notStarted
        var waiting: (lines: Range<Int>, moved: Int, prescan: Prescan?)?
        while let (window, moved) = try nextWindow() {
            afterRead(bytesRead)
            guard let (lines, lastMoved, prescan) = waiting else {
                waiting = (window, moved, nil)
                continue
            }
            var ahead: Prescan?
            if scanner.skims, window.count >= LookAhead.worthwhile, let lookAhead = helper.lookAhead() {
                ahead = lookAhead.scan(window, of: buffer) {
                    scanner.scan(lines, moved: lastMoved, in: previous, prescan: prescan, into: &assembler, emit: emit)
                }
            } else {
                scanner.scan(lines, moved: lastMoved, in: previous, prescan: prescan, into: &assembler, emit: emit)
            }
            waiting = (window, moved, ahead)
        }
        if let (lines, moved, prescan) = waiting {
            scanner.scan(lines, moved: moved, in: buffer, prescan: prescan, into: &assembler, emit: emit)
        }
        scanner.finish(into: &assembler, emit: emit)
        return scanner.lines
    }
}

/// The helper thread of one input: started when a window is first worth scanning ahead, so never for a small input.
private enum Helper {
    case notStarted, running(LookAhead), unavailable

    package mutating func lookAhead() -> LookAhead? {
        switch self {
        case .running(let lookAhead):
            return lookAhead
        case .unavailable:
            return nil
        case .notStarted:
            guard let thread = Sys.NeedleThread(Marker.looked) else {
                self = .unavailable
                return nil
            }
            let lookAhead = LookAhead(thread)
            self = .running(lookAhead)
            return lookAhead
        }
    }
}

/// A helper thread and the two lists of hits it fills in turn: one for the window it scans, one for the window the
/// scanner works on meanwhile.
private final class LookAhead {
    /// Hits found ahead in one window at most; past them the scanner looks on by itself.
    package static let capacity = 16 << 10
    /// A smaller window is scanned where it is taken: handing it over would cost more than it saves.
    package static let worthwhile = 256 << 10

    private let thread: Sys.NeedleThread
    private var filling = [Sys.NeedleHit](repeating: Sys.NeedleHit(), count: capacity)
    private var filled = [Sys.NeedleHit](repeating: Sys.NeedleHit(), count: capacity)

    package init(_ thread: Sys.NeedleThread) {
        self.thread = thread
    }

    /// Runs `body` while the thread finds the hits of `window` in `buffer`; returns them.
    package func scan(_ window: Range<Int>, of buffer: [UInt8], while body: () -> Void) -> Prescan {
        let found = thread.scanning(buffer, window, into: &filling, while: body)
        swap(&filling, &filled)
        return Prescan(hits: filled, count: found.count, end: found.end, newlines: found.newlines)
    }
}
