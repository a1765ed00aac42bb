import Foundation
import Testing
import TestSupport

/// The current PageSpace server's OpenAI-compatible agent API on ps-local-server:
/// `/api/v1/models`, `/api/v1/chat/completions` and `/api/v1/conversations`.
@Suite struct AgentCompletionAPITests {
    static let mcp = ["Authorization": "Bearer \(LocalServer.mcpKey)"]
    static let agentModel = "ps-agent://page_agent_demo"

    static func completion(
        _ server: LocalServer, _ question: String, extra: String = "", system: String? = nil
    ) throws -> HTTPReply {
        let systemMessage = system.map { #"{"role":"system","content":"\#($0)"},"# } ?? ""
        let body = #"{"model":"\#(agentModel)","messages":[\#(systemMessage){"role":"user","content":"\#(question)"}]\#(extra)}"#
        return try server.request("POST", "/api/v1/chat/completions", headers: mcp, body: body)
    }

    static func error(_ reply: HTTPReply) throws -> String? { try reply.jsonObject()["error"] as? String }

    static func detail(_ server: LocalServer, _ id: String) throws -> [String: Any] {
        let reply = try server.request("GET", "/api/v1/conversations/\(id)", headers: mcp)
        #expect(reply.status == 200, "\(reply.text)")
        return try reply.jsonObject()
    }

    @Test func modelsListTheAgentsAndOnlyMCPKeysGetIn() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let models = try server.request("GET", "/api/v1/models", headers: Self.mcp)
        #expect(models.status == 200)
        let object = try models.jsonObject()
        #expect(object["object"] as? String == "list")
        let data = try #require(object["data"] as? [[String: Any]])
        // Every drive's agents: the seeded second drive has one too.
        #expect(data.map { $0["id"] as? String } == [Self.agentModel, "ps-agent://page_agent_team"])
        #expect(data.first?["object"] as? String == "model")
        #expect(data.first?["owned_by"] as? String == "pagespace")
        #expect(data.first?["created"] is Int)

        for path in ["/api/v1/models", "/api/v1/conversations"] {
            // No token: the middleware's plain text (middleware.ts:334-366); the route is never asked.
            let none = try server.request("GET", path)
            #expect(none.status == 401)
            #expect(none.text == "Authentication required" && none.headers["content-type"] == "text/plain")
            let session = try server.request("GET", path, headers: ["Authorization": "Bearer \(LocalServer.sessionToken)"])
            #expect(try Self.error(session) == "MCP token required")
            let unknown = try server.request("GET", path, headers: ["Authorization": "Bearer mcp_nope"])
            #expect(try Self.error(unknown) == "Invalid MCP token")
            let oauth = try server.request("GET", path, headers: ["Authorization": "Bearer ps_at_whatever"])
            #expect(try Self.error(oauth) == "OAuth tokens are not permitted for this endpoint")
        }
        let legacy = try LocalServer.start(dialect: "pagespace-legacy")
        defer { legacy.stop() }
        #expect(try legacy.request("GET", "/api/v1/models", headers: Self.mcp).status == 404)
    }

