import Testing
import WireProtocol

@testable import LogAnalysis

@Suite struct Frames {
    /// A message of each kind the supervisor sends, with its frame as the protocol's bytes: the split of the
    /// messages by direction (issue 18) left every byte on the wire as it was.
    static let toWorker: [(ToWorker, String)] = [
        (.load(url: "app://local/ü.html", replace: false), "1900000002130000006170703a2f2f6c6f63616c2fc3bc2e68746d6c00"),
        (.reload, "0100000003"),
        (.shutdown, "0100000004"),
        (.fetchReply(status: 200, mime: "text/html", length: 6, body: [0, 1, 2, 255]), "1c00000006c80009000000746578742f68746d6c0600000004000000000102ff"),
        (.titleQuery(id: 7), "050000000b07000000"),
        (.ping(seq: .max), "090000000dffffffffffffffff"),
        (.input(seq: 3, text: "héllo"), "130000000f03000000000000000600000068c3a96c6c6f"),
        (.unload, "0100000011"),
        (.documentQuery, "0100000012"),
        (.fetchData(body: [7, 8]), "0700000014020000000708"),
        (.goTo(index: 2), "050000001502000000"),
        (.restoreHistory(index: 1, count: 3, urls: ["app://local/a", "app://local/ü"]), "30000000160100000003000000020000000d0000006170703a2f2f6c6f63616c2f610e0000006170703a2f2f6c6f63616c2fc3bc"),
        (.historyQuery, "0100000017"),
        (.historyData(urls: ["app://local/c"]), "160000001a010000000d0000006170703a2f2f6c6f63616c2f63"),
        (.load(url: "app://local/b", replace: true), "13000000020d0000006170703a2f2f6c6f63616c2f6201"),
        (.prepareToSuspend, "010000001d"),
        (.processDidResume, "010000001e"),
    ]

    /// A message of each kind a worker sends, with its frame.
    static let fromWorker: [(FromWorker, String)] = [
        (.hello(pid: 4107, version: protocolVersion, sandbox: .installed), "08000000010b100000080001"),
        (.sandboxViolation(syscall: 2), "050000001c02000000"),
        (.fetch(url: "app://local/a", kind: .document), "13000000050d0000006170703a2f2f6c6f63616c2f6100"),
        (.fetch(url: "app-image://logo", kind: .image), "1600000005100000006170702d696d6167653a2f2f6c6f676f01"),
        (.didCommit(url: "app://local/a"), "12000000070d0000006170703a2f2f6c6f63616c2f61"),
        (.didFinish(title: "Title ✓"), "0e00000008090000005469746c6520e29c93"),
        (.didFailProvisional(error: "404"), "080000000903000000343034"),
        (.didFail(error: "gone"), "090000000a04000000676f6e65"),
        (.title(id: 7, title: ""), "090000000c0700000000000000"),
        (.pong(seq: 1), "090000000e0100000000000000"),
        (.inputApplied(seq: 3, digest: 0xDEAD_BEEF_0000_0001), "1100000010030000000000000001000000efbeadde"),
        (.document(length: 5, text: Array("héy".utf8)), "0d00000013050000000400000068c3a979"),
        (.history(index: 0, count: 0, urls: []), "0d00000018000000000000000000000000"),
        (.navigationAction(type: .formResubmitted, mainFrame: false, url: "https://x.example/"), "190000001904001200000068747470733a2f2f782e6578616d706c652f"),
        (.historyData(urls: ["app://local/c"]), "160000001a010000000d0000006170703a2f2f6c6f63616c2f63"),
        (.documentData(text: [1]), "060000001b0100000001"),
        (.readyToSuspend, "010000001f"),
        (
            .resynced(
                generation: 2, url: "app://local/a", title: "A", finished: true, historyIndex: 0, historyCount: 1,
                inputSeq: 1, digest: 5),
            "40000000205253594e434544210200000000000000" + "0d0000006170703a2f2f6c6f63616c2f61010000004101"
                + "000000000100000001000000000000000500000000000000"
        ),
    ]

    static var toWorkerSamples: [ToWorker] { toWorker.map(\.0) }
    static var fromWorkerSamples: [FromWorker] { fromWorker.map(\.0) }

