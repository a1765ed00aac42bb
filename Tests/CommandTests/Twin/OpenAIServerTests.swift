import Foundation
import Testing
import TestSupport

/// `ps-local-server --dialect openai`: a plain OpenAI-compatible server (`/v1/models`,
/// `/v1/chat/completions`), stateless, no credential, errors in OpenAI's shape.
@Suite struct OpenAIServerTests {
    static func chat(_ server: LocalServer, _ body: String, headers: [String: String] = [:]) throws -> HTTPReply {
        try server.request("POST", "/v1/chat/completions", headers: headers, body: body)
    }

    static func ask(_ question: String, stream: Bool = true, extra: String = "") -> String {
        #"{"model":"ps-demo","stream":\#(stream),"messages":[{"role":"user","content":"\#(question)"}]\#(extra)}"#
    }

    /// The `error` object of an OpenAI-shaped error body; all four keys must be there.
    static func error(_ reply: HTTPReply) throws -> [String: Any] {
        let error = try #require(try reply.jsonObject()["error"] as? [String: Any], "\(reply.text)")
        #expect(error["message"] is String)
        #expect(error["type"] is String)
        #expect(error.keys.contains("param") && error.keys.contains("code"))
        return error
    }

    /// The URL line is the server a profile needs: an OpenAI-compatible API's base URL, which
    /// ends in /v1. The other dialects print the bare address.
    @Test func theURLLineIsTheBaseURLAProfileNeeds() throws {
        let server = try LocalServer.start(dialect: "openai")
        defer { server.stop() }
        #expect(server.baseURL.hasPrefix("http://127.0.0.1:") && server.baseURL == server.origin + "/v1", "\(server.baseURL)")
        let models = try Run.command("/usr/bin/curl", ["-sf", server.baseURL + "/models"])
        #expect(models.status == 0 && models.stdoutText.contains(#""id":"ps-demo-mini""#), "\(models.stdoutText)")
        let pagespace = try LocalServer.start(extraArguments: ["--quiet"])
        defer { pagespace.stop() }
        #expect(pagespace.baseURL == pagespace.origin)
    }

    @Test func modelsAreListedAndNoCredentialIsNeeded() throws {
        let server = try LocalServer.start(dialect: "openai")
        defer { server.stop() }
        for headers in [[:], ["Authorization": "Bearer sk-anything"]] {
            let reply = try server.request("GET", "/v1/models", headers: headers)
            #expect(reply.status == 200)
            let object = try reply.jsonObject()
            #expect(object["object"] as? String == "list")
            let data = try #require(object["data"] as? [[String: Any]])
            #expect(data.map { $0["id"] as? String } == ["ps-demo", "ps-demo-mini"])
            #expect(data.allSatisfy { $0["object"] as? String == "model" && $0["created"] is Int && $0["owned_by"] is String })
        }
        #expect(try server.request("GET", "/v1/models/ps-demo-mini").jsonObject()["id"] as? String == "ps-demo-mini")
        let unknown = try server.request("GET", "/v1/models/gpt-9")
        #expect(unknown.status == 404)
        #expect(try Self.error(unknown)["code"] as? String == "model_not_found")

        // PageSpace's routes are off in this mode.
        for path in ["/api/v1/models", "/api/ai/global", "/api/drives", "/api/auth/me"] {
            let reply = try server.request("GET", path, headers: ["Authorization": "Bearer \(LocalServer.sessionToken)"])
            #expect(reply.status == 404, "\(path)")
            _ = try Self.error(reply)
        }
    }

