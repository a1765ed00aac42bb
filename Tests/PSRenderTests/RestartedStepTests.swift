import PSCore
import Testing
@testable import PSRender

/// When the final message differs from the lines already written (a step the server restarted),
/// what is on the screen stays, one notice says so, and the message goes on from the first line
/// that differs. The written lines are remembered as fingerprints, not kept: these pin the result.
@Suite struct RestartedStepTests {
    static let header = "── Assistant " + String(repeating: "─", count: 27) + "\n\n"
    static let notice = "↺ the server restarted this step; continued below\n"
    static let streamed = "First paragraph.\n\nSecond paragraph.\n\nThird one.\n"

    /// The part records of a text streamed in three paragraphs, then `ending`; flushed after each.
    static func render(ending: [JSON]) throws -> String {
        var records = [
            PartRecords.object([("type", "message-start"), ("messageId", "m1"), ("role", "assistant")]),
            PartRecords.object([("type", "part-start"), ("index", 0), ("part", PartRecords.text("", state: "streaming"))]),
        ]
        for paragraph in ["First paragraph.\n\n", "Second paragraph.\n\n", "Third one.\n\n"] {
            records.append(PartRecords.object([("type", "part-delta"), ("index", 0), ("delta", .string(paragraph))]))
        }
        return try RenderHarness.render(records + ending, RenderOptions(format: .plain, width: 40))
    }

    static func end(with text: String) -> JSON {
        PartRecords.object([("type", "message-end"), ("status", "complete"), ("message", PartRecords.message([PartRecords.text(text)]))])
    }

    @Test func finalMessageDiffersInTheMiddle() throws {
        let output = try Self.render(ending: [Self.end(with: "First paragraph.\n\nChanged second.\n\nThird one.\n")])
        #expect(output == Self.header + Self.streamed + Self.notice + "Changed second.\n\nThird one.\n")
    }

    @Test func finalMessageIsShorter() throws {
        let output = try Self.render(ending: [Self.end(with: "First paragraph.\n")])
        #expect(output == Self.header + Self.streamed + Self.notice)
    }

    @Test func finalMessageDiffersFromItsFirstLine() throws {
        let first = try Self.render(ending: [Self.end(with: "Changed first.\n\nSecond paragraph.\n\nThird one.\n")])
        #expect(first == Self.header + Self.streamed + Self.notice + "Changed first.\n\nSecond paragraph.\n\nThird one.\n")
    }

    @Test func sameFinalMessageWritesNothingMore() throws {
        let output = try Self.render(ending: [Self.end(with: Self.streamed)])
        #expect(output == Self.header + Self.streamed)
    }
}
