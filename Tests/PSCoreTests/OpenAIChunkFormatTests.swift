import Testing
@testable import PSCore

/// chat.completion.chunk streams rebuilt into the message ps-parts --final gives.
@Suite struct OpenAIChunkFormatTests {
    static func reply(_ events: [String]) throws -> (JSON?, MessageStatus?) {
        let collector = ReplyCollector()
        let body = events.map { "data: \($0)\n\n" }.joined()
        try Array(body.utf8).withUnsafeBytes { try collector.feed($0) }
        collector.finish()
        return (collector.reply, collector.status)
    }

    static func chunk(_ delta: String, finish: String? = nil) -> String {
        #"{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":\#(delta),"finish_reason":\#(finish.map { "\"\($0)\"" } ?? "null")}]}"#
    }

    @Test func textReasoningToolCallsAndUsage() throws {
        let (reply, status) = try Self.reply([
            Self.chunk(#"{"role":"assistant","content":""}"#),
            Self.chunk(#"{"reasoning_content":"Think"}"#),
            Self.chunk(#"{"content":"Hel"}"#),
            Self.chunk(#"{"content":"lo"}"#),
            Self.chunk(#"{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"read_page","arguments":""}}]}"#),
            Self.chunk(#"{"tool_calls":[{"index":0,"function":{"arguments":"{\"pageId\":"}}]}"#),
            Self.chunk(#"{"tool_calls":[{"index":0,"function":{"arguments":"\"p1\"}"}}]}"#),
            Self.chunk("{}", finish: "tool_calls"),
            #"{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[],"usage":{"total_tokens":7}}"#,
            "[DONE]",
        ])
        #expect(status == .complete)
        let parts = try #require(reply?["parts"]?.arrayValue)
        #expect(parts.map { $0["type"]?.stringValue } == ["reasoning", "text", "tool-read_page"])
        #expect(parts[1]["text"] == "Hello")
        #expect(parts[2]["input"]?["pageId"] == "p1")
        #expect(parts[2]["toolCallId"] == "call_1")
        #expect(reply?["metadata"]?["usage"]?["total_tokens"] == .integer(7))
        #expect(reply?["id"] == "chatcmpl-1")
    }

    /// PageSpace's /api/v1 streams its server tools' results as `role:"tool"` deltas, then goes on.
    @Test func pageSpaceToolResultsAndASecondStep() throws {
        let (reply, status) = try Self.reply([
            Self.chunk(#"{"tool_calls":[{"index":0,"id":"call_9","type":"function","function":{"name":"read_page","arguments":"{\"pageId\":\"p\"}"}}]}"#),
            Self.chunk(#"{"role":"tool","tool_call_id":"call_9","tool_result":"{\"success\":true}"}"#),
            Self.chunk("{}", finish: "tool_calls"),
            Self.chunk(#"{"content":"Done."}"#),
            Self.chunk("{}", finish: "stop"),
            "[DONE]",
        ])
        #expect(status == .complete)
        let parts = try #require(reply?["parts"]?.arrayValue)
        let tool = try #require(parts.first { $0["type"] == "tool-read_page" })
        #expect(tool["output"]?["success"] == true)
        #expect(parts.last?["text"] == "Done.")
    }

    @Test func noFinishReasonIsIncomplete() throws {
        let (_, status) = try Self.reply([Self.chunk(#"{"content":"Half"}"#), "[DONE]"])
        guard case .incomplete(.noFinish, _, _)? = status else {
            Issue.record("\(String(describing: status))")
            return
        }
    }

    @Test func anErrorEventIsAStreamError() throws {
        let (_, status) = try Self.reply([Self.chunk(#"{"content":"Half"}"#), #"{"error":{"message":"overloaded"}}"#])
        guard case .incomplete(.error, let detail, _)? = status else {
            Issue.record("\(String(describing: status))")
            return
        }
        #expect(detail.contains("overloaded"))
    }
}
