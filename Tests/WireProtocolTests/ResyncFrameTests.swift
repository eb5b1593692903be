import Testing

@testable import WireProtocol

/// How a supervisor that takes a channel over finds where the worker's answer begins (issue 34).
@Suite struct ResyncFrames {
    static func resynced(_ generation: UInt64) -> FromWorker {
        .resynced(
            generation: generation, url: "app://local/a", title: "A", finished: true, historyIndex: 0, historyCount: 1,
            inputSeq: 4, digest: 9)
    }

    /// Whatever came before (the tail of a frame cut in half, whole frames, the answer to an earlier generation),
    /// only the answer to this generation is found, even when it arrives a byte at a time; what follows it is read
    /// as usual.
    @Test func onlyTheAnswerToThisGenerationIsFound() throws {
        let stale = Array(FromWorker.didFinish(title: "old").frame.dropFirst(3)) + FromWorker.pong(seq: 8).frame
            + Self.resynced(1).frame
        let stream = stale + Self.resynced(2).frame + FromWorker.pong(seq: 9).frame
        var decoder = FrameDecoder<FromWorker>()
        var found = false
        for byte in stream {
            [byte].withUnsafeBytes { decoder.append($0) }
            if !found { found = decoder.skip(toResynced: 2) }
        }
        #expect(found)
        #expect(try decoder.next() == Self.resynced(2))
        #expect(try decoder.next() == .pong(seq: 9))
        #expect(try decoder.next() == nil)
    }

    /// Without the marker a `resynced` frame is refused: a stale frame cannot pass for one by its tag alone.
    @Test func aResyncedFrameWithoutTheMarkerIsRefused() {
        var frame = Self.resynced(2).frame
        frame[5] ^= 0xFF
        var decoder = FrameDecoder<FromWorker>()
        frame.withUnsafeBytes { decoder.append($0) }
        #expect(throws: WireError.badValue(tag: 32)) { try decoder.next() }
    }
}
