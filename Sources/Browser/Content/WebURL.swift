
/// The few parts of a URL the supervisor acts on: `scheme://host/path?query#fragment`, kept as written. Nothing is
/// decoded until asked for, so a check made on the decoded form cannot be fooled by an encoding (`%2e%2e` is `..`).
public struct WebURL: Equatable, Sendable {
    public let scheme: String
    public let host: String
    /// Everything after the host up to `?` or `#`, without its leading `/`, still percent-encoded.
    public let path: String
    public let query: String?

    /// Nil unless `text` is an absolute URL with an authority (`scheme://host...`).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
            bytes[..<colon].allSatisfy({ Self.isSchemeByte($0) }),
            bytes.count >= colon + 3, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else { return nil }
        let rest = bytes[(colon + 3)...]
        let hostEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
        let fragment = rest.firstIndex(of: UInt8(ascii: "#")) ?? rest.endIndex
        let question = rest[hostEnd..<fragment].firstIndex(of: UInt8(ascii: "?")) ?? fragment
        scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        host = String(decoding: rest[..<hostEnd], as: UTF8.self).lowercased()
        let pathStart = hostEnd < question && rest[hostEnd] == UInt8(ascii: "/") ? hostEnd + 1 : hostEnd
        path = String(decoding: rest[pathStart..<question], as: UTF8.self)
        query = question < fragment ? String(decoding: rest[(question + 1)..<fragment], as: UTF8.self) : nil
    }

    /// The query's `name=value` pairs, decoded (`+` is a space), in order.
    public var queryItems: [(name: String, value: String)] {
        guard let query else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in
                let bytes = Array(part.utf8).map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }
                return String(decoding: WebURL.percentDecoded(bytes) ?? bytes, as: UTF8.self)
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// The value of the first query item called `name`.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// `%XX` sequences replaced by their bytes; nil if one is malformed (a `%` not followed by two hex digits).
    public static func percentDecoded(_ bytes: some Collection<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }

    /// `text` safe to stand as one query value: everything but unreserved characters is `%XX`.
    public static func percentEncoded(_ text: String) -> String {
        var out: [UInt8] = []
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isUnreserved(byte) && byte != UInt8(ascii: "_") && byte != UInt8(ascii: "~") || byte == UInt8(ascii: "+")
    }
}
