import Text

/// How wide a line of SVG text is, from Helvetica's advance widths (the chart's first font; Arial and Liberation
/// Sans share them). The chart cannot measure text, so it reserves this much and pins each label to it with
/// `textLength`: whatever font the viewer substitutes is squeezed or spread to the same box, so a label placed
/// beside a lane's name stays beside it.
enum TextWidth {
    /// Thousandths of an em, by groups of characters; anything else (µ, accented letters) counts as 600 and the
    /// wide punctuation as 1000.
    private static let groups: [(Double, String)] = [
        (222, "ijl'"), (278, " !,./:;I[\\]ft|"), (333, "()-`r{}"), (389, "\"*"), (500, "^Jcksvxyz"),
        (556, "0123456789#$?L_abdeghnopqu"), (584, "+<=>~"), (611, "FTZ"), (667, "&ABEKPSVXY"), (722, "CDHNRUw"),
        (778, "GOQ"), (833, "Mm"), (889, "%"), (944, "W"), (1000, "…—"), (1015, "@"),
    ]
    private static let table: [Character: Double] = Dictionary(
        groups.flatMap { width, characters in characters.map { ($0, width) } }, uniquingKeysWith: { first, _ in first })

    /// Bold Helvetica is about 7% wider, never more than 10%.
    static func of(_ text: String, size: Double, bold: Bool = false) -> Double {
        let ems = text.reduce(0.0) { $0 + (table[$1] ?? 600) } / 1000
        return ems * size * (bold ? 1.1 : 1)
    }
}
