import Testing
import WireProtocol

@Suite struct WireProtocolTests {
    static let samples: [Message] = [
        .hello(pid: 4107, version: protocolVersion), .load(url: "app://local/ü.html", replace: false), .reload, .unload, .shutdown,
        .fetch(url: "app://local/a", kind: .document), .fetchReply(status: 200, mime: "text/html", length: 6, body: [0, 1, 2, 255]),
        .fetchData(body: [7, 8]), .fetch(url: "app-image://logo", kind: .image), .load(url: "app://local/b", replace: true),
        .didCommit(url: "app://local/a"), .didFinish(title: "Title ✓"), .didFailProvisional(error: "404"),
        .didFail(error: "gone"), .titleQuery(id: 7), .title(id: 7, title: ""), .ping(seq: .max), .pong(seq: 1),
        .input(seq: 3, text: "héllo"), .inputApplied(seq: 3, digest: 0xDEAD_BEEF_0000_0001),
        .goTo(index: 2), .restoreHistory(index: 1, count: 3, urls: ["app://local/a", "app://local/ü"]), .historyQuery,
        .history(index: 0, count: 0, urls: []),
        .navigationAction(type: .formResubmitted, mainFrame: false, url: "https://x.example/"),
        .historyData(urls: ["app://local/c"]), .document(length: 5, text: Array("héy".utf8)), .documentData(text: [1]),
    ]

    @Test(arguments: samples)
    func roundTripsEveryMessage(_ message: Message) throws {
        var decoder = FrameDecoder()
        message.frame.withUnsafeBytes { decoder.append($0) }
        #expect(try decoder.next() == message)
        #expect(try decoder.next() == nil)
        #expect(decoder.pendingByteCount == 0)
    }

    @Test func reassemblesFramesDeliveredOneByteAtATime() throws {
        var stream: [UInt8] = []
        for message in Self.samples { message.encode(into: &stream) }
        var decoder = FrameDecoder()
        var decoded: [Message] = []
        for byte in stream {
            [byte].withUnsafeBytes { decoder.append($0) }
            while let message = try decoder.next() { decoded.append(message) }
        }
        #expect(decoded == Self.samples)
    }

    @Test func rejectsAnOversizedFrameFromItsHeaderAlone() {
        var decoder = FrameDecoder()
        let length = UInt32(maxFrameSize + 1)
        withUnsafeBytes(of: length.littleEndian) { decoder.append($0) }
        #expect(throws: WireError.oversized(length: maxFrameSize + 1)) { try decoder.next() }
    }

    @Test(arguments: [
        ([1, 0, 0, 0, 0xEE], WireError.unknownTag(0xEE)),
        ([0, 0, 0, 0], WireError.emptyFrame),
        ([3, 0, 0, 0, 13, 1, 2], WireError.truncated(tag: 13)),
        ([2, 0, 0, 0, 4, 9], WireError.trailingBytes(tag: 4, count: 1)),
        ([7, 0, 0, 0, 2, 2, 0, 0, 0, 0xC3, 0x28], WireError.invalidUTF8(tag: 2)),
        ([9, 0, 0, 0, 2, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0], WireError.truncated(tag: 2)),
    ] as [([UInt8], WireError)])
    func turnsBadBytesIntoTypedErrors(bytes: [UInt8], expected: WireError) {
        var decoder = FrameDecoder()
        bytes.withUnsafeBytes { decoder.append($0) }
        #expect(throws: expected) { try decoder.next() }
    }
}
