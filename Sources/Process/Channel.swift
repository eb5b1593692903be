import CShim
import Glibc
import System
import WireProtocol

/// The supervisor's end of one worker's channel: frames in from the worker's fd 4, frames out to its fd 3.
///
/// Writes never block the event loop: what the pipe cannot take now is queued, and `send(_:on:failed:)` writes it
/// as the loop reports the pipe writable. A message the protocol does not allow (a frame over the cap, a URL or
/// title over its limit) is refused before a byte of it is encoded: the worker would take it as a broken channel.
package final class Channel {
    package let readFD: Int32
    package let writeFD: Int32
    /// The two ends, owned until `close`; nil after.
    private var ends: Ends?
    private var decoder = FrameDecoder<FromWorker>()
    private var outbox = Outbox()
    private var writeToken: UInt64 = 0

    private struct Ends: ~Copyable {
        package let read: FileDescriptor
        package let write: FileDescriptor
    }

    package init(read: consuming FileDescriptor, write: consuming FileDescriptor) {
        readFD = read.rawValue
        writeFD = write.rawValue
        ends = Ends(read: read, write: write)
    }

    package func close() {
        ends = nil
    }

    package var hasPendingOutput: Bool { outbox.pending > 0 }
    package var pendingOutput: Int { outbox.pending }

    /// Queues `message` and writes as much as the pipe takes. Throws EPIPE once the worker is gone, and refuses a
    /// message over the protocol's limits without sending any of it.
    package func send(_ message: ToWorker) throws(ChannelError) {
        _ = try queue(message)
    }

    /// Like `send`, and what the pipe cannot take now is written as `loop` reports it writable; `failed` runs if
    /// one of those later writes fails.
    package func send(_ message: ToWorker, on loop: EventLoop, failed: @escaping () -> Void) throws(ChannelError) {
        guard try queue(message) == .began else { return }
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

    package func stopWatchingWrites(on loop: EventLoop) {
        guard writeToken != 0 else { return }
        loop.unwatch(writeFD, token: writeToken)
        writeToken = 0
    }

    package func flush() throws(SystemError) {
        _ = try outbox.flush(to: writeFD)
    }

    private func queue(_ message: ToWorker) throws(ChannelError) -> Outbox.Backlog {
        if let violation = message.limitViolation { throw .refused(violation) }
        do throws(SystemError) { return try outbox.send(message, to: writeFD) } catch { throw .system(error) }
    }

    /// Drains the pipe into the decoder. Returns false at end of file.
    package func fill(using scratch: inout [UInt8]) throws(SystemError) -> Bool {
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
    package func next() throws(WireError) -> FromWorker? {
        try decoder.next()
    }

    /// Drops what was received before the answer to resynchronisation `generation` (`FrameDecoder.skip`); true
    /// once that answer is next.
    package func skip(toResynced generation: UInt64) -> Bool {
        decoder.skip(toResynced: generation)
    }
}

/// The bytes queued for a worker, and how many of them went out: one value, so that sending a message is one
/// access to the channel's state, not one per field and per question (each access to a class's stored property
/// is checked for exclusivity at run time: more than a quarter of the supervisor's own time per message, before).
private struct Outbox {
    /// What a send did to the queue: only a backlog that `began` needs the loop to watch the pipe.
    package enum Backlog {
        case none, began, grew
    }

    private var bytes: [UInt8] = []
    private var sent = 0

    package var pending: Int { bytes.count - sent }

    package mutating func send(_ message: ToWorker, to fd: Int32) throws(SystemError) -> Backlog {
        let idle = pending == 0
        message.encode(into: &bytes)
        return try flush(to: fd) ? .none : idle ? .began : .grew
    }

    /// Writes what the pipe takes; whether that was everything. Bytes written are dropped only once they add up
    /// to a few KiB: emptying the array after every small frame cost more than encoding the frame.
    package mutating func flush(to fd: Int32) throws(SystemError) -> Bool {
        while sent < bytes.count {
            let offset = sent
            let written = try bytes.withUnsafeBytes { bytes in
                Result { () throws(SystemError) in try Sys.write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...])) }
            }.get()
            guard let written else { return false }
            sent += written
        }
        if sent >= 4096 {
            bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 16)
            sent = 0
        }
        return true
    }
}

/// Why a message did not go out: the system refused the write, or the protocol refused the message.
package enum ChannelError: Error, CustomStringConvertible {
    case system(SystemError)
    case refused(WireError)

    package var description: String {
        switch self {
        case .system(let error): error.description
        case .refused(let error): "not sent: \(error)"
        }
    }
}
