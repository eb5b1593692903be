/// `text` with every character a terminal would act on shown instead: a C0 control (an escape, a newline, a tab)
/// as its Unicode control picture (`␛`, `␊`, `␉`), DEL as `␡`, and a C1 control or a character that reorders the
/// text around it (a bidirectional override) as `<U+009B>`. Text that came from outside (a quoted log line, a
/// report's field, a file name, a URL) passes through this before it is printed: raw, it could set the window's
/// title, colour the screen, write the clipboard, or forge a line of ours.
public func visible(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return text }
    guard text.unicodeScalars.contains(where: isActedOn) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
        if scalar.value < 0x20, let picture = Unicode.Scalar(0x2400 + scalar.value) {
            out.unicodeScalars.append(picture)
        } else if scalar.value == 0x7F {
            out.unicodeScalars.append("\u{2421}")
        } else if isActedOn(scalar) {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            out += "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// Whether a terminal acts on `scalar` rather than drawing it: C0 and C1 controls, DEL, and the bidirectional
/// marks, embeddings, overrides and isolates that reorder what is drawn around them.
private func isActedOn(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F: true
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
}
