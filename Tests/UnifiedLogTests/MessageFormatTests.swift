import Testing

@testable import UnifiedLog

/// Messages made as `os_log` makes them: printf's conversions on the logged items, its annotations, and what a
/// damaged or short record gives (issue 33, item 1).
@Suite struct MessageFormats {
    @Test func printfConversionsOnLoggedItems() {
        let uuid = LogUUID(named: "x")
        let cases: [(String, [Argument], String)] = [
            ("%d|%u|%x|%X|%o", [.scalar(0xFFFF_FFFF, size: 4), .scalar(7, size: 4), .scalar(255, size: 8), .scalar(255, size: 8), .scalar(8, size: 8)],
             "-1|7|ff|FF|10"),
            ("%hhd %lld %5.3d|%-4d|", [.scalar(0xFF, size: 1), .scalar(UInt64(bitPattern: -5), size: 8), .scalar(7, size: 4), .scalar(3, size: 4)],
             "-1 -5   007|3   |"),
            ("%.*s|%*d|%.2f", [.precision(2), .string("abcdef"), .scalar(UInt64(bitPattern: -4), size: 4), .scalar(9, size: 4),
                               .scalar(Double(2.5).bitPattern, size: 8)], "ab|9   |2.50"),
            ("%{public}s %{private}s %@ %{public, name=x}@", [.string("a"), .hidden, .string(nil), .string("b")], "a <private> (null) b"),
            ("%{bool}d %{BOOL}d %{public,uuid_t}.16P", [.scalar(1, size: 4), .scalar(0, size: 4), .data(uuid.bytes)],
             "true NO \(uuid)"),
            ("100%% %s and %d", [.string("x")], "100% x and <decode: missing data>"),
            ("%d %s", [.unknown(0x77), .precision(-3), .string("ok")], "<decode: item type 119> ok"),
            ("%s ends with %", [.string("it")], "it ends with %"),
            ("%.*s", [.scalar(UInt64(bitPattern: -1), size: 4), .string("whole")], "whole"),
        ]
        for (format, arguments, expected) in cases {
            #expect(MessageFormat.format(format, arguments) == expected, "\(format)")
        }
    }
}
