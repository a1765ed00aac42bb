import PSCore
import Testing
@testable import PSRender

@Suite struct MessageRenderingTests {
    func render(_ records: [JSON], format: RenderFormat = .plain, width: Int = 80, tools: ToolDetail = .compact,
                reasoning: Bool = true) throws -> String {
        try RenderHarness.render(records, RenderOptions(format: format, width: width, tools: tools, showReasoning: reasoning))
    }

    static let toolCall = PartRecords.object([
        ("type", "tool-search"), ("toolCallId", "t1"), ("state", "output-available"),
        ("input", PartRecords.object([("query", .string(String(repeating: "long words ", count: 20)))])),
        ("output", PartRecords.object([("hits", 3)])),
    ])

    @Test func compactToolIsOneLineCutToTheWidth() throws {
        let out = try render([PartRecords.message([Self.toolCall])], width: 50)
        let lines = out.split(separator: "\n").filter { $0.contains("search") }
        #expect(lines.count == 1)
        #expect(lines[0].hasPrefix("⚙ search · done · {\"query\":\"long words"))
        #expect(lines[0].hasSuffix("…"))
        #expect(DisplayWidth.of(String(lines[0])) == 50)
    }

    @Test func fullToolShowsInputAndOutput() throws {
        let out = try render([PartRecords.message([Self.toolCall])], tools: .full)
        #expect(out.contains("  input:\n    {\n      \"query\": "))
        #expect(out.contains("  output:\n    {\n      \"hits\": 3\n    }"))
    }

    @Test func toolErrorsAreShownInFull() throws {
        let error = "the database refused the connection because the password for user reader expired yesterday"
        let part = PartRecords.object([("type", "dynamic-tool"), ("toolName", "query_db"), ("toolCallId", "t2"),
                                       ("state", "output-error"), ("input", PartRecords.object([])), ("errorText", .string(error))])
        let out = try render([PartRecords.message([part])], width: 40)
        #expect(out.contains("⚙ query_db · error"))
        let joined = out.split(separator: "\n").filter { $0.hasPrefix("  ") }.map { $0.dropFirst(2) }.joined(separator: " ")
        #expect(joined == "error: " + error)
    }

    @Test func reasoningIsDimmedOrHidden() throws {
        let message = PartRecords.message([PartRecords.text("secret plan", type: "reasoning"), PartRecords.text("answer")])
        let ansi = try render([message], format: .ansi)
        #expect(ansi.contains("\u{1B}[2;3msecret plan\u{1B}[0m"))
        let hidden = try render([message], reasoning: false)
        #expect(!hidden.contains("secret"))
        #expect(hidden.contains("answer"))
    }

    @Test func historyTurnsHaveHeaders() throws {
        let out = try render([
            PartRecords.message([PartRecords.text("question?")], role: "user", id: "u1"),
            PartRecords.message([PartRecords.text("answer.")], role: "assistant", id: "a1"),
        ], width: 30)
        #expect(out == """
            ── User ──────────────────────

            question?

            ── Assistant ─────────────────

            answer.

            """)
        let markdown = try render([
            PartRecords.message([PartRecords.text("question?")], role: "user", id: "u1"),
            PartRecords.message([PartRecords.text("answer.")], role: "assistant", id: "a1"),
        ], format: .markdown)
        #expect(markdown == "## User\n\nquestion?\n\n## Assistant\n\nanswer.\n")
    }

    @Test(arguments: [RenderFormat.plain, .markdown])
    func plainAndMarkdownHaveNoEscapes(_ format: RenderFormat) throws {
        let message = StreamingTests.message(Documents.constructs + "\u{1B}[31m injected")
        let out = try render([message], format: format)
        #expect(!out.unicodeScalars.contains("\u{1B}"))
    }

    @Test func ansiLinksAreHyperlinks() throws {
        let out = try render([PartRecords.message([PartRecords.text("[docs](https://d.example/x)")])], format: .ansi)
        #expect(out.contains("\u{1B}]8;;https://d.example/x\u{1B}\\\u{1B}[4;34mdocs\u{1B}[0m\u{1B}]8;;\u{1B}\\"))
        let plain = try render([PartRecords.message([PartRecords.text("[docs](https://d.example/x) and <https://a.example>")])])
        #expect(plain.contains("docs <https://d.example/x> and https://a.example\n"))
    }

    @Test(arguments: [24, 40, 63])
    func plainLinesFitTheWidth(_ width: Int) throws {
        for document in Documents.all {
            let out = try render([StreamingTests.message(document)], width: width)
            for line in out.split(separator: "\n") where !line.hasPrefix("⚙") {
                #expect(DisplayWidth.of(String(line)) <= width, "\(line)")
            }
        }
    }

    @Test func tableColumnsAreAligned() throws {
        let text = "| L | C | R |\n|:--|:-:|--:|\n| a | b | c |\n| long | 日本 | 12345 |"
        let out = try render([PartRecords.message([PartRecords.text(text)])])
        #expect(out.contains("""
            L    │  C   │     R
            ─────┼──────┼──────
            a    │  b   │     c
            long │ 日本 │ 12345
            """))
    }

    @Test func incompleteMessageIsMarked() throws {
        let harness = RenderHarness(RenderOptions(format: .plain, width: 80))
        try harness.feed([
            PartRecords.object([("type", "message-start"), ("role", "assistant")]),
            PartRecords.object([("type", "part-start"), ("index", 0), ("part", PartRecords.text("cut off mid", state: "streaming"))]),
        ])
        let out = try harness.finish()
        #expect(out.hasSuffix("cut off mid\n\n⚠ incomplete: no-finish — the input ended before message-end\n"))
        #expect(harness.renderer.sawIncomplete)
    }

    @Test func streamErrorIsShownOnce() throws {
        // ps-parts repeats a stream error as message-end's detail; the render shows it once.
        let harness = RenderHarness(RenderOptions(format: .plain, width: 80))
        try harness.feed([
            PartRecords.object([("type", "message-start"), ("role", "assistant")]),
            PartRecords.object([("type", "part-start"), ("index", 0), ("part", PartRecords.text("hi", state: "streaming"))]),
            PartRecords.object([("type", "stream-error"), ("errorText", "boom")]),
            PartRecords.object([("type", "message-end"), ("status", "incomplete"), ("reason", "error"), ("detail", "boom")]),
        ])
        let out = try harness.finish()
        #expect(out.components(separatedBy: "boom").count == 2)
        #expect(out.hasSuffix("hi\n\n✗ error: boom\n⚠ incomplete: error\n"))
    }

    @Test func badRecordsAreRejected() throws {
        let renderer = RecordRenderer(options: RenderOptions(), text: { _ in })
        #expect(throws: RecordRenderer.RecordError.self) { try renderer.handle(.array([])) }
        #expect(throws: RecordRenderer.RecordError.self) {
            try renderer.handle(PartRecords.object([("event", "message"), ("data", "x")]))
        }
        #expect(throws: RecordRenderer.RecordError.self) {
            try renderer.handle(PartRecords.object([("type", "part-delta"), ("index", 4), ("delta", "x")]))
        }
    }
}
