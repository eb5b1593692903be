/// Text for a terminal. Every line the CLI prints fits `lineWidth` columns, counted in characters (all ours are one
/// column wide), broken at words; numbers in a column share one precision; counts agree with their nouns.
public let lineWidth = 100

/// `1 load`, `2 loads`, `1,000,000 tabs`; `plural` for nouns that do not take an s.
public func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(grouped(count)) \(count == 1 ? singular : plural ?? singular + "s")"
}

/// `value` with exactly `decimals` digits after the point (`4.500`, not `4.5`), or `∞` for a load never seen.
public func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "∞" }
    var scale = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * Double(scale)).rounded()
    guard scaled < 1e15 else { return String(Int(value.rounded())) }
    let units = Int(scaled)
    var text = (value < 0 && units > 0 ? "-" : "") + String(units / scale)
    if decimals > 0 {
        let fraction = String(units % scale)
        text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
    return text
}

/// `text` in lines of at most `width` characters, broken at spaces; runs of spaces inside a line are kept (they
/// align columns), continuation lines start with `indent` spaces. Only a word longer than a whole line is broken
/// inside, after its last `-`, `_`, `.` or `/` that fits (`killed-before-` / `render`), else where the line ends:
/// it could not fit otherwise.
public func wrapped(_ text: String, width: Int = lineWidth, indent: Int = 0) -> [String] {
    let margin = String(repeating: " ", count: indent)
    var lines: [String] = []
    var line = ""
    var hasWord = false
    var index = text.startIndex
    while index < text.endIndex {
        let wordStart = text[index...].firstIndex { $0 != " " } ?? text.endIndex
        let wordEnd = text[wordStart...].firstIndex(of: " ") ?? text.endIndex
        let gap = text[index..<wordStart]
        var word = text[wordStart..<wordEnd]
        index = wordEnd
        if word.isEmpty { break }
        if hasWord, line.count + gap.count + word.count > width {
            lines.append(line)
            line = margin
        } else {
            line += gap
        }
        while line.count + word.count > width {
            let room = max(1, width - line.count)
            let cut = softBreak(in: word, within: room) ?? room
            lines.append(line + word.prefix(cut))
            word = word.dropFirst(cut)
            line = margin
        }
        line += word
        hasWord = true
    }
    return lines + [line]
}

/// The characters after which a word too long for its line is broken: the joints of compound words and names.
private let joints: Set<Character> = ["-", "_", ".", "/"]

/// How many characters of `word` to put on a line with `room` left: up to its last joint that fits, if one does.
private func softBreak(in word: Substring, within room: Int) -> Int? {
    var cut: Int?
    let length = word.count
    for (offset, character) in word.prefix(room).enumerated() where joints.contains(character) && offset + 1 < length {
        cut = offset + 1
    }
    return cut
}

/// The longest run of `text` that `wrapped` keeps on one line when its words may break at their joints.
private func longestPiece(_ text: String) -> Int {
    var longest = 0
    var run = 0
    for character in text {
        if character == " " {
            run = 0
            continue
        }
        run += 1
        longest = max(longest, run)
        if joints.contains(character) { run = 0 }
    }
    return longest
}

/// A quoted log line cut to at most `width` characters between two tokens, not inside a number or a word, with
/// `…` where it was cut (`"pid":2530` is never printed for 25304); only a token longer than half the width is cut
/// inside, since nothing else would fit.
public func clipped(_ text: String, width: Int) -> String {
    guard text.count > width else { return text }
    guard width > 1 else { return String("…".prefix(width)) }
    let characters = Array(text)
    func isWord(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "." }
    var cut = width - 1
    // Back to a boundary between tokens, as far as half the room: a token longer than that is cut inside.
    while cut > max(1, (width - 1) / 2), isWord(characters[cut - 1]), isWord(characters[cut]) { cut -= 1 }
    if isWord(characters[cut - 1]), isWord(characters[cut]) { cut = width - 1 }
    return String(characters[..<cut]).trimmingTrailingSpaces() + "…"
}

