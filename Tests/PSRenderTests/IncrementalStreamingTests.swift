import PSCore
import Testing
@testable import PSRender

/// A streamed text is parsed from its first unfinished block on, never whole for every delta:
/// the work per delta stays bounded by the size of the block being written, not the message.
@Suite struct IncrementalStreamingTests {
    /// A long text of varied blocks; `longestBlock` is the size of its largest block in bytes.
    static func longDocument(blocks: Int) -> (text: String, longestBlock: Int) {
        var pieces: [String] = []
        for index in 0..<blocks {
            switch index % 6 {
            case 0: pieces.append("## Section \(index)\n")
            case 1: pieces.append("1. first item of \(index)\n2. second item, *emphasised*\n")
            case 2: pieces.append("```swift\nlet value = \(index)\nprint(value)\n```\n")
            case 3: pieces.append("> A quoted line number \(index)\n> and its continuation.\n")
            default: pieces.append("Paragraph \(index) has some **bold** words, `code` and a link to <https://example.com/\(index)>.\n")
            }
        }
        return (pieces.joined(separator: "\n"), pieces.map { $0.utf8.count + 1 }.max() ?? 0)
    }

    /// Feeds `text` as one text part in pieces of `size` scalars and returns the most bytes the
    /// markdown parser was given for one delta, and the output.
    static func stream(_ text: String, pieces size: Int, options: RenderOptions) throws -> (maxParsed: Int, output: String) {
        let harness = RenderHarness(options)
        try harness.feed([
            PartRecords.object([("type", "message-start"), ("messageId", "m1"), ("role", "assistant")]),
            PartRecords.object([("type", "part-start"), ("index", 0), ("part", PartRecords.text("", state: "streaming"))]),
        ])
        let scalars = Array(text.unicodeScalars)
        var maxParsed = 0
        for start in stride(from: 0, to: scalars.count, by: size) {
            let piece = String(String.UnicodeScalarView(scalars[start..<min(start + size, scalars.count)]))
            let meter = ParseMeter()
            try MarkdownParser.$meter.withValue(meter) {
                try harness.feed([PartRecords.object([("type", "part-delta"), ("index", 0), ("delta", .string(piece))])])
            }
            maxParsed = max(maxParsed, meter.bytes.load(ordering: .relaxed))
        }
        try harness.feed([
            PartRecords.object([("type", "part-update"), ("index", 0), ("part", PartRecords.text(text))]),
            PartRecords.object([("type", "message-end"), ("status", "complete")]),
        ])
        return (maxParsed, try harness.finish())
    }

    @Test(arguments: [RenderFormat.ansi, .plain, .markdown])
    func parsingPerDeltaIsBoundedByTheBlock(_ format: RenderFormat) throws {
        let (text, longestBlock) = Self.longDocument(blocks: 600)
        let options = RenderOptions(format: format, width: 60)
        let (maxParsed, output) = try Self.stream(text, pieces: 7, options: options)
        // The parsed text is the block being written and at most the one before it (committed
        // once the new one begins), plus the delta.
        #expect(maxParsed <= 2 * longestBlock + 7, "parsed \(maxParsed) bytes for one delta of a \(text.utf8.count)-byte text")
        #expect(text.utf8.count > 50 * (2 * longestBlock + 7))
        let whole = try RenderHarness.render([PartRecords.message([PartRecords.text(text)])], options)
        #expect(output == whole)
    }

    /// When a streamed text is finished (its part-update, then message-end), only the blocks after
    /// the committed ones are parsed again, not the whole text; the output is the whole render's.
    @Test(arguments: [RenderFormat.ansi, .plain], ["text", "reasoning"])
    func finishingAStreamedTextParsesOnlyItsLastBlocks(_ format: RenderFormat, _ type: String) throws {
        let (text, longestBlock) = Self.longDocument(blocks: 600)
        let options = RenderOptions(format: format, width: 60)
        let message = PartRecords.message([PartRecords.text(text, type: type)])
        var records = PartRecords.streamed(message) { PartRecords.split($0, at: Array(stride(from: 9, to: $0.unicodeScalars.count, by: 9))) }
        let ending = Array(records.suffix(2))  // part-update with the whole text, message-end
        records.removeLast(2)
        let harness = RenderHarness(options)
        try harness.feed(records)
        let meter = ParseMeter()
        try MarkdownParser.$meter.withValue(meter) { try harness.feed(ending) }
        let parsed = meter.bytes.load(ordering: .relaxed)
        #expect(parsed <= 2 * longestBlock, "finishing parsed \(parsed) bytes of a \(text.utf8.count)-byte text")
        #expect(try harness.finish() == RenderHarness.render([message], options))
    }

