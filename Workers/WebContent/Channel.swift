import WorkerRuntime

/// The worker's end of the pipe pair its supervisor mapped to fds 3 and 4, or standard input and output when a
/// launcher can hand over only those (Foundation.Process, in the benchmark that compares with it).
///
/// Reading blocks while the worker is idle; between render steps the worker drains what has arrived without
/// blocking, so title probes and pings are answered while it works. EOF means the supervisor is gone, and so is
/// the worker's reason to live.
///
/// A back/forward list sent in pieces comes out whole: the worker never sees half a restore.
struct Channel {
    private var decoder = FrameDecoder<ToWorker>()
    /// A `restoreHistory` whose `historyData` pieces are still arriving.
    private var restoring: (index: UInt32, count: UInt32, urls: [String])?
    private var readBuffer = [UInt8](repeating: 0, count: 4096)
    /// A supervisor's request to resynchronise (resync.c), once taken from the runtime and until the worker answers.
    private var asked: UInt64?
    private var outgoing: [UInt8] = []
    let input: Int32
    let output: Int32

    init() {
        let mapped = wr_is_open(WR_CHANNEL_IN_FD) != 0 && wr_is_open(WR_CHANNEL_OUT_FD) != 0
        input = mapped ? WR_CHANNEL_IN_FD : 0
        output = mapped ? WR_CHANNEL_OUT_FD : 1
    }

    /// Every message is bounded where it is made (titles cut, long URLs skipped, large values in pieces); one that
    /// is not is a bug that would break the channel, so it is never encoded, and the worker exits as broken.
    mutating func send(_ message: FromWorker) {
        if message.limitViolation != nil { wr_exit(70) }
        outgoing.removeAll(keepingCapacity: true)
        message.encode(into: &outgoing)
        writeAll(outgoing)
    }

    func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = wr_write(output, raw.baseAddress! + offset, raw.count - offset)
                if n == -Int(WR_EINTR) { continue }
                if n <= 0 { wr_exit(0) }
                offset += n
            }
        }
    }

    /// The next message; nil when a supervisor asks to resynchronise (`takeResync`), and with `wait` false, when
    /// nothing complete has arrived yet.
    mutating func receive(wait: Bool) -> ToWorker? {
        while true {
            noteResync()
            if asked != nil { return nil }
            do {
                while let message = try decoder.next() {
                    if let whole = assembled(message) { return whole }
                }
            } catch {
                // The supervisor never sends a bad frame; if it does, the channel cannot be trusted.
                wr_exit(70)
            }
            if !wait && wr_readable(input) == 0 { return nil }
            let n = readBuffer.withUnsafeMutableBytes { wr_read(input, $0.baseAddress, $0.count) }
            if n == -Int(WR_EINTR) { continue }
            if n <= 0 { wr_exit(0) }
            readBuffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
    }

    /// The generation a supervisor that took the channel over asked to resynchronise under, once: everything not yet
    /// handled is then dropped, the bytes decoded and those still in the pipe, which were all sent by the supervisor
    /// before (the new one waits for the answer). Whatever was cut in half is never read.
    mutating func takeResync() -> UInt64? {
        noteResync()
        guard let asked else { return nil }
        self.asked = nil
        decoder = FrameDecoder()
        restoring = nil
        while wr_readable(input) != 0 {
            let n = readBuffer.withUnsafeMutableBytes { wr_read(input, $0.baseAddress, $0.count) }
            if n == -Int(WR_EINTR) { continue }
            if n <= 0 { wr_exit(0) }
        }
        return asked
    }

    /// Takes a request to resynchronise from the runtime, if one came.
    private mutating func noteResync() {
        var generation: UInt64 = 0
        if asked == nil, wr_take_resync(&generation) != 0 { asked = generation }
    }

    /// `message`, or nil while it is a piece of a restore still arriving. The supervisor sends a restore's pieces
    /// back to back: anything else between them, or a piece of nothing, breaks the protocol.
    private mutating func assembled(_ message: ToWorker) -> ToWorker? {
        switch message {
        case .restoreHistory(let index, let count, let urls) where urls.count < count && restoring == nil:
            restoring = (index, count, urls)
            return nil
        case .historyData(let urls):
            guard var restore = restoring, restore.urls.count + urls.count <= restore.count else { wr_exit(70) }
            restore.urls += urls
            guard restore.urls.count == restore.count else {
                restoring = restore
                return nil
            }
            restoring = nil
            return .restoreHistory(index: restore.index, count: restore.count, urls: restore.urls)
        default:
            if restoring != nil { wr_exit(70) }
            return message
        }
    }
}
