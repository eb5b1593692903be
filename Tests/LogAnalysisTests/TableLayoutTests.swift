import Foundation
import Testing

@testable import LogAnalysis
@testable import Text
@testable import SupervisorTesting

/// Tables and wrapped text fit 100 columns with words whole: a word too long for its column breaks only at its
/// joints, and the long column gets the room short ones leave.
@Suite struct TableLayout {
    /// The cells of `rows` as `table` laid them out: each column read from where its header starts, line after
    /// line, and each cell's words checked whole, or broken only after a joint (`killed-before-` / `render`).
    static func brokenWords(_ lines: [String], _ rows: [[String]]) -> [String] {
        let header = Array(lines[0])
        var starts: [Int] = []
        for name in rows[0] {
            let word = Array(name.split(separator: " ")[0])
            let from = (starts.last ?? -1) + 1
            starts.append((from...(header.count - word.count)).first { Array(header[$0..<$0 + word.count]) == word }!)
        }
        var broken: [String] = []
        var first = 0
        for (row, cells) in rows.enumerated() {
            let end = row + 1 < rows.count ? lines.indices.first { $0 > first && lines[$0].hasPrefix(rows[row + 1][0] + " ") }! : lines.count
            for (column, cell) in cells.enumerated() {
                let upTo = column + 1 < starts.count ? starts[column + 1] : Int.max
                let joined = lines[first..<end].map { line -> String in
                    let characters = Array(line)
                    guard starts[column] < characters.count else { return "" }
                    return String(characters[starts[column]..<min(upTo, characters.count)]).trimmingTrailingSpaces()
                }.filter { !$0.isEmpty }
                if !Self.wholeOrJointed(joined, cell) { broken.append("row \(row) column \(column): \(joined)") }
            }
            first = end
        }
        return broken
    }

    /// Whether the lines of a column give `cell`'s words in order, each whole or broken only after a joint.
    static func wholeOrJointed(_ lines: [String], _ cell: String) -> Bool {
        var words = cell.split(separator: " ").map(String.init)[...]
        var pending = ""
        for piece in lines.flatMap({ $0.split(separator: " ").map(String.init) }) {
            guard let word = words.first else { return false }
            let sofar = pending + piece
            if sofar == word {
                words.removeFirst()
                pending = ""
            } else if word.hasPrefix(sofar), let last = piece.last, "-_./".contains(last) {
                pending = sofar
            } else {
                return false
            }
        }
        return words.isEmpty && pending.isEmpty
    }

    static let detail = "foreground raise failed 4.3 ms after launch; killed by Jetsam (per-process-limit, 2,210 pages "
        + "= 34.5 MiB); the view was blank until rebuilt"

    /// With a FILE column and a long name, no word of the kind or the time is cut, the name breaks only at its
    /// joints, and WHAT HAPPENED keeps more room than the file's name.
    @Test func aFileColumnCutsNoWordAndTheDetailKeepsTheRoom() {
        let file = "sysdiagnose_2026.03.02_10-11-12-0800_iPhone-OS_iPhone_22B83.tar.gz"
        let rows = [
            ["PID", "KIND", "CONFIDENCE", "FIRST SEEN", "FILE", "USER SAW", "WHAT HAPPENED"],
            ["4107", "killed-before-render", "confirmed", "10:11:12.120 +0100", file, "blank until rebuilt, 3.0 s", Self.detail],
            ["41200", "gone-when-raised", "possible", "10:11:13.000 -0800", "JetsamEvent-2026-03-02-101113.ips", "unknown",
             "gone when raised to foreground, with no launch in the input; when it died is unknown"],
        ]
        let lines = table(rows)
        #expect(lines.allSatisfy { $0.count <= lineWidth }, "\(lines.filter { $0.count > lineWidth })")
        #expect(Self.brokenWords(lines, rows).isEmpty, "\(Self.brokenWords(lines, rows))\n\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("killed-before-render") })
        let header = lines[0]
        let fileWidth = header.distance(from: header.range(of: "FILE")!.lowerBound, to: header.range(of: "USER SAW")!.lowerBound)
        let detailWidth = lineWidth - header.distance(from: header.startIndex, to: header.range(of: "WHAT HAPPENED")!.lowerBound)
        #expect(detailWidth > fileWidth, "\(lines.joined(separator: "\n"))")
    }

    /// A word longer than its line breaks after its last joint that fits.
    @Test func aLongWordBreaksAtAJoint() {
        #expect(wrapped("killed-before-render", width: 15) == ["killed-before-", "render"])
        #expect(wrapped("qqqqqqqqqq", width: 4) == ["qqqq", "qqqq", "qq"])
    }
}


extension Processes {
    /// Every text `analyze` prints of wide inputs (long file names, a folder's warnings, the table with its FILE
    /// column, `--timeline`) fits 100 columns, with no word cut but at its joints.
    @Suite struct AnalyzeWidth {
        @Test func everyTextOutputOfWideInputsFits() throws {
            let long = "WebContent-4107-" + String(repeating: "very-long-device-log-name-", count: 5) + "end.log"
            let log = Fixture.xcode.replacingOccurrences(of: "My App[", with: "My Rather Long Application Name[")
            let folder = try TemporaryFolder([
                long: log, "JetsamEvent-2026-03-02-101113.ips": ReportFixture.jetsam,
                "console copy of the same device with a long name.txt": Fixture.consoleApp,
            ])
            #expect(symlink(folder.path + "/gone", folder.path + "/" + String(repeating: "dangling-link-", count: 9)) == 0)
            for arguments in [[folder.path], [folder.path, "--timeline", "4107"], [folder.path, "--timeline", "4120"]] {
                let result = try runSupervisor(["analyze"] + arguments)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(overlong(result.stdout).isEmpty && overlong(result.stderr).isEmpty,
                        "\(overlong(result.stdout)) \(overlong(result.stderr))")
                #expect(result.stderr.contains("warning"), "\(result.stderr)")
                let words = (result.stdout + result.stderr).split(whereSeparator: { $0 == " " || $0 == "\n" })
                #expect(!words.contains { $0.hasPrefix("killed-before-") && $0 != "killed-before-render" && $0 != "killed-before-" })
                #expect(result.stdout.contains("killed-before-render"))
            }
            let table = try runSupervisor(["analyze", folder.path]).stdout.split(separator: "\n").map(String.init)
            let rows = table.drop { !$0.hasPrefix("PID") }.prefix { !$0.isEmpty }
            #expect(rows.count > 2)
            let pieces = rows.dropFirst().compactMap { row -> String? in
                let characters = Array(row)
                let header = Array(rows.first!)
                guard let start = (0..<header.count - 3).first(where: { String(header[$0..<$0 + 4]) == "FILE" }),
                    start < characters.count
                else { return nil }
                return String(characters[start...]).split(separator: " ").first.map(String.init)
            }
            // The long name's pieces, one a line, rebuild it: it broke only at its joints.
            #expect(pieces.filter { long.contains($0) }.joined().hasPrefix("WebContent-4107-very-long-"), "\(rows)")
        }
    }
}
