import Foundation
import Testing
import TestSupport

/// Records shown on an 80-column terminal (a pseudo-terminal read by pyte, through
/// Terminal/reply_terminal.py): tables, not JSON wrapped by the terminal; columns the server
/// fills; paragraphs wrapped between words, never `What shou` / `ld`.
@Suite(.serialized) struct TerminalTablesTests {
    /// The words of `text`, each whole on one of `lines`.
    static func wordsStayWhole(_ text: String, in lines: [String]) -> Bool {
        let shown = Set(lines.flatMap { $0.split(separator: " ").map(String.init) })
        return text.split(separator: " ").allSatisfy { shown.contains(String($0)) }
    }

    /// apps/web/src/app/api/ai/settings/route.ts (GET): providers {NAME: {isAvailable}}.
    @Test func settingsShowTheProvidersAsATable() throws {
        let (server, sandbox) = try RenderedReplyTests.session()
        defer { server.stop() }
        let screen = try RenderedReplyTests.onTerminal("ps-settings", sandbox)
        #expect(screen.status == 0, "\(screen.lines)")
        #expect(screen.lines.contains("currentProvider: openai"), "\(screen.lines)")
        #expect(!screen.lines.contains { $0.contains("{") || $0.contains("isAvailable") }, "\(screen.lines)")
        let header = try #require(screen.lines.firstIndex { $0.hasPrefix("PROVIDER") && $0.contains("AVAILABLE") })
        let rows = screen.lines[(header + 1)...].filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(rows.contains { $0.hasPrefix("openai ") && $0.hasSuffix("yes") }, "\(rows)")
        #expect(rows.contains { $0.hasPrefix("azure_openai ") && $0.hasSuffix("no") }, "\(rows)")
        // Piped: the record as the server gave it.
        let piped = try sandbox.run("ps-settings", [])
        #expect(piped.stdoutText.contains(#""providers":{"openai":{"isAvailable":true}"#))
    }

    /// apps/web/src/app/api/ai/models/route.ts: the catalog has display names (model-catalog.ts:48-50)
    /// but no dates, so a NAME column and no CREATED column; an OpenAI-compatible /v1/models gives
    /// `created`, shown as a date.
    @Test func modelsShowTheColumnsTheServerFills() throws {
        let (server, sandbox) = try RenderedReplyTests.session()
        defer { server.stop() }
        let catalog = try RenderedReplyTests.onTerminal("ps-models", sandbox)
        #expect(catalog.status == 0)
        let header = try #require(catalog.lines.first { $0.hasPrefix("ID") })
        #expect(header.contains("OWNER") && header.contains("NAME") && !header.contains("CREATED"), "\(header)")
        #expect(catalog.lines.contains { $0.hasPrefix("openai/gpt-5 ") && $0.contains(" openai ") && $0.hasSuffix(" GPT-5") },
                "\(catalog.lines)")

        let openAI = try LocalServer.start(dialect: "openai")
        defer { openAI.stop() }
        let plain = try NetworkSandbox(extra: ["PAGESPACE_API_URL": openAI.baseURL, "PAGESPACE_API_KIND": "openai"])
        let listed = try RenderedReplyTests.onTerminal("ps-models", plain)
        #expect(listed.status == 0, "\(listed.lines)")
        let top = try #require(listed.lines.first { $0.hasPrefix("ID") })
        #expect(top.contains("CREATED"), "\(listed.lines)")
        let day = #"\d{4}-\d{2}-\d{2}$"#
        #expect(listed.lines.contains { $0.hasPrefix("ps-demo ") && $0.range(of: day, options: .regularExpression) != nil },
                "\(listed.lines)")
    }

    /// Lucid's summaries: the perspectives are long lines, wrapped at 80 columns between words.
    @Test func summariesWrapBetweenWords() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        let first = "Tell me about gardening tomatoes on a balcony facing north"
        let last = "Which tomatoes grow well in the shade of a tall tree"
        let id = try world.send(first)
        try world.send(last)
        #expect(try world.sandbox.run("ps-summary", ["generate"]).status == 0)
        let screen = try RenderedReplyTests.onTerminal("ps-summary list --conversation \(id)", world.sandbox)
        #expect(screen.status == 0, "\(screen.lines)")
        let you = try #require(screen.lines.firstIndex { $0.hasPrefix("  You: ") }, "\(screen.lines)")
        #expect(screen.lines[you + 1].hasPrefix("  "), "\(screen.lines)")  // the next line is the same paragraph
        #expect(Self.wordsStayWhole("You: I asked about \"" + first + "\", and last about \"" + last + "\".", in: screen.lines),
                "\(screen.lines)")
    }
}
