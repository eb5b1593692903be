@testable import CommandLineOptions

/// Whether `words` parse; the error's message if not.
func parseError(_ table: OptionTable, _ words: [String]) -> String? {
    do throws(UsageError) {
        _ = try table.parse(words[...])
        return nil
    } catch {
        return error.message
    }
}
