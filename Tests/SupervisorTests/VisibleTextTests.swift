import Testing

@testable import Text

/// Text from outside is printed so that a terminal draws every character of it and acts on none.
@Suite struct VisibleText {
    @Test func plainTextIsUnchanged() {
        #expect(visible("WebContent[4107] didClose, reason=Crash ✓") == "WebContent[4107] didClose, reason=Crash ✓")
    }

    @Test func everyControlCharacterIsShownAsItsPicture() {
        let title = "\u{1B}]0;pwned\u{07}"
        #expect(visible(title) == "␛]0;pwned␇")
        #expect(visible("a\nsupervisor: error: fake\r\tb\u{7F}") == "a␊supervisor: error: fake␍␉b␡")
    }

    @Test func c1ControlsAndBidirectionalOverridesAreNamed() {
        #expect(visible("x\u{9B}31m") == "x<U+009B>31m")
        #expect(visible("evil\u{202E}txt.exe") == "evil<U+202E>txt.exe")
    }

    @Test func theOutputHoldsNoCharacterATerminalActsOn() {
        let every = String(String.UnicodeScalarView((0..<0x300).compactMap(Unicode.Scalar.init)))
        let shown = visible(every)
        #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
}
