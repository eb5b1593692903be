import CShim
import Glibc
import WireProtocol

/// The supervisor's end of one worker's channel: frames in from the worker's fd 4, frames out to its fd 3.
///
/// Writes never block the event loop: what the pipe cannot take now is queued, and `send(_:on:failed:)` writes it
/// as the loop reports the pipe writable. A message the protocol does not allow (a frame over the cap, a URL or
/// title over its limit) is refused before a byte of it is encoded: the worker would take it as a broken channel.
final class Channel {
    let readFD: Int32
    let writeFD: Int32
    /// The two ends, owned until `close`; nil after.
    private var ends: Ends?
    private var decoder = FrameDecoder()
    private var outgoing: [UInt8] = []
    private var sent = 0
    private var writeToken: UInt64 = 0

    private struct Ends: ~Copyable {
        let read: FileDescriptor
        let write: FileDescriptor
    }

    init(read: consuming FileDescriptor, write: consuming FileDescriptor) {
        readFD = read.rawValue
        writeFD = write.rawValue
        ends = Ends(read: read, write: write)
    }

    func close() {
        ends = nil
    }

    var hasPendingOutput: Bool { sent < outgoing.count }
    var pendingOutput: Int { outgoing.count - sent }

    /// Queues `message` and writes as much as the pipe takes. Throws EPIPE once the worker is gone, and refuses a
    /// message over the protocol's limits without sending any of it.
    func send(_ message: Message) throws(ChannelError) {
        if let violation = message.limitViolation { throw .refused(violation) }
        message.encode(into: &outgoing)
        do throws(SystemError) { try flush() } catch { throw .system(error) }
    }

    /// Like `send`, and what the pipe cannot take now is written as `loop` reports it writable; `failed` runs if
    /// one of those later writes fails.
    func send(_ message: Message, on loop: EventLoop, failed: @escaping () -> Void) throws(ChannelError) {
        let wasPending = hasPendingOutput
        try send(message)
        guard !wasPending, hasPendingOutput else { return }
        do throws(SystemError) {
            writeToken = try loop.watch(writeFD, events: EPOLLOUT.rawValue) { [unowned self] _ in
                do {
                    try flush()
                    if !hasPendingOutput { stopWatchingWrites(on: loop) }
                } catch {
                    failed()
                }
            }
        } catch {
            throw .system(error)
        }
    }

    func stopWatchingWrites(on loop: EventLoop) {
        guard writeToken != 0 else { return }
        loop.unwatch(writeFD, token: writeToken)
        writeToken = 0
    }

    func flush() throws(SystemError) {
        while sent < outgoing.count {
            let written = try outgoing.withUnsafeBytes { bytes in
                Result { () throws(SystemError) in try Sys.write(writeFD, UnsafeRawBufferPointer(rebasing: bytes[sent...])) }
            }.get()
            guard let written else { return }
            sent += written
        }
        outgoing.removeAll(keepingCapacity: outgoing.capacity <= 1 << 16)
        sent = 0
    }

    /// Drains the pipe into the decoder. Returns false at end of file.
    func fill(using scratch: inout [UInt8]) throws(SystemError) -> Bool {
        while true {
            let count = try scratch.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in try Sys.read(readFD, into: buffer) }
            }.get()
            guard let count else { return true }
            if count == 0 { return false }
            scratch.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            if count < scratch.count { return true }
        }
    }

    /// The next whole message received, if any.
    func next() throws(WireError) -> Message? {
        try decoder.next()
    }
}

/// Why a message did not go out: the system refused the write, or the protocol refused the message.
enum ChannelError: Error, CustomStringConvertible {
    case system(SystemError)
    case refused(WireError)

    var description: String {
        switch self {
        case .system(let error): error.description
        case .refused(let error): "not sent: \(error)"
        }
    }
}
