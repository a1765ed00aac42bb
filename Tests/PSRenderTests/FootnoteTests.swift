import PSCore
import Testing
@testable import PSRender

/// GFM footnotes: references as `[n]`, definitions as a numbered list at the end of the text.
@Suite struct FootnoteTests {
    func render(_ text: String, format: RenderFormat = .plain, width: Int = 40) throws -> String {
        try RenderHarness.render([PartRecords.message([PartRecords.text(text), PartRecords.text("Next part.")])],
                                 RenderOptions(format: format, width: width))
    }

    @Test func plainNumbersByFirstReference() throws {
        let out = try render(Documents.footnotes)
        #expect(out.hasSuffix("""
            Intro without notes.

            Claim[1] and another[2], again[1].

            Middle paragraph with [^missing].

            Last words.

            [1] Beta note on two lines.

                And a second paragraph.

            [2] Alpha note.

            Next part.

            """))
        #expect(!out.contains("Never referenced"))
    }

    @Test func ansiReferencesAndMarkersAreCyan() throws {
        let out = try render("Claim[^1].\n\n[^1]: The note.", format: .ansi)
        #expect(out.contains("Claim\u{1B}[36m[1]\u{1B}[0m.\n"))
        #expect(out.contains("\n\u{1B}[36m[1]\u{1B}[0m The note.\n"))
    }

    @Test func longDefinitionsWrapUnderTheirText() throws {
        let out = try render("A[^n]\n\n[^n]: " + String(repeating: "word ", count: 12), width: 30)
        #expect(out.contains("[1] word word word word word\n    word word word word word\n    word word\n"))
    }

    @Test(arguments: [RenderFormat.plain, .ansi, .markdown])
    func footnotesStreamLikeWhole(_ format: RenderFormat) throws {
        let options = RenderOptions(format: format, width: 30)
        let message = StreamingTests.message(Documents.footnotes)
        let whole = try RenderHarness.render([message], options)
        for offset in 0...Documents.footnotes.unicodeScalars.count {
            let streamed = try RenderHarness.render(PartRecords.streamed(message) { PartRecords.split($0, at: [offset]) }, options)
            #expect(streamed == whole, "split at \(offset)")
            if streamed != whole { return }
        }
    }

    /// Text before the first reference is written as it comes; from the reference on, the rest
    /// waits for the end of the text (numbers and definitions depend on all of it).
    @Test func textBeforeTheFirstReferenceStreams() throws {
        let harness = RenderHarness(RenderOptions(format: .plain, width: 80))
        try harness.feed([
            PartRecords.object([("type", "message-start"), ("messageId", "m1"), ("role", "assistant")]),
            PartRecords.object([("type", "part-start"), ("index", 0), ("part", PartRecords.text("", state: "streaming"))]),
            PartRecords.object([("type", "part-delta"), ("index", 0),
                                ("delta", "First.\n\nSee[^1].\n\n[^1]: Note.\n\nAfter.\n\nMore\n")]),
        ])
        #expect(harness.output.contains("First."))
        #expect(!harness.output.contains("See"))
        let out = try harness.finish()
        #expect(out.contains("See[1].\n\nAfter.\n\nMore\n\n[1] Note.\n"))
    }
}
