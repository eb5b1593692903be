import Foundation
import FoundationXML
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

    @Test func theTwoNonCharactersAreNamedToo() {
        #expect(visible("a\u{FFFE}b\u{FFFF}") == "a<U+FFFE>b<U+FFFF>")
    }

    @Test func theOutputHoldsNoCharacterATerminalActsOn() {
        let every = String(String.UnicodeScalarView((0..<0x300).compactMap(Unicode.Scalar.init)))
        let shown = visible(every)
        #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    /// Every character below U+0300, marks that reorder text, the two non-characters, and what markup reserves.
    static let everyKind = String(String.UnicodeScalarView((0..<0x300).compactMap(Unicode.Scalar.init)))
        + "\u{202E}\u{2066}\u{FFFE}\u{FFFF}<&>\"'"

    /// A page made of any text is one XML accepts, and reads back as the terminal shows it.
    @Test func anyTextAsMarkupIsWellFormedXMLThatSaysWhatVisibleSays() throws {
        let document = "<t a=\"\(markupText(Self.everyKind))\">\(markupText(Self.everyKind))</t>"
        final class Reader: NSObject, XMLParserDelegate {
            var attribute = ""
            var text = ""
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                        attributes: [String: String] = [:]) { attribute = attributes["a"] ?? "" }
            func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        }
        let reader = Reader()
        let parser = XMLParser(data: Data(document.utf8))
        parser.delegate = reader
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        // A tab stays (a page draws it as a space); everything else reads back as `visible` shows it.
        #expect(reader.text == visible(Self.everyKind).replacingOccurrences(of: "␉", with: "\t"))
        #expect(reader.text.contains("<U+FFFE><U+FFFF>") && reader.text.hasSuffix("<&>\"'"))
        // In an attribute, XML reads a tab as a space.
        #expect(reader.attribute == visible(Self.everyKind).replacingOccurrences(of: "␉", with: " "))
    }
}
