// MARK: - Encoding

extension Message {
    /// Appends this message as one frame: a little-endian UInt32 length (tag plus payload), the tag, the payload.
    public func encode(into out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: [0, 0, 0, 0, tag])
        switch self {
        case .hello(let pid, let version):
            out.appendInteger(UInt32(bitPattern: pid))
            out.appendInteger(version)
        case .load(let url, let replace):
            out.appendString(url)
            out.append(replace ? 1 : 0)
        case .fetch(let url, let kind):
            out.appendString(url)
            out.append(kind.rawValue)
        case .didCommit(let url):
            out.appendString(url)
        case .reload, .shutdown, .unload, .documentQuery, .historyQuery:
            break
        case .fetchReply(let status, let mime, let length, let body):
            out.appendInteger(status)
            out.appendString(mime)
            out.appendInteger(length)
            out.appendBytes(body)
        case .fetchData(let body):
            out.appendBytes(body)
        case .goTo(let index):
            out.appendInteger(index)
        case .restoreHistory(let index, let count, let urls), .history(let index, let count, let urls):
            out.appendInteger(index)
            out.appendInteger(count)
            out.appendStrings(urls)
        case .historyData(let urls):
            out.appendStrings(urls)
        case .navigationAction(let type, let mainFrame, let url):
            out.append(type.rawValue)
            out.append(mainFrame ? 1 : 0)
            out.appendString(url)
        case .didFinish(let text), .didFailProvisional(let text), .didFail(let text):
            out.appendString(text)
        case .document(let length, let text):
            out.appendInteger(length)
            out.appendBytes(text)
        case .documentData(let text):
            out.appendBytes(text)
        case .titleQuery(let id):
            out.appendInteger(id)
        case .title(let id, let title):
            out.appendInteger(id)
            out.appendString(title)
        case .ping(let seq), .pong(let seq):
            out.appendInteger(seq)
        case .input(let seq, let text):
            out.appendInteger(seq)
            out.appendString(text)
        case .inputApplied(let seq, let digest):
            out.appendInteger(seq)
            out.appendInteger(digest)
        }
        let length = UInt32(out.count - start - 4)
        Swift.withUnsafeBytes(of: length.littleEndian) { header in
            for i in 0..<4 { out[start + i] = header[i] }
        }
    }

    /// This message as a standalone frame.
    public var frame: [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }
}

extension [UInt8] {
    mutating func appendInteger<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    mutating func appendBytes(_ bytes: [UInt8]) {
        appendInteger(UInt32(bytes.count))
        append(contentsOf: bytes)
    }

    mutating func appendStrings(_ strings: [String]) {
        appendInteger(UInt32(strings.count))
        for string in strings { appendString(string) }
    }

    mutating func appendString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            appendInteger(UInt32(utf8.count))
            append(contentsOf: utf8)
        }
    }
}

// MARK: - Decoding

/// Reassembles frames from a byte stream that arrives in arbitrary pieces.
///
/// Bytes go in with `append`; whole messages come out of `next()`. A length above `maxFrameSize` is rejected as soon
/// as its four header bytes arrive, so a hostile peer cannot make the reader buffer a gigabyte first.
public struct FrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0

    public init() {}

    /// Bytes received but not yet returned as messages.
    public var pendingByteCount: Int { buffer.count - start }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete message, or nil until more bytes arrive.
    public mutating func next() throws(WireError) -> Message? {
        guard buffer.count - start >= 4 else { return nil }
        var length = 0
        for i in 0..<4 { length |= Int(buffer[start + i]) << (8 * i) }
        guard length <= maxFrameSize else { throw .oversized(length: length) }
        guard length > 0 else { throw .emptyFrame }
        guard buffer.count - start >= 4 + length else { return nil }
        let body = start + 4
        start = body + length
        let result = buffer.withUnsafeBytes { bytes in
            Result { () throws(WireError) in try Message.decode(UnsafeRawBufferPointer(rebasing: bytes[body..<body + length])) }
        }
        let message = try result.get()
        if start > 4096 && start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        return message
    }
}

