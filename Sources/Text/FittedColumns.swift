/// Columns as `columns` lays them out (the labels left-aligned, the numbers right-aligned, two spaces apart), made
/// to fit `width` without cutting a word: when they are too wide together, each header wraps at its spaces down to
/// its longest word or its widest number, and the label column takes the room left; a label longer than that room
/// (a policy's name may have 40 characters) stands on a line of its own above its numbers.
public func fittedColumns(_ rows: [[String]], labels: Int = 1, width: Int = lineWidth) -> [String] {
    let plain = columns(rows, labels: labels)
    guard let header = rows.first, plain.contains(where: { $0.count > width }) else { return plain }
    let body = rows.dropFirst()
    let count = header.count
    let longestWord = { (text: String) in text.split(separator: " ").map(\.count).max() ?? 0 }
    var widths = (0..<count).map { column in
        max(longestWord(header[column]), body.map { $0[column].count }.max() ?? 0)
    }
    // The label columns share what the numbers leave, each at least its header's longest word.
    let numbers = widths[labels...].reduce(0, +) + 2 * (count - 1)
    let room = max(0, width - numbers)
    for column in 0..<labels {
        widths[column] = max(longestWord(header[column]), min(widths[column], room / labels))
    }
    let headerCells = (0..<count).map { wrapped(header[$0], width: max(1, widths[$0])) }
    var lines = (0..<(headerCells.map(\.count).max() ?? 1)).map { line in
        laidOut((0..<count).map { line < headerCells[$0].count ? headerCells[$0][line] : "" }, widths, labels)
    }
    for row in body {
        let long = (0..<labels).contains { row[$0].count > widths[$0] }
        if long {
            lines += wrapped(row[..<labels].joined(separator: "  "), width: width, indent: 2)
        }
        lines.append(laidOut(long ? Array(repeating: "", count: labels) + row[labels...] : row, widths, labels))
    }
    return lines
}

/// One line of cells in their columns: labels padded on the right, numbers on the left.
private func laidOut(_ cells: [String], _ widths: [Int], _ labels: Int) -> String {
    zip(cells, widths).enumerated().map { column, cell in
        let pad = String(repeating: " ", count: max(0, cell.1 - cell.0.count))
        return column < labels ? cell.0 + pad : pad + cell.0
    }.joined(separator: "  ").trimmingTrailingSpaces()
}

/// `table`, unless the longest words of all its columns cannot stand side by side within `width`: then the last
/// column (a list, a sentence) goes under each row, across the line and indented by four, so that the others keep
/// their words whole beside each other.
public func hangingTable(_ rows: [[String]], width: Int = lineWidth) -> [String] {
    guard let count = rows.first?.count, count > 1 else { return table(rows, width: width) }
    let longestWords = (0..<count).map { column in
        rows.map { $0[column].split(separator: " ").map(\.count).max() ?? 0 }.max() ?? 0
    }
    guard longestWords.reduce(2 * (count - 1), +) > width else { return table(rows, width: width) }
    let leading = count - 1
    var widths = (0..<leading).map { column in rows.map { $0[column].count }.max() ?? 0 }
    while widths.reduce(2 * (leading - 1), +) > width {
        // The column with the most room beyond its longest word narrows first; only then is a word broken.
        let slack = (0..<leading).max { widths[$0] - longestWords[$0] < widths[$1] - longestWords[$1] }!
        let column = widths[slack] > longestWords[slack] ? slack : (0..<leading).max { widths[$0] < widths[$1] }!
        guard widths[column] > 1 else { break }
        widths[column] -= 1
    }
    return rows.flatMap { row in
        let cells = (0..<leading).map { wrapped(row[$0], width: widths[$0]) }
        let height = cells.map(\.count).max() ?? 1
        let beside = (0..<height).map { line in
            laidOut((0..<leading).map { line < cells[$0].count ? cells[$0][line] : "" }, widths, leading)
        }
        let under = wrapped(row[leading], width: width - 4).map { "    " + $0 }
        return beside + (row[leading].isEmpty ? [] : under)
    }
}
