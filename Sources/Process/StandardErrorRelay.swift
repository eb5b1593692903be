import Glibc
import System
import Text

/// A worker's standard error, passed on to the supervisor's a line at a time, each line named by the worker's
/// pid and shown visibly (`visible`): a worker's stderr is not the operator's terminal, so a page that took over its
/// worker can neither drive the terminal with escape sequences nor pass a line off as the supervisor's own.
///
/// What a worker writes there is still worth seeing: its runtime's last words when it traps, a `--worker` script's
/// errors. So the first `shownLines` lines of each worker are shown, each cut at `longestLine` bytes; the rest is
/// read and counted, never kept, and its size said in one line when the worker is reaped. A worker flooding its
/// stderr costs the supervisor one bounded read per wake-up and no memory; the pipe it fills blocks only the worker.
struct StandardErrorRelay: ~Copyable {
    private let pid: Int32
    /// The pipe's read end (non-blocking) until the worker is reaped.
    private var pipe: FileDescriptor?
    /// Its number, to watch for reading, until `finish`.
    private(set) var descriptor: Int32?
    /// The line being read, at most `longestLine` bytes, and whether more of it was dropped.
    private var line: [UInt8] = []
    private var lineCut = false
    private var shown = 0
    private var hiddenBytes = 0

    init(pid: Int32, pipe: consuming FileDescriptor) {
        self.pid = pid
        descriptor = pipe.rawValue
        self.pipe = consume pipe
    }


    /// Reads what one wake-up may; true at the pipe's end of file (the worker and every child that inherited it
    /// gone), which would leave it readable for ever: it is not watched after that.
    mutating func readable() -> Bool {
        read(upTo: Self.readPerWakeUp)
    }

    /// Passes on what is left once the worker is dead, the last line even unended, says what was not shown, and
    /// closes the pipe. Whatever the worker's children write there later is lost (EPIPE).
    mutating func finish() {
        guard pipe != nil else { return }
        // Bounded: a child of the worker that inherited the pipe may still be writing.
        read(upTo: Self.readPerWakeUp)
        if !line.isEmpty || lineCut { show() }
        if hiddenBytes > 0 {
            printError("worker \(pid): \(grouped(hiddenBytes)) more \(hiddenBytes == 1 ? "byte" : "bytes") of standard error not shown")
        }
        pipe = nil
        descriptor = nil
    }

    /// Reads what the pipe holds, `limit` bytes at most, without waiting; true at its end (or an error, which ends
    /// it as well).
    @discardableResult
    private mutating func read(upTo limit: Int) -> Bool {
        guard let fd = pipe?.rawValue else { return true }
        return withUnsafeTemporaryAllocation(byteCount: Self.chunk, alignment: 1) { chunk in
            var total = 0
            while total < limit {
                let count: Int?
                do throws(SystemError) { count = try Sys.read(fd, into: chunk) } catch { return true }
                guard let count else { return false }
                guard count > 0 else { return true }
                total += count
                take(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
            }
            return false
        }
    }

    /// Adds `bytes` to the line being read, showing each line they end; a line's bytes past `longestLine`, and
    /// every byte once `shownLines` are shown, are only counted.
    private mutating func take(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        while !rest.isEmpty {
            guard shown < Self.shownLines else {
                hiddenBytes += rest.count
                return
            }
            let base = rest.baseAddress!
            let end = memchr(base, Int32(UInt8(ascii: "\n")), rest.count).map { base.distance(to: UnsafeRawPointer($0)) }
            let piece = UnsafeRawBufferPointer(rebasing: rest[..<(end ?? rest.count)])
            let room = Self.longestLine - line.count
            line.append(contentsOf: piece.prefix(room))
            if piece.count > room {
                lineCut = true
                hiddenBytes += piece.count - room
            }
            guard let end else { return }
            show()
            rest = UnsafeRawBufferPointer(rebasing: rest[(end + 1)...])
        }
    }

    private mutating func show() {
        let text = visible(String(decoding: line, as: UTF8.self)) + (lineCut ? "…" : "")
        printError("worker \(pid): \(text)")
        line.removeAll(keepingCapacity: true)
        lineCut = false
        shown += 1
    }

    /// Lines shown of each worker; the rest is counted.
    static let shownLines = 20
    /// Bytes shown of a line: about two lines of the terminal once named and made visible.
    static let longestLine = 160
    static let chunk = 4096
    /// What one wake-up reads: a flooding worker cannot keep the loop from everything else.
    static let readPerWakeUp = 64 * 1024
}
