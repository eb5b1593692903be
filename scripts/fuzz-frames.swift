// libFuzzer harness for the wire-protocol decoder (Sources/WireProtocol), built and run by `scripts/fuzz`.
//
// For each input it checks that:
//   1. A FrameDecoder fed the input as one piece, and again in pieces of a stride picked by the input's first byte,
//      never traps, and yields the same messages and the same closing error (or nil) either way.
//   2. `Message.decode` on the whole input as one frame body never traps, and when it succeeds, re-encoding gives
//      back exactly the input bytes (the encoding is canonical).
//   3. Every message decoded by 1 or 2 survives a round trip: its encoded frame, fed to a fresh FrameDecoder,
//      decodes to an equal message and leaves no bytes behind.
// A failed check calls fatalError, which libFuzzer reports as a crash along with the input.

/// The messages a decoder yields from `input` delivered in pieces of `stride` bytes, and the error that stopped it.
func drain(_ input: UnsafeRawBufferPointer, stride: Int) -> (messages: [Message], error: WireError?) {
    var decoder = FrameDecoder()
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
func checkRoundTrip(_ message: Message) {
    let frame = message.frame
    var decoder = FrameDecoder()
    frame.withUnsafeBytes { decoder.append($0) }
    let again: Message?
    do throws(WireError) { again = try decoder.next() } catch {
        fatalError("re-encoded \(message) does not decode: \(error)")
    }
    guard again == message, decoder.pendingByteCount == 0 else {
        fatalError("round trip of \(message) gave \(String(describing: again)), \(decoder.pendingByteCount) bytes left")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)

    // 1. Chunking must not change what the stream decodes to.
    let whole = drain(input, stride: max(size, 1))
    let pieces = drain(input, stride: size > 0 ? 1 + Int(data[0]) % 17 : 1)
    guard whole.messages == pieces.messages, whole.error == pieces.error else {
        fatalError("whole input gave \(whole), split input gave \(pieces)")
    }
    whole.messages.forEach(checkRoundTrip)

    // 2. The raw input as one frame body.
    if let message = try? Message.decode(input) {
        guard message.frame.dropFirst(4).elementsEqual(input) else {
            fatalError("\(message) re-encodes to different bytes than it was decoded from")
        }
        checkRoundTrip(message)
    }
    return 0
}
