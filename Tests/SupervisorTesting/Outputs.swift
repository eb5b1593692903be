import Foundation
import Testing

/// The events of a JSON Lines event log, parsed as far as the file goes (a SIGKILLed writer may leave half a line).
func logEvents(_ path: String) -> [[String: Any]] {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
}

/// The names in `folder`, sorted.
func names(_ folder: TemporaryFolder) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
}

/// The temporary files in `folder`: what an output is written to until it takes its name.
func temporaries(_ folder: TemporaryFolder) -> [String] {
    names(folder).filter { $0.contains(".tmp-") }
}

/// What a run did, from its JSON summary, without its timings: two runs of one seed agree on all of it.
func runCounts(_ json: String) throws -> [String: String] {
    let summary = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let keys = ["loads", "rendered", "blank", "failed", "spawns", "deaths", "deathsByStatus", "killsByCause",
                "launchErrors", "recoveries", "unobservedDeaths", "deadChannelSends", "lostInputs", "duplicateInputs"]
    return try keys.reduce(into: [:]) { counts, key in
        let value = try #require(summary[key], "no \(key)")
        let text = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        counts[key] = String(decoding: text, as: UTF8.self)
    }
}

/// Lines that are too long, in characters (unicode scalars: every character we print is one column wide).
func overlong(_ text: String, width: Int = 100) -> [String] {
    text.split(separator: "\n").map(String.init).filter { $0.unicodeScalars.count > width }
}

/// Whether every line is within 100 columns and no word is broken at a line's end (a letter, a hyphen, then a
/// letter on the next line: `killed-before-rend` / `er`, or `rend-` / `er`).
func fitsWithWordsWhole(_ text: String) -> Bool {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard overlong(text).isEmpty else { return false }
    for (line, next) in zip(lines, lines.dropFirst()) {
        let first = next.drop { $0 == " " }.first
        if line.hasSuffix("-"), line.dropLast().last?.isLetter == true, first?.isLetter == true { return false }
    }
    return true
}

/// The words of `lines`, in order: what wrapping must keep.
func words(_ lines: [String]) -> [Substring] {
    lines.flatMap { $0.split(whereSeparator: \.isWhitespace) }
}
