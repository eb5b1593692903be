import Glibc
import Testing

@testable import System

/// Descriptors passed over a message socket (SCM_RIGHTS), the way a holder hands workers' pidfds and channels to a
/// supervisor (issue 34): they arrive working, and every one that is not taken is closed, never leaked.
@Suite struct DescriptorPassing {
    /// A pipe, its ends as raw numbers this test closes itself.
    static func rawPipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        return (fds[0], fds[1])
    }

    /// Whether every copy of `pipe`'s write end is closed: its read end then reads the end (0), not EAGAIN.
    static func writersGone(_ read: Int32) -> Bool {
        var byte: UInt8 = 0
        return Glibc.read(read, &byte, 1) == 0
    }

    @Test func aPassedDescriptorArrivesAndWorks() throws {
        let pair = try Sys.messagePair()
        let pipe = try Self.rawPipe()
        defer { close(pipe.read) }
        try Sys.send(Array("pipe".utf8), passing: [pipe.write], on: pair.first.rawValue)
        close(pipe.write)
        let message = try #require(try Sys.receive(on: pair.second.rawValue, capacity: 64))
        #expect(message.bytes == Array("pipe".utf8) && message.descriptors.count == 1)
        guard let writer = message.descriptors.take(0) else {
            Issue.record("no descriptor arrived")
            return
        }
        var again = false
        if let _ = message.descriptors.take(0) { again = true }
        #expect(!again, "taken once")
        #expect(write(writer.rawValue, "ok", 2) == 2)
        var read = [UInt8](repeating: 0, count: 2)
        #expect(Glibc.read(pipe.read, &read, 2) == 2 && read == Array("ok".utf8))
        #expect((fcntl(writer.rawValue, F_GETFD) & FD_CLOEXEC) != 0, "received close-on-exec")
        writer.close()
        #expect(Self.writersGone(pipe.read))
    }

    /// A message dropped unread closes what it carried; one cut short is an error and closes its descriptors too.
    @Test func nothingPassedIsLeaked() throws {
        let pair = try Sys.messagePair()
        let pipe = try Self.rawPipe()
        defer { close(pipe.read) }
        try Sys.send(Array("dropped".utf8), passing: [pipe.write, pipe.write], on: pair.first.rawValue)
        try Sys.send(Array("far too long for its buffer".utf8), passing: [pipe.write], on: pair.first.rawValue)
        close(pipe.write)
        _ = try #require(try Sys.receive(on: pair.second.rawValue, capacity: 64))
        #expect(throws: SystemError.self) { try Sys.receive(on: pair.second.rawValue, capacity: 4) }
        #expect(Self.writersGone(pipe.read))
        #expect(throws: SystemError.self) {
            try Sys.send([1], passing: Array(repeating: pair.first.rawValue, count: Sys.maxPassed + 1), on: pair.first.rawValue)
        }
    }

    @Test func theOtherEndClosingIsTheEnd() throws {
        let pair = try Sys.messagePair()
        let second = pair.second
        pair.first.close()
        #expect(try Sys.receive(on: second.rawValue, capacity: 16) == nil)
    }
}
