import Foundation
import Testing
import UnifiedLog

@testable import Events
@testable import LogAnalysis

/// An entry as `log show --style ndjson` prints it, written byte by byte: escaped exactly as our JSON escapes (the
/// terminal-safe way), read back as the same values.
@Suite struct EntryNDJSON {
    @Test(arguments: [
        "plain", #"quote " and \ backslash"#, "line\nbreak\r\ttab", "\u{1}\u{1F}\u{7F}", "C1 \u{85}\u{9F} kept \u{A0}é",
        "bidi \u{61C}\u{200E}\u{200F}\u{202A}\u{202E}\u{2066}\u{2069} but not \u{2010}\u{2030}\u{2070}", "emoji 🙂 中文", "",
        "ends in a lead \u{C2}",
    ])
    func aMessageIsEscapedAsOurJSONEscapesIt(message: String) throws {
        var entry = LogEntry(
            continuousTime: 96_370_345_288_136, wallNanoseconds: 1_653_871_101_053_672_999, pid: 49549, thread: 11_090_491,
            eventType: .log, messageType: .error, subsystem: "com.apple.WebKit", category: "Process", activityID: 7,
            message: message)
        entry.senderImageUUID = nil
        var out: [UInt8] = []
        var clock = NDJSONClock()
        entry.appendNDJSON(to: &out, clock: &clock)
        let line = String(decoding: out, as: UTF8.self)
        var quoted = ""
        JSON.quote(message, into: &quoted)
        #expect(line.hasSuffix(#","eventMessage":"# + quoted + "}\n"), "\(line)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out)) as? [String: Any])
        #expect(object["eventMessage"] as? String == message && object["timestamp"] as? String == "2022-05-30 00:38:21.053672+0000")
        #expect(object["processID"] as? Int == 49549 && object["machTimestamp"] as? Int == 96_370_345_288_136)
        #expect(object["senderImageUUID"] is NSNull && object["messageType"] as? String == "Error")
    }
}
