import PSCore
import Testing
@testable import PSRender

/// Lines of code blocks are never wrapped: a line cut in two pastes back as two lines.
@Suite struct CodeBlockTests {
    static let longLine = "curl -fsS https://example.com/a/very/long/path?with=query&and=more | jq -r '.items[].name'"

    func render(_ text: String, format: RenderFormat = .plain, width: Int = 30) throws -> String {
        try RenderHarness.render([PartRecords.message([PartRecords.text(text)])], RenderOptions(format: format, width: width))
    }

    @Test func fencedLinesRunPastTheWidth() throws {
        let out = try render("Run:\n\n```sh\n" + Self.longLine + "\n  indented  spaces  \n```\n\nDone.")
        #expect(out.contains("```sh\n" + Self.longLine + "\n  indented  spaces  \n```\n"))
        // Text around it still wraps.
        let prose = try render("Some words that are long enough to wrap at thirty columns.")
        #expect(prose.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 30 })
    }

    /// A literal's lines end at each newline byte; the one at the very end starts no empty line.
    @Test func literalLinesEndAtNewlines() {
        #expect(LiteralLines.strings("") == [])
        #expect(LiteralLines.strings("\n") == [""])
        #expect(LiteralLines.strings("a") == ["a"])
        #expect(LiteralLines.strings("a\n\n") == ["a", ""])
        #expect(LiteralLines.strings("é\r\nb\n") == ["é\r", "b"])
        var literal = "ab\n\ncd"
        #expect(literal.withUTF8 { LiteralLines.ranges($0) } == [0..<2, 3..<3, 4..<6])
    }

    @Test func indentedCodeRunsPastTheWidth() throws {
        let out = try render("Paragraph.\n\n    " + Self.longLine + "\n")
        #expect(out.contains("\n" + Self.longLine + "\n"))
    }

    @Test func ansiCodeIsOneStyledRunPerLine() throws {
        let out = try render("```\n" + Self.longLine + "\n```", format: .ansi)
        #expect(out.contains("\u{1B}[33m" + Self.longLine + "\u{1B}[0m\n"))
    }

    /// In a quote or a list, the bar or indent comes first and the code line after it, whole.
    @Test func codeInQuotesAndListsKeepsItsLines() throws {
        let quoted = try render("> ```\n> " + Self.longLine + "\n> ```")
        #expect(quoted.contains("│ " + Self.longLine + "\n"))
        let listed = try render("- step:\n\n  ```\n  " + Self.longLine + "\n  ```")
        #expect(listed.contains("  " + Self.longLine + "\n"))
    }

    /// Tables hold only inline code, which wraps at its spaces like the words around it, so the
    /// table keeps to the width.
    @Test func inlineCodeInTablesStaysInsideTheWidth() throws {
        let out = try render("| cmd | what |\n|---|---|\n| `git log --oneline --graph --all` | history |", width: 30)
        #expect(out.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 30 })
        #expect(out.contains("`git log"))
    }

    @Test(arguments: [RenderFormat.plain, .ansi])
    func longCodeStreamsLikeWhole(_ format: RenderFormat) throws {
        let options = RenderOptions(format: format, width: 24)
        let message = StreamingTests.message("Intro.\n\n```sh\n" + Self.longLine + "\n" + Self.longLine + " again\n```\n\nEnd.")
        let whole = try RenderHarness.render([message], options)
        for cut in stride(from: 0, to: 130, by: 7) {
            let streamed = try RenderHarness.render(PartRecords.streamed(message) { PartRecords.split($0, at: [cut, cut + 40]) }, options)
            #expect(streamed == whole, "cut at \(cut)")
        }
    }
}
