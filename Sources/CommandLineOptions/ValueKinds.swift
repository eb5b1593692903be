/// The kinds of value the commands' options share; each says in its error what it accepts.
extension ValueKind where Value == Int {
    public static func integer(_ range: ClosedRange<Int>, _ placeholder: String = "<n>") -> Self {
        ValueKind(placeholder: placeholder, accepts: "\(range.lowerBound)-\(range.upperBound)", read: { name, text throws(UsageError) in
            guard let value = Int(text), range.contains(value) else {
                throw UsageError("'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return value
        }, show: { String($0) })
    }

    /// Whole milliseconds, read as nanoseconds.
    public static func wholeMilliseconds(_ range: ClosedRange<Int>) -> Self {
        let whole = integer(range, "<ms>")
        return ValueKind(placeholder: "<ms>", accepts: whole.accepts, read: { name, text throws(UsageError) in
            try whole.read(name, text) * 1_000_000
        }, show: { plain(Double($0) / 1e6) })
    }

    /// Milliseconds, fractions allowed (`0.5`), read as nanoseconds.
    public static func milliseconds(_ range: ClosedRange<Double>) -> Self {
        ValueKind(placeholder: "<ms>", accepts: "\(plain(range.lowerBound))-\(plain(range.upperBound))", read: {
            name, text throws(UsageError) in try nanoseconds(name, text, range: range)
        }, show: { plain(Double($0) / 1e6) })
    }
}

/// A number of milliseconds from `range`, as nanoseconds: finite, and small enough that no deadline computed from it
/// can overflow. `typed` is the whole value when `text` is a piece of it.
func nanoseconds(_ name: String, _ text: String, range: ClosedRange<Double>, typed: String? = nil) throws(UsageError) -> Int {
    guard let value = Double(text), value.isFinite, range.contains(value) else {
        throw UsageError("'\(name)' takes milliseconds from \(plain(range.lowerBound)) to \(plain(range.upperBound)), not '\(typed ?? text)'")
    }
    return Int((value * 1e6).rounded())
}

/// `5`, `0.1`, `3600000`: a number as a person writes it.
public func plain(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}

extension ValueKind where Value == UInt64 {
    public static var seed: Self {
        ValueKind(placeholder: "<s>", read: { name, text throws(UsageError) in
            guard let value = UInt64(text) else { throw UsageError("'\(name)' must be a whole number, not '\(text)'") }
            return value
        }, show: { String($0) })
    }
}

extension ValueKind where Value == Double {
    /// A fraction as `1/200`, `0.005` or `1`.
    public static var rate: Self {
        ValueKind(placeholder: "<rate>", read: { name, text throws(UsageError) in
            let parts = text.split(separator: "/", maxSplits: 1).map { Double($0) }
            let value: Double? = parts.count == 2 ? parts[0].flatMap { n in parts[1].map { n / $0 } } : parts.first ?? nil
            guard let value, value.isFinite, (0...1).contains(value) else {
                throw UsageError("'\(name)' takes a rate from 0 to 1 such as 1/200, not '\(text)'")
            }
            return value
        }, show: { plain($0) })
    }
}

extension ValueKind where Value == String {
    /// A file name; an empty one is a mistake, not the current directory or nothing.
    public static func path(_ placeholder: String = "<file>") -> Self {
        ValueKind(placeholder: placeholder, read: { name, text throws(UsageError) in
            guard !text.isEmpty else { throw UsageError("'\(name)' needs a file name, not an empty one") }
            return text
        }, show: { $0 })
    }
}

extension ValueKind where Value: Equatable {
    /// One of a few names, each standing for a value; `noun` names what they are in the error.
    public static func choice(_ noun: String, _ choices: [(String, Value)], placeholder: String? = nil) -> Self {
        let names = choices.map(\.0)
        let list = names.count == 2 ? "\(names[0]) or \(names[1])" : "one of " + names.joined(separator: ", ")
        return ValueKind(placeholder: placeholder ?? names.joined(separator: "|"), read: { _, text throws(UsageError) in
            guard let choice = choices.first(where: { $0.0 == text }) else {
                throw UsageError("unknown \(noun) '\(text)'; choose \(list)")
            }
            return choice.1
        }, show: { value in choices.first { $0.1 == value }?.0 ?? "" })
    }
}
