import PSCore
import Testing

/// A reply that asks its client for a tool: whatever its finish_reason says.
@Suite struct PendingToolCallsTests {
    static func collect(_ events: [String]) -> ReplyCollector {
        let collector = ReplyCollector()
        let body = events.map { "data: \($0)\n\n" }.joined() + "data: [DONE]\n\n"
        Array(body.utf8).withUnsafeBytes { try? collector.feed($0) }
        collector.finish()
        return collector
    }

    static let call = #"{"object":"chat.completion.chunk","id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"read_page","arguments":"{\"pageId\":\"p\"}"}}]},"finish_reason":null}]}"#

    static func finish(_ reason: String) -> String {
        #"{"object":"chat.completion.chunk","id":"c1","choices":[{"index":0,"delta":{},"finish_reason":"\#(reason)"}]}"#
    }

    @Test(arguments: ["tool_calls", "stop"])  // some servers say "stop" after a call
    func aCallWithNoResultWaits(reason: String) throws {
        let collector = Self.collect([Self.call, Self.finish(reason)])
        #expect(collector.status == .complete)
        #expect(collector.waitingForTools == ["read_page"])
        let marker = try #require(collector.reply?["incomplete"])
        #expect(marker["reason"]?.stringValue == "waiting-for-tool")
        #expect(marker["detail"]?.stringValue?.contains("the tool read_page") == true)
    }

    @Test func aCallTheServerAnsweredDoesNotWait() {
        let result = #"{"object":"chat.completion.chunk","id":"c1","choices":[{"index":0,"delta":{"role":"tool","tool_call_id":"call_1","tool_result":"{\"ok\":true}"},"finish_reason":null}]}"#
        let text = #"{"object":"chat.completion.chunk","id":"c1","choices":[{"index":0,"delta":{"content":"Done."},"finish_reason":null}]}"#
        let collector = Self.collect([Self.call, Self.finish("tool_calls"), result, text, Self.finish("stop")])
        #expect(collector.waitingForTools.isEmpty)
        #expect(collector.reply?["incomplete"] == nil)
    }

    @Test func namesComeOnceInOrder() throws {
        let message = try JSON.parse(#"""
            {"role":"assistant","parts":[{"type":"tool-b","state":"input-available"},{"type":"tool-a","state":"output-available","output":1},
            {"type":"dynamic-tool","toolName":"c","state":"input-streaming"},{"type":"tool-b","state":"input-available"},
            {"type":"tool-d","state":"output-error","errorText":"no"}]}
            """#)
        #expect(PendingToolCalls.names(in: message) == ["b", "c"])
        #expect(PendingToolCalls.detail(["b", "c"]).hasPrefix("it asks for the tools b, c,"))
    }
}
