import CShim
import Glibc
import WireProtocol

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
        let mapped = fcntl(SV_CHANNEL_IN_FD, F_GETFD) >= 0 && fcntl(SV_CHANNEL_OUT_FD, F_GETFD) >= 0
        input = mapped ? SV_CHANNEL_IN_FD : 0
        output = mapped ? SV_CHANNEL_OUT_FD : 1
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
                let n = write(output, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { exit(0) }
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
                exit(70)
            }
            if !wait {
                var ready = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 0) == 1 else { return nil }
            }
            let n = readBuffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { exit(0) }
            readBuffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
    }
}
