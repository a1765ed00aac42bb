@testable import PSArchive
import XCTest

/// WindowSnippet: the words around the first match of a highlighted text.
final class WindowSnippetTests: XCTestCase {
    private func marked(_ word: String) -> String { "\u{2}\(word)\u{3}" }

    func testTheWindowStartsFourWordsBeforeTheFirstMatchAndHoldsSixteenWords() {
        let words = (1...40).map { "w\($0)" }
        var text = words
        text[20] = marked("hit")
        text[30] = marked("hit")
        let window = WindowSnippet.cut([text.joined(separator: " ")])
        XCTAssertEqual(window, "…" + text[16..<32].joined(separator: " ") + "…")
    }

    func testAMatchNearTheStartHasNoLeadingEllipsisAndAShortTextNoTrailingOne() {
        XCTAssertEqual(WindowSnippet.cut(["a \(marked("b")) c"]), "a \(marked("b")) c")
        XCTAssertEqual(WindowSnippet.cut(["\(marked("first")) then more"]), "\(marked("first")) then more")
    }

    func testTheFirstColumnWithAMatchIsUsedAndAMatchlessTextGivesItsStart() {
        XCTAssertEqual(WindowSnippet.cut([nil, "no match", "tool \(marked("name"))", "x"]), "tool \(marked("name"))")
        let plain = (1...20).map { "p\($0)" }.joined(separator: " ")
        XCTAssertEqual(WindowSnippet.cut([plain]), (1...16).map { "p\($0)" }.joined(separator: " ") + "…")
        XCTAssertEqual(WindowSnippet.cut([nil, nil]), "")
    }

    func testAMatchAtTheWindowsEdgeIsClosedOrLeftOut() {
        // The sixteenth word begins a match that goes on: kept and closed. A seventeenth that
        // begins a match: left out, its marker too.
        let head = [marked("a")] + (2...15).map { "w\($0)" }
        let window = WindowSnippet.cut([(head + ["\u{2}long", "match\u{3}", "w18"]).joined(separator: " ")])
        XCTAssertEqual(window, head.joined(separator: " ") + " \u{2}long\u{3}…")
        let sixteen = head + ["w16"]
        XCTAssertEqual(WindowSnippet.cut([(sixteen + [marked("m")]).joined(separator: " ")]), sixteen.joined(separator: " ") + "…")
    }
}
