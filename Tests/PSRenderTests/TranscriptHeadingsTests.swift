import PSCore
import Testing
@testable import PSRender

/// In the markdown transcript, the headings of a turn's text sit below the turn's `##` heading.
@Suite struct TranscriptHeadingsTests {
    func shifted(_ text: String) -> String {
        TranscriptHeadings.shift(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), by: 2)
            .joined(separator: "\n")
    }

    @Test func atxHeadingsMoveDownCappedAtSix() {
        #expect(shifted("# One\n## Two\n### Three\n#### Four\n##### Five\n###### Six ######\n#")
            == "### One\n#### Two\n##### Three\n###### Four\n###### Five\n###### Six ######\n###")
        #expect(shifted("   # indented\n#hashtag\n####### seven\n    # code") == "   ### indented\n#hashtag\n####### seven\n    # code")
    }

    @Test func setextHeadingsBecomeAtx() {
        #expect(shifted("Title\n=====\n\nSub\non two lines\n---\ntext") == "### Title\n\n#### Sub on two lines\ntext")
        #expect(shifted("Ends with #\n===") == "### Ends with # #")
    }

    @Test func fencedCodeIsLeftAlone() {
        let code = "```sh\n# a comment\n## another\n```\n# After"
        #expect(shifted(code) == "```sh\n# a comment\n## another\n```\n### After")
        #expect(shifted("~~~~\n# x\n~~~\n# still code\n~~~~\n# out") == "~~~~\n# x\n~~~\n# still code\n~~~~\n### out")
        #expect(shifted("- step\n  ```\n  # in a list\n  ```") == "- step\n  ```\n  # in a list\n  ```")
        #expect(shifted("> ```\n> # quoted code\n> ```\n\nx\n===") == "> ```\n> # quoted code\n> ```\n\n### x")
        #expect(shifted("``` a`b\n# not a fence\n===") == "``` a`b\n### not a fence\n===")
    }

    @Test func notHeadingsAreLeftAlone() {
        // A rule after a blank line, lazy lines of a quote or list, tables, HTML, indented code.
        let text = """
            para

            ---
            > quote
            lazy
            ===
            - item
            ---

            | a | b |
            ---

            <!--
            Hidden
            ===
            -->

                code
            ===
            """
        #expect(shifted(text) == text)
    }

    @Test func markdownTranscriptShiftsEveryTurn() throws {
        let records = [
            PartRecords.message([PartRecords.text("# Question\nbody")], role: "user", id: "u1"),
            PartRecords.message([PartRecords.text("Answer\n===\n\n## Part\n\n```\n# code\n```"),
                                 PartRecords.text("# Thinking", type: "reasoning")], role: "assistant", id: "a1"),
        ]
        let out = try RenderHarness.render(records, RenderOptions(format: .markdown))
        #expect(out == """
            ## User

            ### Question
            body

            ## Assistant

            ### Answer

            #### Part

            ```
            # code
            ```

            > **Reasoning**
            >
            > ### Thinking

            """)
    }

    static let document = """
        Intro line
        that goes on.

        # Top
        Setext
        ======
        ```python
        # comment
        ```
        > quote
        Lazy
        ---
        Last
        """

    @Test func streamedLineByLineLikeWhole() throws {
        let options = RenderOptions(format: .markdown)
        let message = StreamingTests.message(Self.document)
        let whole = try RenderHarness.render([message], options)
        #expect(whole.contains("### Top\n### Setext\n```python\n# comment\n```"))
        for offset in 0...Self.document.unicodeScalars.count {
            let streamed = try RenderHarness.render(PartRecords.streamed(message) { PartRecords.split($0, at: [offset, offset + 9]) }, options)
            #expect(streamed == whole, "split at \(offset)")
            if streamed != whole { return }
        }
        let scalars = try RenderHarness.render(PartRecords.streamed(message) { $0.unicodeScalars.map { String($0) } }, options)
        #expect(scalars == whole)
    }

    /// A paragraph's lines are written when it ends (a setext underline could still come).
    @Test func paragraphsWaitForTheirEnd() throws {
        let harness = RenderHarness(RenderOptions(format: .markdown))
        func delta(_ text: String) -> JSON { PartRecords.object([("type", "part-delta"), ("index", 0), ("delta", .string(text))]) }
        try harness.feed([
            PartRecords.object([("type", "message-start"), ("messageId", "m1"), ("role", "assistant")]),
            PartRecords.object([("type", "part-start"), ("index", 0), ("part", PartRecords.text("", state: "streaming"))]),
            delta("# Heading\nTitle\n"),
        ])
        #expect(harness.output.contains("### Heading\n"))
        #expect(!harness.output.contains("Title"))
        try harness.feed([delta("===\n\nnext")])
        #expect(harness.output.contains("### Heading\n### Title\n"))
    }
}
