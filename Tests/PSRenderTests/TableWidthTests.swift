import PSCore
import Testing
@testable import PSRender

/// A markdown table narrower than its text: cells wrap between words, a column keeps its
/// longest word while the table can fit so, and a word that cannot fit is cut with "…":
/// never `unlimite` on one line and `d` on the next.
@Suite struct TableWidthTests {
    static let plans = """
        | Plan | AI calls per day | Pro model | Storage |
        |------|-----------------:|:---------:|---------|
        | Free | 20 | – | 500 MB |
        | Pro | unlimited | 100 per day | 2 GB |
        | Business | unlimited | unlimited | 50 GB |
        """

    func render(_ text: String, width: Int) throws -> [String] {
        let out = try RenderHarness.render([PartRecords.message([PartRecords.text(text)])], RenderOptions(format: .plain, width: width))
        return out.split(separator: "\n").map(String.init)
    }

    /// Every word on screen is a word of the table, whole, or a cut one ending in "…".
    func wordsAreWhole(_ lines: [String]) -> Bool {
        let words = Set(Self.plans.split(whereSeparator: { " |\n-:".contains($0) }).map(String.init))
        return lines.filter { !$0.hasPrefix("── Assistant") }.flatMap { $0.split(whereSeparator: { " │─┼".contains($0) }) }.allSatisfy {
            words.contains(String($0)) || $0.hasSuffix("…")
        }
    }

    /// The longest words take 33 columns and the rules 9: from 42 columns on, no word is cut.
    @Test(arguments: [42, 46, 60])
    func narrowTablesWrapBetweenWordsOnly(width: Int) throws {
        let lines = try render(Self.plans, width: width)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(lines)")
        #expect(wordsAreWhole(lines), "\(lines)")
        #expect(!lines.contains { $0.contains("…") }, "\(lines)")  // every longest word fits at these widths
        #expect(lines.filter { $0.contains("unlimited") }.count >= 2)
    }

    @Test(arguments: [30, 40])
    func aWordWiderThanItsColumnIsCutWithAnEllipsis(width: Int) throws {
        let lines = try render(Self.plans, width: width)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(lines)")
        #expect(wordsAreWhole(lines), "\(lines)")
        #expect(lines.contains { $0.contains("unli") && $0.contains("…") })
    }

    /// Chinese and Japanese have no spaces: their text still wraps between characters.
    @Test func wideTextWrapsBetweenCharacters() throws {
        let lines = try render("| 名 | 説明 |\n|---|---|\n| 一 | とても長い説明がここに入ります |", width: 20)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 20 }, "\(lines)")
        #expect(!lines.contains { $0.contains("…") })
        let sentence = "とても長い説明がここに入ります"
        let body = lines.drop { !$0.contains("┼") }.joined().filter { sentence.contains($0) }
        #expect(body == sentence, "\(lines)")
    }

    @Test func theColumnFitKeepsLongestWordsWhenItCan() {
        let renderer = TableRenderer(ansi: false, base: TextStyle(), inline: InlineRenderer(ansi: false))
        #expect(renderer.fit([20, 9, 11], words: [5, 9, 5], into: 30) == [11, 9, 10])
        // The last column's longest word is 11 wide: it keeps it, the first gives up more.
        #expect(renderer.fit([20, 9, 11], words: [5, 9, 11], into: 30) == [10, 9, 11])
        // Longest words of 32 columns in 30: the words themselves are narrowed.
        #expect(renderer.fit([20, 9, 11], words: [12, 9, 11], into: 30) == [11, 9, 10])
        #expect(renderer.fit([4, 5], words: [4, 5], into: 20) == [4, 5])
    }
}
