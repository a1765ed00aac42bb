import Testing
import PSCore
@testable import PSRender

/// A long finished text is cut into pieces only when nothing in it reaches across blank lines,
/// and the question is answered from the bytes in one pass.
@Suite struct MarkdownChunksTests {
    @Test func findsWhatReachesAcrossBlankLinesInAnyASCIICase() {
        for text in ["a\n\n[x]: https://e.example\n", "<!-- c -->", "<?php ?>", "<PRE>", "<Script src=x>", "<sTyLe>",
                     "text <textarea>", "x]:", "<!"] {
            #expect(MarkdownChunks.mayReachAcrossBlankLines(text), "\(text)")
        }
        for text in ["", "]", "<", "a ] : b", "<p>para</p>", "<pr", "<scrip", "<b>styled</b>", "[x](https://e.example)",
                     "<tex tarea>", "café <div>"] {
            #expect(!MarkdownChunks.mayReachAcrossBlankLines(text), "\(text)")
        }
    }

    @Test func aLongPlainTextIsCutAndRendersAsWhole() {
        let paragraphs = (0..<3000).map { "Paragraph \($0) with **bold** and `code` words.\n" }.joined(separator: "\n")
        let pieces = MarkdownChunks.split(paragraphs)
        #expect(pieces.count > 1)
        #expect(pieces.joined() == paragraphs)
        let withDefinition = paragraphs + "\n[x]: https://e.example\n"
        #expect(MarkdownChunks.split(withDefinition).count == 1)
    }

    /// The ASCII shortcut of display widths gives what counting scalar by scalar gives.
    @Test func asciiWidthsMatchScalarWidths() {
        for text in ["", "plain words", "tab\there", "bell\u{7}", "del\u{7F}", "café", "日本", "e\u{301}", "mixed ascii then 😀"] {
            #expect(DisplayWidth.of(text) == text.unicodeScalars.reduce(0) { $0 + DisplayWidth.of($1) }, "\(text)")
        }
    }
}

/// The wrapper cuts words at the scalars " " and "\n", even where they are inside a Character.
@Suite struct WrapperWordTests {
    @Test func cutsAtSpacesInsideCharacters() {
        let lines = Wrapper.wrap([.text("a \u{301}b c\r\nd", .plain)], width: 80)
        #expect(lines.map { $0.map(\.text).joined() } == ["a \u{301}b c\r d"])
    }
}

@Suite struct ControlCharacterTests {
    @Test func printableASCIIIsKeptAndControlsAreStillReplaced() {
        #expect("plain words ~!".withoutControlCharacters == "plain words ~!")
        #expect("a\tb\nc\u{1B}[2J\u{7F}".withoutControlCharacters == "a    b\u{240A}c\u{241B}[2J\u{2421}")
        #expect("café\u{9B}".withoutControlCharacters == "café<U+009B>")
    }
}
