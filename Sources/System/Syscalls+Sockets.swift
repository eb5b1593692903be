import CShim
import Glibc

/// Descriptors that arrived in one message (SCM_RIGHTS): each is closed with this value unless taken, so a message
/// read and dropped leaks nothing.
package final class ReceivedDescriptors {
    private var fds: [Int32?]

    init(_ fds: [Int32]) { self.fds = fds }

    package var count: Int { fds.count }

    /// The descriptor at `index`, owned by the caller from now on; nil if it was taken already or is not there.
    package func take(_ index: Int) -> FileDescriptor? {
        guard fds.indices.contains(index), let fd = fds[index] else { return nil }
        fds[index] = nil
        return FileDescriptor(fd)
    }

    /// The number of the descriptor at `index`, still owned here, for a call to use while this value is alive.
    package func borrow(_ index: Int) -> Int32? { fds.indices.contains(index) ? fds[index] : nil }

    deinit { for case let fd? in fds { Sys.close(fd) } }
}

/// Both ends of a connected socket pair.
@frozen package struct SocketPair: ~Copyable {
    package let first: FileDescriptor
    package let second: FileDescriptor
}

extension Sys {
    /// A connected pair of sockets whose messages arrive whole and in order (SOCK_SEQPACKET), close-on-exec.
    package static func messagePair() throws(SystemError) -> SocketPair {
        var fds: [Int32] = [-1, -1]
        _ = try retrying("socketpair") { sv_socketpair_seqpacket(&fds) }
        return SocketPair(first: FileDescriptor(fds[0]), second: FileDescriptor(fds[1]))
    }

    /// Sends `bytes` as one message on `socket`, with copies of `descriptors` (at most `maxPassed`).
    package static func send(_ bytes: [UInt8], passing descriptors: [Int32] = [], on socket: Int32) throws(SystemError) {
        guard descriptors.count <= maxPassed else { throw SystemError("sendmsg", errno: EINVAL) }
        let sent = try retrying("sendmsg", fd: socket) {
            bytes.withUnsafeBytes { raw in
                descriptors.withUnsafeBufferPointer { sv_send_with_fds(socket, raw.baseAddress, raw.count, $0.baseAddress, Int32($0.count)) }
            }
        }
        guard sent == bytes.count else { throw SystemError("sendmsg", errno: EMSGSIZE) }
    }

    /// One message from `socket` (nil at its end): its bytes, up to `capacity`, and the descriptors passed with it.
    /// A message cut short, in bytes or descriptors, is an error, its descriptors closed.
    package static func receive(on socket: Int32, capacity: Int) throws(SystemError) -> (bytes: [UInt8], descriptors: ReceivedDescriptors)? {
        var bytes = [UInt8](repeating: 0, count: capacity)
        var fds = [Int32](repeating: -1, count: Int(SV_MAX_PASSED_FDS))
        var count: Int32 = 0
        var truncated: Int32 = 0
        let received = try retrying("recvmsg", fd: socket) {
            bytes.withUnsafeMutableBytes { raw in
                fds.withUnsafeMutableBufferPointer { sv_receive_with_fds(socket, raw.baseAddress, raw.count, $0.baseAddress, &count, &truncated) }
            }
        }
        let descriptors = ReceivedDescriptors(Array(fds.prefix(Int(count))))
        guard truncated == 0 else { throw SystemError("recvmsg", errno: EMSGSIZE) }
        guard received > 0 || count > 0 else { return nil }
        return (Array(bytes.prefix(received)), descriptors)
    }

    /// The most descriptors one message passes.
    package static let maxPassed = Int(SV_MAX_PASSED_FDS)
}