    @Test func badRequestsGetOpenAIErrors() throws {
        let server = try LocalServer.start(dialect: "openai")
        defer { server.stop() }
        let user = #"[{"role":"user","content":"hi"}]"#
        let cases: [(String, Int, String?, String?)] = [
            ("{nope", 400, nil, nil),
            (#"{"messages":\#(user)}"#, 400, nil, nil),
            (#"{"model":5,"messages":\#(user)}"#, 400, "model", "invalid_type"),
            (#"{"model":"ps-demo"}"#, 400, "messages", "missing_required_parameter"),
            (#"{"model":"ps-demo","messages":"hi"}"#, 400, "messages", "invalid_type"),
            (#"{"model":"ps-demo","messages":[]}"#, 400, "messages", "empty_array"),
            (#"{"model":"ps-demo","messages":[1]}"#, 400, "messages[0]", "invalid_type"),
            (#"{"model":"ps-demo","messages":[{"content":"x"}]}"#, 400, "messages[0].role", "missing_required_parameter"),
            (#"{"model":"ps-demo","messages":[{"role":"robot","content":"x"}]}"#, 400, "messages[0].role", "invalid_value"),
            (#"{"model":"ps-demo","messages":[{"role":"user"}]}"#, 400, "messages[0].content", "missing_required_parameter"),
            (#"{"model":"ps-demo","messages":[{"role":"tool","content":"x"}]}"#, 400, "messages[0].tool_call_id", "missing_required_parameter"),
            (#"{"model":"ps-demo","stream":"yes","messages":\#(user)}"#, 400, "stream", "invalid_type"),
            (#"{"model":"gpt-9","messages":\#(user)}"#, 404, nil, "model_not_found"),
        ]
        for (body, status, param, code) in cases {
            let reply = try Self.chat(server, body)
            #expect(reply.status == status, "\(body) → \(reply.status) \(reply.text)")
            let error = try Self.error(reply)
            #expect(error["type"] as? String == "invalid_request_error", "\(body)")
            #expect(error["param"] as? String == param, "\(body)")
            #expect(error["code"] as? String == code, "\(body)")
        }
    }

    @Test func aStreamedReplyIsWellFormed() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--pace-ms", "1"])
        defer { server.stop() }
        let reply = try Self.chat(server, Self.ask("hello there"), headers: ["Authorization": "Bearer sk-local"])
        #expect(reply.status == 200)
        #expect(reply.curlStatus == 0)
        #expect(reply.headers["content-type"] == "text/event-stream")
        let stream = try CompletionStreamReading(reply)
        let firstDelta = (stream.chunks.first?["choices"] as? [[String: Any]])?.first?["delta"] as? [String: Any]
        #expect(firstDelta?["role"] as? String == "assistant")
        #expect(stream.content.hasPrefix("## About your question\n\n> hello there"))
        #expect(stream.finishReasons == ["stop"])
        let last = try #require(stream.chunks.last?["choices"] as? [[String: Any]])
        #expect(last.first?["finish_reason"] as? String == "stop")
        #expect(Set(stream.chunks.compactMap { $0["id"] as? String }).count == 1)
        #expect(stream.chunks.allSatisfy { $0["model"] as? String == "ps-demo" && $0["usage"] == nil })
        #expect(stream.toolCalls.isEmpty && stream.reasoning.isEmpty)
    }

    @Test func aToolCallStreamsInFragmentsAndTheReplyGoesOnAfterTheResult() throws {
        let server = try LocalServer.start(dialect: "openai")
        defer { server.stop() }
        let first = try Self.chat(
            server, Self.ask("Please think, then use a tool", extra: #","stream_options":{"include_usage":true}"#))
        let stream = try CompletionStreamReading(first)
        #expect(stream.reasoning.contains("The user asks"))
        #expect(stream.content.isEmpty)
        #expect(stream.toolCalls.count == 1)
        let call = try #require(stream.toolCalls[0])
        #expect(call.id?.hasPrefix("call_") == true)
        #expect(call.type == "function")
        #expect(call.name == "read_page")
        #expect(call.fragments.count > 1)
        let parsed = try stream.arguments(0)
        #expect(parsed.count == 1 && parsed["pageId"] as? String == "page_doc_demo")
        #expect(stream.finishReasons == ["tool_calls"])
        // include_usage: every chunk says "usage":null, a last one with no choices has it.
        let usageChunk = try #require(stream.chunks.last)
        #expect((usageChunk["choices"] as? [Any])?.isEmpty == true)
        let usage = try #require(usageChunk["usage"] as? [String: Int])
        #expect(usage["total_tokens"] == usage["prompt_tokens"]! + usage["completion_tokens"]!)
        #expect(usage["completion_tokens"]! > 0)
        #expect(stream.chunks.dropLast().allSatisfy { $0["usage"] is NSNull })

        // The client runs the tool and sends the whole conversation back.
        let arguments = call.arguments.replacingOccurrences(of: "\"", with: "\\\"")
        let followUp = #"""
            {"model":"ps-demo","stream":true,"messages":[
              {"role":"user","content":"Please think, then use a tool"},
              {"role":"assistant","content":null,"tool_calls":[{"id":"\#(call.id ?? "")","type":"function","function":{"name":"read_page","arguments":"\#(arguments)"}}]},
              {"role":"tool","tool_call_id":"\#(call.id ?? "")","content":"# Project Notes"}]}
            """#
        let rest = try CompletionStreamReading(try Self.chat(server, followUp))
        #expect(rest.toolCalls.isEmpty)
        #expect(rest.content.hasPrefix("I read **Project Notes**"))
        #expect(rest.finishReasons == ["stop"])

        // tool_choice "none": no tool call, the text alone.
        let none = try CompletionStreamReading(try Self.chat(server, Self.ask("use a tool", extra: #","tool_choice":"none""#)))
        #expect(none.toolCalls.isEmpty)
        #expect(none.finishReasons == ["stop"])
    }

    @Test func aNonStreamingReplyIsOneCompletion() throws {
        let server = try LocalServer.start(dialect: "openai")
        defer { server.stop() }
        let body = #"{"model":"ps-demo-mini","messages":[{"role":"system","content":"Answer with a table."},{"role":"user","content":"hello"}]}"#
        let reply = try Self.chat(server, body)
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "application/json")
        let object = try reply.jsonObject()
        #expect(object["object"] as? String == "chat.completion")
        #expect((object["id"] as? String)?.hasPrefix("chatcmpl-") == true)
        #expect(object["model"] as? String == "ps-demo-mini")
        let choice = try #require((object["choices"] as? [[String: Any]])?.first)
        #expect(choice["finish_reason"] as? String == "stop")
        let message = try #require(choice["message"] as? [String: Any])
        #expect(message["role"] as? String == "assistant")
        #expect((message["content"] as? String)?.contains("### Plans compared") == true)
        #expect(message["tool_calls"] == nil)
        let usage = try #require(object["usage"] as? [String: Int])
        #expect(usage["total_tokens"] == usage["prompt_tokens"]! + usage["completion_tokens"]!)

        let tool = try Self.chat(server, Self.ask("use a tool", stream: false)).jsonObject()
        let toolChoice = try #require((tool["choices"] as? [[String: Any]])?.first)
        #expect(toolChoice["finish_reason"] as? String == "tool_calls")
        let toolMessage = try #require(toolChoice["message"] as? [String: Any])
        #expect(toolMessage["content"] is NSNull)
        let calls = try #require(toolMessage["tool_calls"] as? [[String: Any]])
        let function = try #require(calls.first?["function"] as? [String: Any])
        #expect(function["name"] as? String == "read_page")
        let arguments = try JSONSerialization.jsonObject(with: Data((function["arguments"] as? String ?? "").utf8))
        #expect((arguments as? [String: String]) == ["pageId": "page_doc_demo"])
    }

    @Test func faultsReachTheCompletionRoute() throws {
        let server = try LocalServer.start(dialect: "openai")
        defer { server.stop() }
        try server.armFault(#"{"drop":true,"afterEvents":3,"times":1}"#)
        let cut = try Self.chat(server, Self.ask("hello there"))
        #expect(cut.status == 200)
        #expect(cut.curlStatus == 18, "curl: \(cut.curlError)")
        #expect(cut.eventData.count == 3)
        #expect(!cut.eventData.contains("[DONE]"))

        try server.armFault(#"{"drop":true,"times":1}"#)
        let unanswered = try Self.chat(server, Self.ask("hello there", stream: false))
        #expect(unanswered.curlStatus == 52, "curl: \(unanswered.curlStatus) \(unanswered.curlError)")

        try server.armFault(#"{"status":429,"retryAfter":2,"path":"/v1/chat","times":1}"#)
        let limited = try Self.chat(server, Self.ask("hello there"))
        #expect(limited.status == 429)
        #expect(limited.headers["retry-after"] == "2")
        #expect(try Self.error(limited)["code"] as? String == "rate_limit_exceeded")

        try server.armFault(#"{"status":500,"times":1}"#)
        let broken = try Self.chat(server, Self.ask("hello there"))
        #expect(broken.status == 500)
        #expect(try Self.error(broken)["type"] as? String == "server_error")

        try server.armFault(#"{"slow":true,"keepAliveMs":5,"pauseMs":12,"times":1}"#)
        let slow = try Self.chat(server, Self.ask("hi"))
        #expect(slow.text.contains(": keep-alive\n\n"))
        #expect(try CompletionStreamReading(slow).finishReasons == ["stop"])

        let next = try CompletionStreamReading(try Self.chat(server, Self.ask("and again")))
        #expect(next.finishReasons == ["stop"])
    }
}
