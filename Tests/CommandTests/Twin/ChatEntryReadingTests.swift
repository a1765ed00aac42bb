import Foundation
import Testing
import TestSupport

/// The two chat URLs as the real server enters them: handleChatTurn
/// (apps/web/src/lib/ai/chat-pipeline/handle-chat-turn.ts) picks the turn from the conversation,
/// runGlobalChatTurn and runPageChatTurn check what they each check, and a body that is not
/// JSON is the routes' catch-all 500 in both generations.
@Suite struct ChatEntryReadingTests {
    static let session = ["Authorization": "Bearer \(LocalServer.sessionToken)", "X-Browser-Session-Id": "tab_1"]
    static let messages = #"[{"id":"m1","role":"user","parts":[{"type":"text","text":"hello from the entry"}]}]"#

    static func messageTexts(_ server: LocalServer, _ conversation: String) throws -> [String] {
        let reply = try server.request("GET", "/api/ai/global/\(conversation)/messages", headers: session)
        #expect(reply.status == 200, "\(reply.text)")
        let messages = try reply.jsonObject()["messages"] as? [[String: Any]] ?? []
        return messages.flatMap { ($0["parts"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String } }
    }

    static func newGlobalConversation(_ server: LocalServer) throws -> String {
        let made = try server.request("POST", "/api/ai/global", headers: session, body: "{}")
        return try #require(try made.jsonObject()["id"] as? String)
    }

    // handle-chat-turn.ts:295-353: `POST /api/ai/chat` without a chatId runs the Global turn
    // when its conversationId is one of the user's Global conversations, for a session only
    // (an MCP key gets the Global URL's refusal); any other id is still "chatId is required".
    @Test func thePageURLRunsAGlobalTurnForAGlobalConversationWithoutAChatId() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let id = try Self.newGlobalConversation(server)
        let sent = try server.request(
            "POST", "/api/ai/chat", headers: Self.session, body: #"{"messages":\#(Self.messages),"conversationId":"\#(id)"}"#)
        #expect(sent.status == 200, "\(sent.text)")
        #expect(try Self.messageTexts(server, id).contains("hello from the entry"))

        let mcp = ["Authorization": "Bearer \(LocalServer.mcpKey)", "X-Browser-Session-Id": "tab_1"]
        let byKey = try server.request(
            "POST", "/api/ai/chat", headers: mcp, body: #"{"messages":\#(Self.messages),"conversationId":"\#(id)"}"#)
        #expect(byKey.status == 401, "\(byKey.text)")
        #expect(try byKey.jsonObject()["error"] as? String == "MCP tokens are not permitted for this endpoint")

        for other in ["demoagentconversation", "neverseenbefore"] {
            let refused = try server.request(
                "POST", "/api/ai/chat", headers: Self.session, body: #"{"messages":\#(Self.messages),"conversationId":"\#(other)"}"#)
            #expect(refused.status == 400, "\(other): \(refused.text)")
            #expect(try refused.jsonObject()["error"] as? String == "chatId is required", "\(other)")
        }
    }

    // global-chat-turn.ts:299-302: the body's conversationId decides where the message lands,
    // the URL's only when the body names none; :326-329 the messages first;
    // resolve-or-create-conversation.ts:83-86: a page agent's conversation is not found here.
    @Test func aGlobalTurnGoesToTheConversationTheBodyNames() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let inURL = try Self.newGlobalConversation(server)
        let named = "bodynamedconversation"
        let sent = try server.request(
            "POST", "/api/ai/global/\(inURL)/messages", headers: Self.session,
            body: #"{"messages":\#(Self.messages),"conversationId":"\#(named)"}"#)
        #expect(sent.status == 200, "\(sent.text)")
        #expect(try Self.messageTexts(server, named).contains("hello from the entry"))
        #expect(try Self.messageTexts(server, inURL).isEmpty)

        let none = try server.request("POST", "/api/ai/global/\(inURL)/messages", headers: Self.session, body: #"{"messages":[]}"#)
        #expect(none.status == 400, "\(none.text)")
        #expect(try none.jsonObject()["error"] as? String == "messages are required")

        let agents = try server.request(
            "POST", "/api/ai/global/demoagentconversation/messages", headers: Self.session, body: #"{"messages":\#(Self.messages)}"#)
        #expect(agents.status == 404, "\(agents.text)")
        #expect(try agents.jsonObject()["error"] as? String == "Conversation not found")
    }

    // page-chat-turn.ts:521-526: the page is looked up by id, whatever its type; a document
    // page takes a chat turn as an agent does.
    @Test func aPageOfAnyTypeTakesAChatTurn() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sent = try server.request(
            "POST", "/api/ai/chat", headers: Self.session, body: #"{"messages":\#(Self.messages),"chatId":"page_doc_demo"}"#)
        #expect(sent.status == 200, "\(sent.text)")
        let stored = try server.request("GET", "/api/ai/chat/messages?pageId=page_doc_demo", headers: Self.session)
        #expect(stored.text.contains("hello from the entry"), "\(stored.text)")
    }

    // handle-chat-turn.ts:218-224, 366-393; the late-2025 generation (458264c5b):
    // ai/chat/route.ts:95,995-999 and ai_conversations/[id]/messages/route.ts:203,876-880 (after
    // the conversation's own check, :186-200).
    @Test func aChatBodyThatIsNotJSONIsTheRoutesCatchAll500() throws {
        for dialect in LocalServer.dialects {
            let server = try LocalServer.start(dialect: dialect, extraArguments: ["--quiet"])
            defer { server.stop() }
            let headers = try LocalServerTests.writeHeaders(server)
            let global = LocalServerTests.historyPath(server)
            for path in ["/api/ai/chat", global] {
                for body in ["{not json", "null"] {
                    let answer = try server.request("POST", path, headers: headers, body: body)
                    #expect(answer.status == 500, "\(dialect) \(path) \(body): \(answer.text)")
                    if path == global || dialect == "pagespace-legacy" {
                        #expect(try answer.jsonObject()["error"] as? String == "Failed to process chat request. Please try again.")
                    }
                }
            }
            if dialect == "pagespace-legacy" {
                let missing = try server.request(
                    "POST", LocalServerTests.historyPath(server, "no_such_conversation"), headers: headers, body: "{not json")
                #expect(missing.status == 404, "\(missing.text)")
                let none = try server.request("POST", global, headers: headers, body: #"{"messages":[]}"#)
                #expect(none.status == 400, "\(none.text)")
                #expect(try none.jsonObject()["error"] as? String == "messages are required")
            }
        }
    }
}
