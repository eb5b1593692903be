import WorkerRuntime

/// The worker's end of the pipe pair its supervisor mapped to fds 3 and 4, or standard input and output when a
/// launcher can hand over only those (Foundation.Process, in the benchmark that compares with it).
///
/// Reading blocks while the worker is idle; between render steps the worker drains what has arrived without
/// blocking, so title probes and pings are answered while it works. EOF means the supervisor is gone, and so is
/// the worker's reason to live.
struct Channel {
    private var decoder = FrameDecoder()
    private var readBuffer = [UInt8](repeating: 0, count: 4096)
    private var outgoing: [UInt8] = []
    private let input: Int32
    private let output: Int32

    init() {
        let mapped = wr_is_open(WR_CHANNEL_IN_FD) != 0 && wr_is_open(WR_CHANNEL_OUT_FD) != 0
        input = mapped ? WR_CHANNEL_IN_FD : 0
        output = mapped ? WR_CHANNEL_OUT_FD : 1
    }

    mutating func send(_ message: Message) {
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

    /// The next message; with `wait` false, nil when nothing complete has arrived yet.
    mutating func receive(wait: Bool) -> Message? {
        while true {
            do {
                if let message = try decoder.next() { return message }
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
}