    @Test func everyFrameHasTheProtocolsBytes() {
        for (message, hex) in Self.toWorker { #expect(message.frame.hex == hex, "\(message)") }
        for (message, hex) in Self.fromWorker { #expect(message.frame.hex == hex, "\(message)") }
    }

    @Test func everyTagFrom1To32IsOneMessageInOneDirectionButHistoryData() {
        let tags = Self.toWorkerSamples.map(\.tag) + Self.fromWorkerSamples.map(\.tag)
        #expect(Set(tags) == Set(1...32))
        #expect(Set(Self.toWorkerSamples.map(\.tag)).intersection(Self.fromWorkerSamples.map(\.tag)) == [26])
    }

    @Test(arguments: toWorkerSamples)
    func roundTripsEveryMessageToTheWorker(_ message: ToWorker) throws {
        var decoder = FrameDecoder<ToWorker>()
        message.frame.withUnsafeBytes { decoder.append($0) }
        #expect(try decoder.next() == message)
        #expect(try decoder.next() == nil)
        #expect(decoder.pendingByteCount == 0)
    }

    @Test(arguments: fromWorkerSamples)
    func roundTripsEveryMessageFromTheWorker(_ message: FromWorker) throws {
        var decoder = FrameDecoder<FromWorker>()
        message.frame.withUnsafeBytes { decoder.append($0) }
        #expect(try decoder.next() == message)
        #expect(try decoder.next() == nil)
        #expect(decoder.pendingByteCount == 0)
    }

    /// Each side's decoder refuses what only it sends: a worker's frame read as the supervisor's is broken, and
    /// the reverse, so a peer cannot make the other act on a message of its own direction.
    @Test func aMessageOfTheOtherDirectionIsMisdirected() {
        for message in Self.toWorkerSamples where message.tag != 26 {
            var decoder = FrameDecoder<FromWorker>()
            message.frame.withUnsafeBytes { decoder.append($0) }
            #expect(throws: WireError.misdirected(tag: message.tag)) { try decoder.next() }
        }
        for message in Self.fromWorkerSamples where message.tag != 26 {
            var decoder = FrameDecoder<ToWorker>()
            message.frame.withUnsafeBytes { decoder.append($0) }
            #expect(throws: WireError.misdirected(tag: message.tag)) { try decoder.next() }
        }
    }

    @Test func reassemblesFramesDeliveredOneByteAtATime() throws {
        var stream: [UInt8] = []
        for message in Self.fromWorkerSamples { message.encode(into: &stream) }
        var decoder = FrameDecoder<FromWorker>()
        var decoded: [FromWorker] = []
        for byte in stream {
            [byte].withUnsafeBytes { decoder.append($0) }
            while let message = try decoder.next() { decoded.append(message) }
        }
        #expect(decoded == Self.fromWorkerSamples)
    }

    @Test func rejectsAnOversizedFrameFromItsHeaderAlone() {
        var decoder = FrameDecoder<FromWorker>()
        let length = UInt32(maxFrameSize + 1)
        withUnsafeBytes(of: length.littleEndian) { decoder.append($0) }
        #expect(throws: WireError.oversized(length: maxFrameSize + 1)) { try decoder.next() }
    }

    @Test(arguments: [
        ([1, 0, 0, 0, 0xEE], WireError.unknownTag(0xEE)),
        ([1, 0, 0, 0, 0], WireError.unknownTag(0)),
        ([0, 0, 0, 0], WireError.emptyFrame),
        ([3, 0, 0, 0, 14, 1, 2], WireError.truncated(tag: 14)),
        ([2, 0, 0, 0, 12, 9], WireError.truncated(tag: 12)),
        ([18, 0, 0, 0, 16] + [UInt8](repeating: 0, count: 16) + [9], WireError.trailingBytes(tag: 16, count: 1)),
        ([7, 0, 0, 0, 7, 2, 0, 0, 0, 0xC3, 0x28], WireError.invalidUTF8(tag: 7)),
        ([9, 0, 0, 0, 7, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0], WireError.truncated(tag: 7)),
        ([7, 0, 0, 0, 5, 1, 0, 0, 0, 0x61, 3], WireError.badValue(tag: 5)),
    ] as [([UInt8], WireError)])
    func turnsBadBytesIntoTypedErrors(bytes: [UInt8], expected: WireError) {
        var decoder = FrameDecoder<FromWorker>()
        bytes.withUnsafeBytes { decoder.append($0) }
        #expect(throws: expected) { try decoder.next() }
    }

    @Test func aWorkerDecoderTurnsBadBytesIntoTypedErrorsToo() {
        let cases: [([UInt8], WireError)] = [
            ([2, 0, 0, 0, 4, 9], .trailingBytes(tag: 4, count: 1)),
            ([7, 0, 0, 0, 2, 2, 0, 0, 0, 0xC3, 0x28], .invalidUTF8(tag: 2)),
            ([6, 0, 0, 0, 2, 0, 0, 0, 0, 2], .badValue(tag: 2)),
            ([1, 0, 0, 0, 33], .unknownTag(33)),
        ]
        for (bytes, expected) in cases {
            var decoder = FrameDecoder<ToWorker>()
            bytes.withUnsafeBytes { decoder.append($0) }
            #expect(throws: expected) { try decoder.next() }
        }
    }
}

extension [UInt8] {
    var hex: String { map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
}