extension Message {
    /// Decodes one frame body (tag and payload, without the length header).
    public static func decode(_ body: UnsafeRawBufferPointer) throws(WireError) -> Message {
        guard let tag = body.first else { throw .emptyFrame }
        var reader = PayloadReader(payload: UnsafeRawBufferPointer(rebasing: body[1...]), tag: tag)
        let message: Message
        switch tag {
        case 1: message = .hello(pid: Int32(bitPattern: try reader.integer()), version: try reader.integer())
        case 2: message = .load(url: try reader.string(), replace: try reader.flag())
        case 3: message = .reload
        case 4: message = .shutdown
        case 5:
            let url = try reader.string()
            guard let kind = ResourceKind(rawValue: try reader.integer()) else { throw .badValue(tag: tag) }
            message = .fetch(url: url, kind: kind)
        case 6:
            message = .fetchReply(
                status: try reader.integer(), mime: try reader.string(), length: try reader.integer(), body: try reader.bytes())
        case 7: message = .didCommit(url: try reader.string())
        case 8: message = .didFinish(title: try reader.string())
        case 9: message = .didFailProvisional(error: try reader.string())
        case 10: message = .didFail(error: try reader.string())
        case 11: message = .titleQuery(id: try reader.integer())
        case 12: message = .title(id: try reader.integer(), title: try reader.string())
        case 13: message = .ping(seq: try reader.integer())
        case 14: message = .pong(seq: try reader.integer())
        case 15: message = .input(seq: try reader.integer(), text: try reader.string())
        case 16: message = .inputApplied(seq: try reader.integer(), digest: try reader.integer())
        case 17: message = .unload
        case 18: message = .documentQuery
        case 19: message = .document(length: try reader.integer(), text: try reader.bytes())
        case 20: message = .fetchData(body: try reader.bytes())
        case 21: message = .goTo(index: try reader.integer())
        case 22:
            message = .restoreHistory(index: try reader.integer(), count: try reader.integer(), urls: try reader.strings())
        case 23: message = .historyQuery
        case 24: message = .history(index: try reader.integer(), count: try reader.integer(), urls: try reader.strings())
        case 25:
            guard let type = NavigationType(rawValue: try reader.integer()) else { throw .badValue(tag: tag) }
            message = .navigationAction(type: type, mainFrame: try reader.flag(), url: try reader.string())
        case 26: message = .historyData(urls: try reader.strings())
        case 27: message = .documentData(text: try reader.bytes())
        default: throw .unknownTag(tag)
        }
        guard reader.remaining == 0 else { throw .trailingBytes(tag: tag, count: reader.remaining) }
        if let violation = message.limitViolation { throw violation }
        return message
    }
}

private struct PayloadReader {
    let payload: UnsafeRawBufferPointer
    let tag: UInt8
    var offset = 0

    var remaining: Int { payload.count - offset }

    mutating func take(_ count: Int) throws(WireError) -> UnsafeRawBufferPointer {
        guard count <= remaining else { throw .truncated(tag: tag) }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: payload[offset..<offset + count])
    }

    mutating func integer<T: FixedWidthInteger>() throws(WireError) -> T {
        let raw = try take(MemoryLayout<T>.size)
        var value = T.zero
        for i in 0..<MemoryLayout<T>.size { value |= T(raw[i]) << (8 * i) }
        return value
    }

    mutating func bytes() throws(WireError) -> [UInt8] {
        let count: UInt32 = try integer()
        return Array(try take(Int(count)))
    }

    mutating func flag() throws(WireError) -> Bool {
        let byte: UInt8 = try integer()
        guard byte <= 1 else { throw .badValue(tag: tag) }
        return byte == 1
    }

    /// A count, then that many strings; the count cannot promise more strings than the bytes left could hold.
    mutating func strings() throws(WireError) -> [String] {
        let count: UInt32 = try integer()
        guard Int(count) <= remaining / 4 else { throw .truncated(tag: tag) }
        var strings: [String] = []
        strings.reserveCapacity(Int(count))
        for _ in 0..<count { strings.append(try string()) }
        return strings
    }

    mutating func string() throws(WireError) -> String {
        let count: UInt32 = try integer()
        let raw = try take(Int(count))
        guard let string = String(validating: raw, as: UTF8.self) else {
            throw .invalidUTF8(tag: tag)
        }
        return string
    }
}
