/// `text` with every character a terminal would act on shown instead: a C0 control (an escape, a newline, a tab)
/// as its Unicode control picture (`␛`, `␊`, `␉`), DEL as `␡`, and a C1 control or a character that reorders the
/// text around it (a bidirectional override) as `<U+009B>`. Text that came from outside (a quoted log line, a
/// report's field, a file name, a URL) passes through this before it is printed: raw, it could set the window's
/// title, colour the screen, write the clipboard, or forge a line of ours. U+FFFE and U+FFFF, which are no
/// characters at all, are named too: a page (`markupText`) may not hold them.
public func visible(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return text }
    guard text.unicodeScalars.contains(where: { shown($0) != nil }) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
        if let shown = shown(scalar) { out += shown } else { out.unicodeScalars.append(scalar) }
    }
    return out
}

/// How `visible` shows `scalar`, or nil for a character drawn as it is: the one place that decides it, for the
/// terminal and for pages alike.
func shown(_ scalar: Unicode.Scalar) -> String? {
    switch scalar.value {
    case 0..<0x20: Unicode.Scalar(0x2400 + scalar.value).map(String.init)
    case 0x7F: "\u{2421}"
    // C1 controls, the bidirectional marks, embeddings, overrides and isolates, and the two non-characters.
    case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFFFE, 0xFFFF:
        "<U+" + String(scalar.value, radix: 16, uppercase: true).paddedLeft(4) + ">"
    default: nil
    }
}

extension String {
    /// Zeros before it up to `width` digits.
    fileprivate func paddedLeft(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
