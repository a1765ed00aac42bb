import Foundation
import Testing
import TestSupport

/// A Page AI agent's history as the real server reads it: `GET /api/ai/chat/messages?pageId=`
/// names one conversation or, without one, mixes all of the page's (issue 32).
@Suite struct PageAIHistoryTests {
    static let mcp = ["Authorization": "Bearer \(LocalServer.mcpKey)"]

    static func sendToAgent(_ server: LocalServer, conversation: String, id: String, text: String) throws {
        let body = #"{"messages":[{"id":"\#(id)","role":"user","parts":[{"type":"text","text":"\#(text)"}]}],"chatId":"page_agent_demo","conversationId":"\#(conversation)"}"#
        let reply = try server.request(
            "POST", "/api/ai/chat", headers: mcp.merging(["X-Browser-Session-Id": "tab_1"]) { $1 }, body: body)
        #expect(reply.status == 200, "\(reply.text)")
    }

    // apps/web/src/app/api/ai/chat/messages/route.ts:25,56-60; message-repository.ts
    // getMessagesForPage:1255-1280 (every conversation of the page, oldest first)
    @Test func withoutAConversationThePageHistoryMixesAllOfThem() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        try Self.sendToAgent(server, conversation: "firstthread", id: "first-question", text: "one")
        try Self.sendToAgent(server, conversation: "secondthread", id: "second-question", text: "two")
        try Self.sendToAgent(server, conversation: "firstthread", id: "third-question", text: "three")

        let mixed = try server.request("GET", "/api/ai/chat/messages?pageId=page_agent_demo", headers: Self.mcp)
        #expect(mixed.status == 200)
        let ids = try #require(try mixed.json() as? [[String: Any]]).compactMap { $0["id"] as? String }
        // The seeded conversation's messages too, and the three questions in the order they came.
        #expect(ids.count == 4 + 6, "\(ids)")
        let questions = ids.filter { $0.hasSuffix("-question") }
        #expect(questions == ["first-question", "second-question", "third-question"])

        let one = try server.request("GET", "/api/ai/chat/messages?pageId=page_agent_demo&conversationId=secondthread", headers: Self.mcp)
        let oneIDs = try #require(try one.json() as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(oneIDs.count == 2)
        #expect(oneIDs.first == "second-question")
    }

    // apps/web/src/app/api/ai/page-agents/[agentId]/conversations/[conversationId]/messages/
    // route.ts:75-81,118,151-156,277-290
    @Test func anAgentsConversationMessagesAreThatAgentsOnly() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        func messages(_ agent: String, _ conversation: String) throws -> (status: Int, body: [String: Any]) {
            let reply = try server.request(
                "GET", "/api/ai/page-agents/\(agent)/conversations/\(conversation)/messages?limit=3", headers: Self.mcp)
            return (reply.status, try reply.jsonObject())
        }
        let own = try messages("page_agent_demo", "demoagentconversation")
        #expect(own.status == 200)
        #expect((own.body["messages"] as? [Any])?.count == 3)
        #expect(own.body["conversationId"] as? String == "demoagentconversation")
        #expect(own.body["messageCount"] as? Int == 3)
        #expect(own.body["rev"] is Int)

        // The Global assistant's conversation, read through the agent: none of its messages.
        let global = try messages("page_agent_demo", LocalServer.globalConversationID)
        #expect(global.status == 200)
        #expect((global.body["messages"] as? [Any])?.isEmpty == true, "\(global.body)")
        #expect(global.body["messageCount"] as? Int == 0)
        #expect(global.body["rev"] is Int)
        #expect((global.body["pagination"] as? [String: Any])?["limit"] as? Int == 3)

        let unknown = try messages("page_agent_demo", "nosuchconversation")
        #expect((unknown.body["messages"] as? [Any])?.isEmpty == true)
        #expect(unknown.body["rev"] is NSNull)

        let notAnAgent = try messages("page_nope", "demoagentconversation")
        #expect(notAnAgent.status == 404)
        #expect(notAnAgent.body["error"] as? String == "AI agent not found")
    }

    // ps-history pages through one conversation only: with --page it must be named.
    @Test func psHistoryDoesNotPageThroughThePagesMixedHistory() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let refused = try sandbox.run("ps-history", ["--page", "page_agent_demo", "--limit", "2"])
        #expect(refused.status == 2)
        #expect(refused.stderrText.contains("with --page, name it with --conversation"), "\(refused.stderrText)")
        let named = try sandbox.run("ps-history", ["--page", "page_agent_demo", "--conversation", "demoagentconversation", "--limit", "2"])
        #expect(named.status == 0, "\(named.stderrText)")
        #expect(named.stdoutLines.count == 2)
    }
}
