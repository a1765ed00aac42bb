import PSCore
import Testing
@testable import PSRender

/// A long message is written as it is rendered and let go: the lines kept at once follow the
/// block being written, not the message, whole or streamed.
@Suite struct RenderMemoryTests {
    /// Paragraphs, lists, code and quotes, about `bytes` long.
    static func longText(bytes: Int) -> String {
        var text = ""
        var index = 0
        while text.utf8.count < bytes {
            switch index % 4 {
            case 0: text += "Paragraph \(index) has **bold** words and `code` that wrap over the width of the line.\n\n"
            case 1: text += "- item \(index)\n- another item\n\n"
            case 2: text += "```python\nvalue = \(index)\nprint(value)\n```\n\n"
            default: text += "> quoted \(index)\n\n"
            }
            index += 1
        }
        return text
    }

    /// Given whole, a message's first lines are written before most of its text is even parsed,
    /// and no write holds more than one output piece: its lines are never all held at once.
    @Test(arguments: [RenderFormat.ansi, .plain], ["text", "reasoning"])
    func wholeMessageIsWrittenAsItIsRendered(_ format: RenderFormat, _ type: String) throws {
        let text = Self.longText(bytes: 1_200_000)
        final class Writes { var parsedAtFirst: Int?; var largest = 0; var count = 0 }
        let writes = Writes()
        let meter = ParseMeter()
        let renderer = RecordRenderer(options: RenderOptions(format: format, width: 60)) { (piece: UnsafeRawBufferPointer) in
            if writes.parsedAtFirst == nil { writes.parsedAtFirst = meter.bytes.load(ordering: .relaxed) }
            writes.largest = max(writes.largest, piece.count)
            writes.count += 1
        }
        try MarkdownParser.$meter.withValue(meter) {
            try renderer.handle(PartRecords.message([PartRecords.text(text, type: type)]))
            try renderer.flush()
            try renderer.finish()
        }
        let parsedAtFirst = try #require(writes.parsedAtFirst)
        #expect(parsedAtFirst <= text.utf8.count / 4, "the first write came after \(parsedAtFirst) of \(text.utf8.count) bytes were parsed")
        #expect(writes.largest <= 80 * 1024, "one write of \(writes.largest) bytes")
        #expect(writes.count >= 10)
    }

    /// A whole message record is rendered at the next flush (or record), not while its record is
    /// handled: the reader lets the record's line, as long as the text, go in between.
    @Test func aMessageRecordIsRenderedAtTheFlush() throws {
        var output = ""
        let renderer = RecordRenderer(options: RenderOptions(format: .plain, width: 60), text: { output += $0 })
        try renderer.handle(PartRecords.message([PartRecords.text("First message.")]))
        #expect(output.isEmpty)
        try renderer.handle(PartRecords.message([PartRecords.text("Second message.")]))
        #expect(output.contains("First message.") && !output.contains("Second message."))
        try renderer.flush()
        #expect(output.contains("Second message."))
        try renderer.finish()
        #expect(output == (try RenderHarness.render(
            [PartRecords.message([PartRecords.text("First message.")]), PartRecords.message([PartRecords.text("Second message.")])],
            RenderOptions(format: .plain, width: 60))))
    }
}