    /// A link reference definition early in the text still defines its label for a use far
    /// later: text that may hold one is kept in what is parsed again.
    @Test func referenceDefinitionReachesLaterBlocks() throws {
        let paragraphs = (0..<40).map { "Paragraph \($0) of filler text.\n" }.joined(separator: "\n")
        let text = "Intro.\n\n[docs]: https://d.example\n\n" + paragraphs + "\nSee [docs] and 3. items:\n\n3. three\n4. four\n"
        let options = RenderOptions(format: .plain, width: 50)
        let (_, output) = try Self.stream(text, pieces: 5, options: options)
        let whole = try RenderHarness.render([PartRecords.message([PartRecords.text(text)])], options)
        #expect(output == whole)
        #expect(output.contains("docs <https://d.example>"))
        #expect(output.contains("3. three"))
    }

    /// The markdown format cuts lines as Characters do: CR LF is one line end, a lone CR none.
    @Test func transcriptLinesWithCarriageReturns() throws {
        let text = "\n \nfirst\r\nsecond\rthird\n\n\n  \nlast\r\n\n"
        let options = RenderOptions(format: .markdown, width: 40)
        let message = PartRecords.message([PartRecords.text(text)])
        let whole = try RenderHarness.render([message], options)
        for offset in 0...text.unicodeScalars.count {
            let streamed = try RenderHarness.render(PartRecords.streamed(message) { PartRecords.split($0, at: [offset]) }, options)
            #expect(streamed == whole, "split at \(offset)")
        }
        let scalars = try RenderHarness.render(PartRecords.streamed(message) { $0.unicodeScalars.map { String($0) } }, options)
        #expect(scalars == whole)
    }

    /// Thousands of short paragraphs, after a finished reasoning part: each delta renders the
    /// lines of the block being written (and the one before it), never the lines before them,
    /// so streaming a long message costs what rendering it whole does.
    @Test(arguments: [RenderFormat.ansi, .plain, .markdown], ["text", "reasoning"])
    func renderedLinesPerDeltaAreBoundedByTheBlock(_ format: RenderFormat, _ streamedType: String) throws {
        let paragraphs = (0..<3000).map { "Paragraph \($0)." }
        let text = paragraphs.joined(separator: "\n\n") + "\n"
        let harness = RenderHarness(RenderOptions(format: format, width: 60))
        try harness.feed([
            PartRecords.object([("type", "message-start"), ("messageId", "m1"), ("role", "assistant")]),
            PartRecords.object([("type", "part-start"), ("index", 0), ("part", PartRecords.text("Thinking first.", type: "reasoning"))]),
            PartRecords.object([("type", "part-start"), ("index", 1), ("part", PartRecords.text("", type: streamedType, state: "streaming"))]),
        ])
        var most = 0
        for paragraph in paragraphs {
            try harness.feed([PartRecords.object([("type", "part-delta"), ("index", 1), ("delta", .string(paragraph + "\n\n"))])])
            most = max(most, harness.renderer.lastRenderedLines)
        }
        try harness.feed([
            PartRecords.object([("type", "part-update"), ("index", 1), ("part", PartRecords.text(text, type: streamedType))]),
            PartRecords.object([("type", "message-end"), ("status", "complete")]),
        ])
        #expect(most <= 8, "a delta rendered \(most) lines of a \(paragraphs.count * 2)-line message")
        let whole = try RenderHarness.render(
            [PartRecords.message([PartRecords.text("Thinking first.", type: "reasoning"), PartRecords.text(text, type: streamedType)])],
            RenderOptions(format: format, width: 60))
        #expect(try harness.finish() == whole)
    }
}