    @Test func completionRequestsAreCheckedAsPageSpaceChecksThem() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let user = #"[{"role":"user","content":"hi"}]"#
        let cases: [(String, Int, String)] = [
            ("{nope", 400, "Invalid JSON body"),
            ("[1]", 400, "request body must be a JSON object"),
            (#"{"messages":\#(user)}"#, 400, "model is required"),
            (#"{"model":"gpt-4o","messages":\#(user)}"#, 400, "unsupported model format — use ps-agent://<pageId>"),
            (#"{"model":"\#(Self.agentModel)","stream":false,"messages":\#(user)}"#, 400, "non-streaming responses not supported in v1"),
            (#"{"model":"\#(Self.agentModel)","messages":[]}"#, 400, "messages must be a non-empty array"),
            (#"{"model":"\#(Self.agentModel)","messages":["hi"]}"#, 400, "each message must be an object"),
            (#"{"model":"\#(Self.agentModel)","messages":[{"role":"robot","content":"x"}]}"#, 400,
             "each message role must be one of: user, assistant, system, tool"),
            (#"{"model":"\#(Self.agentModel)","messages":[{"role":"user"}]}"#, 400, "each message must have non-empty content"),
            (#"{"model":"\#(Self.agentModel)","messages":[{"role":"assistant","tool_calls":[{"id":"c"}]},{"role":"user","content":"x"}]}"#,
             400, "tool_calls[0] must have id (string), function.name (string), and function.arguments (string)"),
            (#"{"model":"\#(Self.agentModel)","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"https://x/y.png"}}]}]}"#,
             400, "image_url must be a data: URL — remote image URLs are not supported"),
            (#"{"model":"\#(Self.agentModel)","messages":\#(user),"tools":{}}"#, 400, "tools must be an array"),
            (#"{"model":"ps-agent://page_doc_demo","messages":\#(user)}"#, 404, "Agent not found"),
            (#"{"model":"ps-agent://page_nope","messages":\#(user)}"#, 404, "Agent not found"),
            (#"{"model":"\#(Self.agentModel)","messages":\#(user),"conversation_id":"conv_nope"}"#, 404, "Conversation not found"),
        ]
        for (body, status, message) in cases {
            let reply = try server.request("POST", "/api/v1/chat/completions", headers: Self.mcp, body: body)
            #expect(reply.status == status, "\(body) → \(reply.status) \(reply.text)")
            #expect(try Self.error(reply) == message, "\(body)")
        }
        let noKey = try server.request("POST", "/api/v1/chat/completions", body: #"{"model":"\#(Self.agentModel)","messages":\#(user)}"#)
        #expect(noKey.status == 401)
    }

    @Test func aToolReplyStreamsAsPageSpaceAdaptsItAndIsKept() throws {
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "1"])
        defer { server.stop() }
        let body = #"{"model":"\#(Self.agentModel)","conversation_id":"demoagentconversation","messages":[{"id":"client-1","role":"user","content":"Please think, then use a tool"}]}"#
        let reply = try server.request("POST", "/api/v1/chat/completions", headers: Self.mcp, body: body)
        #expect(reply.status == 200)
        #expect(reply.curlStatus == 0)
        #expect(reply.headers["content-type"] == "text/event-stream")
        #expect(reply.headers["cache-control"] == "no-cache")
        let stream = try CompletionStreamReading(reply)

        let first = try #require(stream.chunks.first)
        let firstDelta = (first["choices"] as? [[String: Any]])?.first?["delta"] as? [String: Any]
        #expect(firstDelta?["role"] as? String == "assistant")
        #expect(firstDelta?["content"] as? String == "")
        let ids = Set(stream.chunks.filter { ($0["choices"] as? [Any])?.isEmpty == false }.compactMap { $0["id"] as? String })
        #expect(ids.count == 1)
        #expect(ids.first?.hasPrefix("chatcmpl-") == true)
        #expect(stream.chunks.allSatisfy { ($0["choices"] as? [Any])?.isEmpty == true || $0["model"] as? String == Self.agentModel })

        // PageSpace sends a tool call whole, then its result, ends the tool step with
        // "tool_calls" and the reply with "stop"; no reasoning, no usage.
        #expect(stream.toolCalls.count == 1)
        let call = try #require(stream.toolCalls[0])
        #expect(call.name == "read_page")
        #expect(call.type == "function")
        #expect(call.id?.hasPrefix("call_") == true)
        #expect(try stream.arguments(0)["pageId"] as? String == "page_doc_demo")
        #expect(stream.toolResults.count == 1)
        #expect(stream.toolResults.first?["role"] as? String == "tool")
        #expect(stream.toolResults.first?["tool_call_id"] as? String == call.id)
        #expect((stream.toolResults.first?["tool_result"] as? String)?.contains("Project Notes") == true)
        #expect(stream.finishReasons == ["tool_calls", "stop"])
        #expect(stream.reasoning.isEmpty)
        #expect(stream.content.contains("I read **Project Notes**"))
        let summary = try #require(stream.choiceless.last?["x_pagespace_tool_summary"] as? [String: Any])
        #expect(summary["stepCount"] as? Int == 2)
        #expect((summary["toolCalls"] as? [[String: Any]])?.first?["toolName"] as? String == "read_page")
        #expect(!reply.text.contains("usage"))

        // Kept in the conversation, seen by /api/v1/conversations and by Page AI's history.
        let messages = try #require(try Self.detail(server, "demoagentconversation")["messages"] as? [[String: Any]])
        let tail = Array(messages.suffix(3))
        #expect(tail.map { $0["role"] as? String } == ["user", "assistant", "tool"])
        #expect(tail[0]["id"] as? String == "client-1")
        #expect(tail[0]["content"] as? String == "Please think, then use a tool")
        #expect(tail[1]["content"] as? String == stream.content)
        let storedCalls = try #require(tail[1]["tool_calls"] as? [[String: Any]])
        #expect(storedCalls.first?["id"] as? String == call.id)
        #expect((storedCalls.first?["function"] as? [String: Any])?["arguments"] as? String == call.arguments)
        #expect(tail[2]["tool_call_id"] as? String == call.id)
        #expect(tail[2]["id"] as? String == "\(tail[1]["id"] as? String ?? ""):\(call.id ?? "")")

        let pageAI = try server.request(
            "GET", "/api/ai/chat/messages?pageId=page_agent_demo&conversationId=demoagentconversation", headers: Self.mcp)
        let history = try #require(try pageAI.json() as? [[String: Any]])
        #expect(history.suffix(2).map { $0["id"] as? String } == ["client-1", tail[1]["id"] as? String])
        let parts = (history.last?["parts"] as? [[String: Any]])?.map { $0["type"] as? String }
        #expect(parts == ["tool-read_page", "text"])
    }

    @Test func withoutAConversationNothingIsKeptAndSystemMessagesSteer() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let before = try server.request("GET", "/api/v1/conversations?limit=100", headers: Self.mcp).text
        let agentBefore = try Self.detail(server, "demoagentconversation")["messages"] as? [[String: Any]]
        let reply = try Self.completion(server, "hello there", system: "Always answer with a table.")
        #expect(reply.status == 200)
        let stream = try CompletionStreamReading(reply)
        #expect(stream.content.contains("### Plans compared"))
        #expect(stream.finishReasons == ["stop"])
        #expect(stream.toolCalls.isEmpty)
        #expect(stream.choiceless.isEmpty)
        #expect(try server.request("GET", "/api/v1/conversations?limit=100", headers: Self.mcp).text == before)
        #expect((try Self.detail(server, "demoagentconversation")["messages"] as? [[String: Any]])?.count == agentBefore?.count)

        // disable_server_tools: no tools at all, the text alone.
        let noTools = try CompletionStreamReading(try Self.completion(server, "use a tool", extra: #","disable_server_tools":true"#))
        #expect(noTools.toolCalls.isEmpty)
        #expect(noTools.finishReasons == ["stop"])
        #expect(noTools.content.contains("Project Notes"))
    }

    @Test func clientManagedHistoryCreatesItsConversation() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let unknown = try Self.completion(server, "hi", extra: #","conversation_id":"thread-from-client""#)
        #expect(unknown.status == 404)
        let reply = try Self.completion(
            server, "hi", extra: #","conversation_id":"  thread-from-client ","client_manages_history":true"#)
        #expect(reply.status == 200)
        _ = try CompletionStreamReading(reply)
        let thread = try Self.detail(server, "thread-from-client")
        #expect(thread["drive_id"] as? String == "page_agent_demo")
        #expect(thread["title"] is NSNull)
        let messages = try #require(thread["messages"] as? [[String: Any]])
        #expect(messages.map { $0["role"] as? String } == ["user", "assistant"])
        #expect(messages.first?["content"] as? String == "hi")
        // Now it exists, a plain threaded call may use it.
        #expect(try Self.completion(server, "again", extra: #","conversation_id":"thread-from-client""#).status == 200)
    }

    @Test func conversationsAreCreatedListedPagedShownAndDeleted() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let created = try server.request(
            "POST", "/api/v1/conversations", headers: Self.mcp, body: #"{"title":"  Launch thread  ","drive_id":"drivedemo"}"#)
        #expect(created.status == 201)
        let thread = try created.jsonObject()
        let id = try #require(thread["id"] as? String)
        #expect(thread["object"] as? String == "conversation")
        #expect(thread["title"] as? String == "Launch thread")
        #expect(thread["drive_id"] as? String == "drivedemo")
        #expect(thread["user_id"] as? String == "user_demo")
        #expect(thread["created_at"] is Int)

        for (body, message) in [
            ("{nope", "Invalid JSON body"), ("[]", "request body must be a JSON object"),
            (#"{"title":5}"#, "title must be a string"), (#"{"drive_id":" "}"#, "drive_id must be a non-empty string"),
        ] {
            let refused = try server.request("POST", "/api/v1/conversations", headers: Self.mcp, body: body)
            #expect(refused.status == 400)
            #expect(try Self.error(refused) == message)
        }

        // A completion in the thread, then the list: most recently active first.
        let reply = try Self.completion(server, "use a tool", extra: #","conversation_id":"\#(id)""#)
        _ = try CompletionStreamReading(reply)
        func list(_ query: String) throws -> HTTPReply { try server.request("GET", "/api/v1/conversations" + query, headers: Self.mcp) }
        let all = try #require(try list("").jsonObject()["data"] as? [[String: Any]])
        #expect(all.map { $0["id"] as? String } == [id, "demoagentconversation", "demoglobalconversation"])
        let second = try list("?limit=1&offset=1").jsonObject()["data"] as? [[String: Any]]
        #expect(second?.map { $0["id"] as? String } == ["demoagentconversation"])
        #expect((try list("?offset=9").jsonObject()["data"] as? [Any])?.isEmpty == true)
        #expect((try list("?drive_id=drivedemo").jsonObject()["data"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
        for (query, message) in [
            ("?limit=0", "limit must be between 1 and 100"), ("?limit=101", "limit must be between 1 and 100"),
            ("?limit=abc", "limit must be between 1 and 100"), ("?offset=-1", "offset must be >= 0"),
        ] {
            let refused = try list(query)
            #expect(refused.status == 400, "\(query)")
            #expect(try Self.error(refused) == message)
        }
        #expect(try list("?limit=2x").status == 200)  // parseInt reads the leading digits

        let messages = try #require(try Self.detail(server, id)["messages"] as? [[String: Any]])
        #expect(messages.map { $0["role"] as? String } == ["user", "assistant", "tool"])

        let deleted = try server.request("DELETE", "/api/v1/conversations/\(id)", headers: Self.mcp)
        #expect(try deleted.jsonObject()["deleted"] as? Bool == true)
        let gone = try server.request("GET", "/api/v1/conversations/\(id)", headers: Self.mcp)
        #expect(gone.status == 404)
        #expect(try Self.error(gone) == "Conversation not found")
        #expect(try server.request("DELETE", "/api/v1/conversations/\(id)", headers: Self.mcp).status == 404)
    }

    @Test func faultsReachTheCompletionRoute() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        try server.armFault(#"{"drop":true,"afterEvents":3,"times":1}"#)
        let cut = try Self.completion(server, "hello there", extra: #","conversation_id":"demoagentconversation""#)
        #expect(cut.status == 200)
        #expect(cut.curlStatus == 18, "curl: \(cut.curlError)")
        #expect(cut.eventData.count == 3)
        #expect(!cut.eventData.contains("[DONE]"))

        try server.armFault(#"{"stop":true,"afterEvents":2,"times":1}"#)
        let stopped = try Self.completion(server, "hello there")
        #expect(stopped.curlStatus == 0)
        #expect(stopped.eventData.count == 3)
        #expect(stopped.eventData.last == "[DONE]")

        try server.armFault(#"{"status":402,"path":"/api/v1/chat/completions","times":1}"#)
        let broke = try Self.completion(server, "hello there")
        #expect(broke.status == 402)
        #expect(try Self.error(broke) == "out_of_credits")

        try server.armFault(#"{"slow":true,"keepAliveMs":5,"pauseMs":12,"times":1}"#)
        let slow = try Self.completion(server, "hi")
        #expect(slow.text.contains(": keep-alive\n\n"))
        _ = try CompletionStreamReading(slow)

        let next = try CompletionStreamReading(try Self.completion(server, "and again"))
        #expect(next.finishReasons == ["stop"])
    }
}
