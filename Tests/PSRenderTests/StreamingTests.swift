import PSCore
import Testing
import TestSupport
@testable import PSRender

/// The hard rule: a message streamed in deltas renders to exactly the bytes of the same message
/// given whole, wherever the deltas are cut.
@Suite struct StreamingTests {
    static let formats: [RenderFormat] = [.ansi, .plain, .markdown]

    static func message(_ text: String) -> JSON {
        PartRecords.message([
            PartRecords.object([("type", "step-start")]),
            PartRecords.text("Thinking about *it*.\n\nA second thought.", type: "reasoning"),
            PartRecords.text(text),
            PartRecords.object([("type", "tool-read_page"), ("toolCallId", "t1"), ("state", "output-available"),
                                ("input", PartRecords.object([("pageId", "xyz")])), ("output", "page text")]),
            PartRecords.text("After the tool: **done**."),
        ])
    }

    static func whole(_ message: JSON, _ options: RenderOptions) throws -> String {
        try RenderHarness.render([message], options)
    }

    @Test(arguments: formats)
    func everyScalarAsItsOwnDelta(_ format: RenderFormat) throws {
        for document in Documents.all {
            let options = RenderOptions(format: format, width: 40)
            let message = Self.message(document)
            let streamed = try RenderHarness.render(
                PartRecords.streamed(message) { $0.unicodeScalars.map { String($0) } }, options)
            #expect(streamed == (try Self.whole(message, options)))
        }
    }

    @Test(arguments: formats)
    func everySplitPoint(_ format: RenderFormat) throws {
        for document in Documents.all {
            let options = RenderOptions(format: format, width: 36)
            let message = Self.message(document)
            let expected = try Self.whole(message, options)
            for offset in 0...document.unicodeScalars.count {
                let records = PartRecords.streamed(message) { PartRecords.split($0, at: [offset]) }
                let streamed = try RenderHarness.render(records, options)
                #expect(streamed == expected, "split at \(offset)")
                if streamed != expected { return }
            }
        }
    }

    @Test(arguments: [20, 33, 57, 80, 120])
    func randomSplits(_ width: Int) throws {
        var generator = SplitMix(seed: UInt64(width))
        for document in Documents.all {
            for format in Self.formats {
                let options = RenderOptions(format: format, width: width)
                let message = Self.message(document)
                let expected = try Self.whole(message, options)
                for _ in 0..<20 {
                    let count = document.unicodeScalars.count
                    let cuts = (0..<Int(generator.next() % 30)).map { _ in Int(generator.next() % UInt64(count + 1)) }
                    let streamed = try RenderHarness.render(PartRecords.streamed(message) { PartRecords.split($0, at: cuts) }, options)
                    #expect(streamed == expected, "cuts \(cuts.sorted())")
                }
            }
        }
    }

    /// Random documents made of markdown's syntax characters, streamed in random pieces: the
    /// cases nobody thought of.
    @Test(arguments: [RenderFormat.plain, .ansi])
    func randomMarkdownStreamsLikeWhole(_ format: RenderFormat) throws {
        let tokens = ["word ", "other", "*", "**", "_", "`", "```", "~~~", "\n", "\n\n", "> ", "- ", "1. ", "2) ",
                      "[a]", "(http://u)", "[a]: /x\n", "# ", "===", "---", "|", " | ", "-|-", "  ", "    ", "日本語",
                      "e\u{301}", "<b>", "</b>", "<div>\n", "www.x.org", "\\", "[ ] ", "[x] ", "&amp;", "!["]
        var generator = SplitMix(seed: format == .plain ? 7 : 11)
        for round in 0..<150 {
            let document = (0..<Int(generator.next() % 60)).map { _ in tokens[Int(generator.next() % UInt64(tokens.count))] }.joined()
            let options = RenderOptions(format: format, width: 10 + Int(generator.next() % 30))
            let message = PartRecords.message([PartRecords.text(document), PartRecords.text("tail")])
            let expected = try Self.whole(message, options)
            let count = document.unicodeScalars.count
            let cuts = (0..<Int(generator.next() % 12)).map { _ in Int(generator.next() % UInt64(count + 1)) }
            let streamed = try RenderHarness.render(PartRecords.streamed(message) { PartRecords.split($0, at: cuts) }, options)
            #expect(streamed == expected, "round \(round): \(document.debugDescription) cut at \(cuts.sorted())")
            let scalars = try RenderHarness.render(PartRecords.streamed(message) { $0.unicodeScalars.map { String($0) } }, options)
            #expect(scalars == expected, "round \(round): \(document.debugDescription) one scalar a delta")
        }
    }

    /// Finished blocks appear before the text part ends, and the output only ever grows.
    @Test func finishedBlocksAppearEarly() throws {
        let harness = RenderHarness(RenderOptions(format: .plain, width: 80))
        let start: [JSON] = [
            PartRecords.object([("type", "message-start"), ("messageId", "m1"), ("role", "assistant")]),
            PartRecords.object([("type", "part-start"), ("index", 0), ("part", PartRecords.text("", state: "streaming"))]),
        ]
        try harness.feed(start)
        func delta(_ text: String) -> JSON { PartRecords.object([("type", "part-delta"), ("index", 0), ("delta", .string(text))]) }

        try harness.feed([delta("First paragraph is here.\n\nSecond para")])
        #expect(harness.output.contains("First paragraph is here."))
        #expect(!harness.output.contains("Second"))

        try harness.feed([delta("graph.\n\n```sh\necho one\necho tw")])
        #expect(harness.output.contains("Second paragraph."))
        #expect(harness.output.contains("echo one"))
        #expect(!harness.output.contains("echo tw"))

        try harness.feed([delta("o\n")])
        #expect(harness.output.contains("echo two"))

        let before = harness.output
        // An item is final once the next item's line is complete.
        try harness.feed([delta("```\n\n- a\n- b\n- c\n")])
        #expect(harness.output.hasPrefix(before))
        #expect(harness.output.contains("• b"))
        #expect(!harness.output.contains("• c"))
    }

    /// A paragraph with a `[label]` is held back: a reference definition later in the text can
    /// still make it a link.
    @Test func literalBracketsWaitForTheEnd() throws {
        let options = RenderOptions(format: .plain, width: 80)
        let message = PartRecords.message([PartRecords.text("See [docs] now.\n\nMore.\n\n[docs]: https://d.example\n")])
        let streamed = try RenderHarness.render(PartRecords.streamed(message) { PartRecords.split($0, at: [17, 24]) }, options)
        #expect(streamed == (try Self.whole(message, options)))
        #expect(streamed.contains("docs <https://d.example>"))
    }
}
