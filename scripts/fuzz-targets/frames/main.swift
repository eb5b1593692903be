// libFuzzer harness for the wire-protocol decoders (Sources/WireProtocol), built and run by `scripts/fuzz`.
// `scripts/fuzz --planted` also compiles it in one module with a patched copy of Sources/WireProtocol, hence the
// conditional imports.
//
// Each input is read as both directions' streams, the supervisor's decoder (`FromWorker`) and a worker's
// (`ToWorker`). For each it checks that:
//   1. A FrameDecoder fed the input as one piece, and again in pieces of a stride picked by the input's first byte,
//      never traps, and yields the same messages and the same closing error (or nil) either way.
//   2. `decode` on the whole input as one frame body never traps, and when it succeeds, re-encoding gives back
//      exactly the input bytes (the encoding is canonical).
//   3. Every message decoded by 1 or 2 survives a round trip: its encoded frame, fed to a fresh FrameDecoder,
//      decodes to an equal message and leaves no bytes behind.
// A failed check calls `violated`, which libFuzzer reports as a crash along with the input.
#if canImport(WireProtocol)
import WireProtocol
#endif
#if canImport(FuzzDriver)
import FuzzDriver
#endif

/// The messages a decoder yields from `input` delivered in pieces of `stride` bytes, and the error that stopped it.
func drain<Message: WireMessage>(_: Message.Type, _ input: UnsafeRawBufferPointer, stride: Int) -> (
    messages: [Message], error: WireError?
) {
    var decoder = FrameDecoder<Message>()
    var messages: [Message] = []
    var offset = 0
    while offset < input.count {
        let end = min(offset + stride, input.count)
        decoder.append(UnsafeRawBufferPointer(rebasing: input[offset..<end]))
        offset = end
        do throws(WireError) {
            while let message = try decoder.next() { messages.append(message) }
        } catch {
            return (messages, error)
        }
    }
    return (messages, nil)
}

/// Encodes `message`, decodes the frame again and traps unless the result is equal and consumes the whole frame.
func checkRoundTrip<Message: WireMessage & Equatable>(_ message: Message) {
    let frame = message.frame
    var decoder = FrameDecoder<Message>()
    frame.withUnsafeBytes { decoder.append($0) }
    let again: Message?
    do throws(WireError) { again = try decoder.next() } catch {
        violated("re-encoded \(message) does not decode: \(error)")
    }
    guard again == message, decoder.pendingByteCount == 0 else {
        violated("round trip of \(message) gave \(String(describing: again)), \(decoder.pendingByteCount) bytes left")
    }
}

/// Checks 1 to 3 for one direction.
func check<Message: WireMessage & Equatable>(_ type: Message.Type, _ input: UnsafeRawBufferPointer) {
    // 1. Chunking must not change what the stream decodes to.
    let whole = drain(type, input, stride: max(input.count, 1))
    let pieces = drain(type, input, stride: input.isEmpty ? 1 : 1 + Int(input[0]) % 17)
    guard whole.messages == pieces.messages, whole.error == pieces.error else {
        violated("whole input gave \(whole), split input gave \(pieces)")
    }
    whole.messages.forEach(checkRoundTrip)

    // 2. The raw input as one frame body.
    if let message = try? Message.decode(input) {
        guard message.frame.dropFirst(4).elementsEqual(input) else {
            violated("\(message) re-encodes to different bytes than it was decoded from")
        }
        checkRoundTrip(message)
    }
}

/// Valid frames made by the encoders, a stream of two, and bare frame bodies.
func seeds() -> [(name: String, bytes: [UInt8])] {
    let toWorker: [ToWorker] = [
        .ping(seq: 1), .load(url: "http://a/", replace: false), .reload, .titleQuery(id: 7), .goTo(index: 1),
        .fetchReply(status: 200, mime: "text/html", length: 2, body: Array("hi".utf8)), .input(seq: 2, text: "abcd"),
        .restoreHistory(index: 1, count: 2, urls: ["a:b", "c:d"]), .historyData(urls: ["a:b"]), .fetchData(body: [1, 2, 3]),
        .prepareToSuspend, .processDidResume,
    ]
    let fromWorker: [FromWorker] = [
        .hello(pid: 42, version: protocolVersion, sandbox: .installed), .sandboxViolation(syscall: 2),
        .didCommit(url: "http://a/"), .title(id: 7, title: "t\u{ED}tl"),
        .pong(seq: 1), .inputApplied(seq: 2, digest: 3), .document(length: 2, text: Array("hi".utf8)),
        .history(index: 0, count: 1, urls: ["a:b"]), .documentData(text: Array("hi".utf8)), .readyToSuspend,
    ]
    let frames = toWorker.map(\.frame) + fromWorker.map(\.frame)
    return frames.enumerated().map { ("frame-\($0.offset)", $0.element) }
        + [("stream", toWorker[0].frame + toWorker[1].frame), ("body", Array(fromWorker[4].frame.dropFirst(4)))]
}

runFuzzer(seeds: seeds) { input in
    check(FromWorker.self, input)
    check(ToWorker.self, input)
}
