/// `text` as the characters of an HTML or XML page, in an element or a quoted attribute: `&`, `<`, `>` and both
/// quotes as references, and every character `visible` shows, shown as it shows it. A page stays well-formed with
/// any input (XML 1.0 refuses most C0 controls even as references, so they cannot be escaped, only shown), and a
/// reader sees that they were there. A tab is kept: a page draws it as white space.
public func markupText(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        if scalar != "\t", let shown = shown(scalar) {
            for part in shown.unicodeScalars { appendMarkup(part, to: &out) }
        } else {
            appendMarkup(scalar, to: &out)
        }
    }
    return out
}

private func appendMarkup(_ scalar: Unicode.Scalar, to out: inout String) {
    switch scalar {
    case "&": out += "&amp;"
    case "<": out += "&lt;"
    case ">": out += "&gt;"
    case "\"": out += "&quot;"
    case "'": out += "&#39;"
    default: out.unicodeScalars.append(scalar)
    }
}