/// Columns two spaces apart, each as wide as its widest cell: the first `labels` left-aligned, the others
/// right-aligned (numbers).
public func columns(_ rows: [[String]], labels: Int = 1) -> [String] {
    guard let count = rows.first?.count else { return [] }
    let widths = (0..<count).map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
        row.enumerated().map { column, cell in
            let pad = String(repeating: " ", count: widths[column] - cell.count)
            return column < labels ? cell + pad : pad + cell
        }.joined(separator: "  ").trimmingTrailingSpaces()
    }
}

/// Left-aligned columns two spaces apart, every cell wrapped at words inside its column, so that each line fits
/// `width` and no word is cut. When the columns are too wide together, each keeps room for its longest word, and the
/// room left is shared out evenly, no column taking more than it needs: a short file name or `blank view` stands
/// whole, and the long detail gets the rest. Only when the longest words cannot stand side by side does the column of the longest break
/// its words at their joints (`killed-before-` / `render`); a word is cut elsewhere only when even that is too wide.
public func table(_ rows: [[String]], width: Int = lineWidth) -> [String] {
    guard let count = rows.first?.count else { return [] }
    let room = width - 2 * (count - 1)
    let natural = (0..<count).map { column in rows.map { $0[column].count }.max() ?? 0 }
    var least = (0..<count).map { column in
        rows.map { $0[column].split(separator: " ").map(\.count).max() ?? 0 }.max() ?? 0
    }
    let pieces = (0..<count).map { column in rows.map { longestPiece($0[column]) }.max() ?? 0 }
    for column in least.indices.sorted(by: { least[$0] > least[$1] }) where least.reduce(0, +) > room {
        least[column] = pieces[column]
    }
    while least.reduce(0, +) > room, let column = least.indices.max(by: { least[$0] < least[$1] }), least[column] > 1 {
        least[column] -= 1
    }
    var widths = natural
    if natural.reduce(0, +) > room {
        // Each column that wants more than its longest word gets an equal share of the room left, or less if it
        // needs less; what a short column leaves goes to the others, so the longest gets the rest.
        widths = least
        var spare = room - least.reduce(0, +)
        var open = (0..<count).filter { natural[$0] > widths[$0] }
        while spare > 0, !open.isEmpty {
            let share = max(1, spare / open.count)
            for column in open.sorted(by: { natural[$0] - widths[$0] < natural[$1] - widths[$1] }) where spare > 0 {
                let more = min(share, natural[column] - widths[column], spare)
                widths[column] += more
                spare -= more
            }
            open = open.filter { natural[$0] > widths[$0] }
        }
    }
    return rows.flatMap { row in
        let cells = zip(row, widths).map { cell, room in wrapped(cell, width: room) }
        let height = cells.map(\.count).max() ?? 1
        return (0..<height).map { line in
            zip(cells, widths).map { cell, room in
                let text = line < cell.count ? cell[line] : ""
                return text + String(repeating: " ", count: max(0, room - text.count))
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }
}

/// `1,234,567`, `-1,000`: a count as a person reads it.
public func grouped(_ value: Int) -> String {
    let digits = Array(String(value.magnitude))
    var out = value < 0 ? "-" : ""
    for (i, digit) in digits.enumerated() {
        if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(digit)
    }
    return out
}

extension String {
    package func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// The first three of `names`, and `...` when there are more: for a warning that names what it passed over. The
/// names were found on disk or in an archive, so each is shown `visible`.
public func listed(_ names: [String]) -> String {
    names.prefix(3).map(visible).joined(separator: ", ") + (names.count > 3 ? ", ..." : "")
}

/// `3.9 ms`, `1.2 s`: a span of microseconds in the unit that reads best, cut (not rounded) to a tenth.
public func duration(_ micros: Int) -> String {
    if micros < 1000 { return "\(micros) µs" }
    if micros < 1_000_000 { return "\(Double(micros / 100) / 10) ms" }
    return "\(Double(micros / 100_000) / 10) s"
}
