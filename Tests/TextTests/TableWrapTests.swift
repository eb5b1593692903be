import Testing

@testable import Text

/// The incidents table fits 100 columns whatever its cells hold, and wraps them at words: nothing is cut.
@Suite struct TableWrap {
    /// Words of many lengths, `characters` long in all.
    static func sentence(_ characters: Int) -> String {
        let words = ["raise", "failed", "3.9", "ms", "after", "launch;", "RBSAssertionErrorDomain", "code", "2:", "the",
                     "process", "does", "not", "exist", "(SIGKILL", "from", "jetsam,", "per-process-limit)"]
        var text = ""
        var i = 0
        while text.count < characters {
            text += (text.isEmpty ? "" : " ") + words[i % words.count]
            i += 1
        }
        return String(text.prefix(characters)).trimmingTrailingSpaces()
    }

    /// A 300-character detail beside a long file column (several inputs): every line fits, and the words of each
    /// column come back whole and in order.
    @Test func longCellsWrapWithinOneHundredColumns() {
        let detail = Self.sentence(300)
        let file = "sysdiagnose 2025.03.02 10-11-12-0100 iPhone logs/exported device log.txt"
        let rows = [
            ["PID", "KIND", "CONFIDENCE", "AT", "FILE", "USER SAW", "WHAT HAPPENED"],
            ["4107", "killed-before-render", "confirmed", "10:11:12.120", file, "blank view", detail],
            ["4120", "crash", "likely", "10:11:13.000", "a.log", "blank view", "reported as a crash"],
        ]
        let lines = table(rows)
        #expect(detail.count == 300)
        #expect(lines.allSatisfy { $0.count <= lineWidth }, "\(lines.filter { $0.count > lineWidth })")
        #expect(lines.count > 3)
        // Each column starts where its header does: its words are what stands there, line after line.
        let header = Array(lines[0])
        var starts: [Int] = []
        for name in rows[0] {
            let word = Array(name.split(separator: " ")[0])
            let from = (starts.last ?? -1) + 1
            starts.append((from...(header.count - word.count)).first { Array(header[$0..<$0 + word.count]) == word }!)
        }
        for (row, cells) in rows.enumerated().dropFirst() {
            let first = lines.firstIndex { $0.hasPrefix(cells[0]) }!
            let end = rows.indices.contains(row + 1) ? lines.firstIndex { $0.hasPrefix(rows[row + 1][0]) }! : lines.count
            for (column, cell) in cells.enumerated() {
                let upTo = column + 1 < starts.count ? starts[column + 1] : Int.max
                let words = lines[first..<end].flatMap { line -> [Substring] in
                    let characters = Array(line)
                    guard starts[column] < characters.count else { return [] }
                    return String(characters[starts[column]..<min(upTo, characters.count)]).split(separator: " ")
                }
                #expect(words == cell.split(separator: " "), "column \(column) of row \(row)")
            }
        }
    }

    /// A word longer than any column can hold is the one thing broken, and still no line is too long.
    @Test func aWordWiderThanTheTableIsBrokenToFit() {
        let word = String(repeating: "q", count: 150)
        let lines = table([["PID", "FILE", "WHAT HAPPENED"], ["1", word, Self.sentence(200)]])
        #expect(lines.allSatisfy { $0.count <= lineWidth }, "\(lines.filter { $0.count > lineWidth })")
        #expect(lines.joined().filter { $0 == "q" }.count == 150)
    }

    /// However little room is left, a cut keeps what fits and never reads outside the text (width 2 trapped).
    @Test func aWordClippedToTwoCharactersKeepsOne() {
        #expect(clipped("raise failed", width: 2) == "r…")
        #expect(clipped("raise failed", width: 3) == "ra…")
    }
}
