import System

/// Where the analyzer's bytes come from: a file or a pipe, a member of an archive, a decoder's output.
public protocol ByteSource {
    /// Reads into `buffer` from `offset` on; returns how many bytes were read, 0 at the end.
    mutating func read(into buffer: inout [UInt8], from offset: Int) throws(SystemError) -> Int
}

/// A file or pipe, read from its current offset to its end.
public struct FileSource: ByteSource {
    public let fd: Int32

    public init(fd: Int32) {
        self.fd = fd
    }

    public mutating func read(into buffer: inout [UInt8], from offset: Int) throws(SystemError) -> Int {
        try Sys.read(fd, into: &buffer, from: offset)
    }
}

/// Bytes in memory: a decoder's whole output.
public struct BufferSource: ByteSource {
    private let bytes: [UInt8]
    private var handedOut = 0

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public mutating func read(into buffer: inout [UInt8], from offset: Int) throws(SystemError) -> Int {
        let count = min(bytes.count - handedOut, buffer.count - offset)
        guard count > 0 else { return 0 }
        Sys.copy(bytes, handedOut..<(handedOut + count), to: &buffer, at: offset)
        handedOut += count
        return count
    }
}
