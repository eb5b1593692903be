import Core
import Events
import System

/// A policy as a JSON object: the same keys as inline, numbers as JSON numbers and `reuse` as a boolean.
extension PolicyReader {
    /// The largest policy file read: a policy is a few hundred bytes.
    static let fileLimit = 1 << 16

    /// The fields of the JSON object in the file at `path`, each value as the field reads it inline.
    static func jsonFields(_ path: String, option: String) throws(UsageError) -> [(key: String, value: String)] {
        let bytes: [UInt8]
        do throws(FileError) { bytes = try InputFile(path).readAll(limit: fileLimit) } catch {
            throw UsageError("'\(option)': \(error)")
        }
        guard case .object(let members)? = JSON.parse(bytes) else {
            throw UsageError("'\(option)': '\(path)' is not one JSON object with a policy's fields")
        }
        return members.map { ($0.0, inlineText($0.1)) }
    }

    /// A JSON value as it is written inline: anything but a string, number or boolean as its JSON text, which
    /// the field then refuses, naming what it takes.
    static func inlineText(_ value: JSON) -> String {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): plain(number)
        case .bool(let flag): flag ? "yes" : "no"
        case .array, .object, .null: value.text
        }
    }
}
