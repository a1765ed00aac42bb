import Foundation
import Testing
import TestSupport

/// The late-2025 API's Page AI agent conversations under `/api/agents/*` (PageSpace 458264c5b),
/// in ps-local-server's legacy dialect and through ps-history.
@Suite struct LegacyAgentRoutesTests {
    static let agent = "page_agent_demo"
    static let list = "/api/agents/page_agent_demo/conversations"

    /// A legacy server where the agent has a conversation made by ps-send.
    static func serverWithAgentConversation() throws -> (LocalServer, NetworkSandbox) {
        let server = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--quiet"])
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let sent = try sandbox.run("ps-send", ["--page", agent, "hello legacy agent"])
        #expect(sent.status == 0, "\(sent.stderrText)")
        return (server, sandbox)
    }

    // apps/web/src/app/api/agents/[agentId]/conversations/route.ts:50-222 (GET) and
    // .../[conversationId]/messages/route.ts:43-97 at 458264c5b; authenticateHybridRequest:
    // a JWT or an MCP key (lib/auth/index.ts:200-202).
    @Test func theTwinListsAndReadsAnAgentsConversations() throws {
        let (server, _) = try Self.serverWithAgentConversation()
        defer { server.stop() }
        let jwt = ["Authorization": "Bearer \(try server.legacyLogin().token)"]
        for headers in [jwt, ["Authorization": "Bearer \(LocalServer.mcpKey)"]] {
            let reply = try server.request("GET", Self.list, headers: headers)
            #expect(reply.status == 200, "\(reply.text)")
            let answer = try reply.jsonObject()
            let conversations = try #require(answer["conversations"] as? [[String: Any]])
            let made = try #require(conversations.first { $0["preview"] as? String == "hello legacy agent" }, "\(reply.text)")
            #expect(made["title"] as? String == "hello legacy agent")
            #expect(made["messageCount"] as? Int == 2)
            #expect((made["lastMessage"] as? [String: Any])?["role"] as? String == "assistant")
            #expect(made["createdAt"] is String && made["updatedAt"] is String)
            // Newest activity first (route.ts:171): the conversation just made leads.
            #expect(conversations.first?["id"] as? String == made["id"] as? String)
            let pagination = try #require(answer["pagination"] as? [String: Any])
            #expect(pagination["page"] as? Int == 0 && pagination["pageSize"] as? Int == 50)
            #expect(pagination["totalCount"] as? Int == conversations.count)
            #expect(pagination["hasMore"] as? Bool == false)

            let id = try #require(made["id"] as? String)
            let messages = try server.request("GET", "\(Self.list)/\(id)/messages", headers: headers)
            #expect(messages.status == 200, "\(messages.text)")
            let body = try messages.jsonObject()
            #expect(body["conversationId"] as? String == id && body["messageCount"] as? Int == 2)
            let first = try #require((body["messages"] as? [[String: Any]])?.first)
            #expect(first["role"] as? String == "user" && first["messageType"] as? String == "standard")
            #expect(((first["parts"] as? [[String: Any]])?.first)?["text"] as? String == "hello legacy agent")
        }
        // Paging: pageSize 1 gives one conversation and says there are more.
        let all = try #require(try server.request("GET", Self.list, headers: jwt).jsonObject()["conversations"] as? [Any])
        let paged = try server.request("GET", Self.list + "?page=0&pageSize=1", headers: jwt).jsonObject()
        #expect((paged["conversations"] as? [Any])?.count == 1)
        #expect((paged["pagination"] as? [String: Any])?["hasMore"] as? Bool == (all.count > 1))
        #expect((paged["pagination"] as? [String: Any])?["totalPages"] as? Int == all.count)
        let beyond = try server.request("GET", Self.list + "?page=5&pageSize=50", headers: jwt).jsonObject()
        #expect((beyond["conversations"] as? [Any])?.isEmpty == true)
        // parseInt, unclamped: a negative offset fails in SQL, the catch-all 500 (route.ts:225-230).
        let negative = try server.request("GET", Self.list + "?page=-1", headers: jwt)
        #expect(negative.status == 500 && negative.text.contains("Failed to list conversations"), "\(negative.text)")
        // route.ts:63-74: no such AI_CHAT page.
        let unknown = try server.request("GET", "/api/agents/nosuchagent/conversations", headers: jwt)
        #expect(unknown.status == 404 && unknown.text.contains("AI agent not found"), "\(unknown.text)")
        let unknownMessages = try server.request("GET", "/api/agents/nosuchagent/conversations/x/messages", headers: jwt)
        #expect(unknownMessages.status == 404)
        // A conversation the agent does not have is empty, not missing (messages/route.ts:76-93).
        let empty = try server.request("GET", "\(Self.list)/nosuchconversation/messages", headers: jwt).jsonObject()
        #expect((empty["messages"] as? [Any])?.isEmpty == true && empty["messageCount"] as? Int == 0)
        #expect(try server.request("GET", Self.list).status == 401)
        // An agent's conversations live in chat_messages alone, never among the conversations
        // rows GET /api/ai_conversations lists (ai_conversations/route.ts:21-35).
        let ids = try #require(try server.request("GET", "/api/ai_conversations", headers: jwt).json() as? [[String: Any]])
        #expect(ids.contains { $0["id"] as? String == LocalServer.globalConversationID })
        #expect(!ids.contains { $0["id"] as? String == all.compactMap { ($0 as? [String: Any])?["id"] as? String }.first })
    }

    /// No `/api/ai/page-agents/*` and no PUT agent-config on the late-2025 server: its
    /// agent-config/route.ts exports GET and PATCH only (13, 86). The current one keeps both.
    // apps/web/src/app/api/pages/[pageId]/agent-config/route.ts at 458264c5b: GET gives eight
    // fields (:64-73); PATCH takes any provider and model (:140-146) and echoes only the
    // fields it was sent, an empty one as null (:171-179).
    @Test func theLegacyAgentConfigIsTheLateTwentyTwentyFiveOne() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--quiet"])
        defer { server.stop() }
        let login = try server.legacyLogin()
        let jwt = ["Authorization": "Bearer \(login.token)", "Content-Type": "application/json"]
        let path = "/api/pages/\(Self.agent)/agent-config"
        let config = try server.request("GET", path, headers: jwt)
        #expect(config.status == 200, "\(config.text)")
        #expect(try config.jsonObject().keys.sorted() == [
            "aiModel", "aiProvider", "availableTools", "drivePrompt", "enabledTools", "includeDrivePrompt", "pageId", "systemPrompt",
        ])
        let changed = try server.request("PATCH", path, headers: jwt, body: #"{"aiProvider":"acme","aiModel":""}"#)
        #expect(changed.status == 200, "\(changed.text)")
        let answer = try changed.jsonObject()
        #expect(answer.keys.sorted() == ["aiModel", "aiProvider", "message", "success"], "\(answer)")
        #expect(answer["aiProvider"] as? String == "acme" && answer["aiModel"] is NSNull)
        #expect(try server.request("GET", path, headers: jwt).jsonObject()["aiProvider"] as? String == "acme")
    }

    @Test func theLegacyTwinHasNoNewerAgentRoutes() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--quiet"])
        defer { server.stop() }
        let login = try server.legacyLogin()
        let headers = ["Authorization": "Bearer \(login.token)", "X-CSRF-Token": login.csrf]
        #expect(try server.request("GET", "/api/ai/page-agents/page_agent_demo/conversations", headers: headers).status == 404)
        let put = try server.request("PUT", "/api/pages/page_agent_demo/agent-config", headers: headers, body: #"{"enabledTools":[]}"#)
        #expect(put.status == 404 || put.status == 405, "\(put.status) \(put.text)")
        let current = try LocalServer.start(extraArguments: ["--quiet"])
        defer { current.stop() }
        let session = ["Authorization": "Bearer \(LocalServer.sessionToken)"]
        #expect(try current.request("PUT", "/api/pages/page_agent_demo/agent-config", headers: session,
                                    body: #"{"enabledTools":["read_page"]}"#).status == 200)
    }

    /// ps-history lists an agent's conversations and reads one on the legacy API, and
    /// --every-conversation takes in the agents' conversations.
    @Test func psHistoryReadsLegacyAgentConversations() throws {
        let (server, sandbox) = try Self.serverWithAgentConversation()
        defer { server.stop() }
        let listed = try sandbox.run("ps-history", ["--list", "--agent", Self.agent])
        #expect(listed.status == 0, "\(listed.stderrText)")
        let records = try Records.parse(listed.stdoutText)
        let made = try #require(records.first { $0["preview"] as? String == "hello legacy agent" }, "\(listed.stdoutText)")
        let id = try #require(made["id"] as? String)

        let read = try sandbox.run("ps-history", ["--page", Self.agent, "--conversation", id])
        #expect(read.status == 0, "\(read.stderrText)")
        let messages = try Records.parse(read.stdoutText)
        #expect(messages.count == 2)
        #expect(Records.text(of: messages[0]) == "hello legacy agent")
        let requests = try server.requestLog().compactMap { $0["path"] as? String }
        #expect(requests.contains { $0.hasPrefix("/api/agents/page_agent_demo/conversations/\(id)/messages") }, "\(requests)")

        let whole = try sandbox.run("ps-history", ["--page", Self.agent])
        #expect(whole.status == 0, "\(whole.stderrText)")
        #expect(Set(try Records.parse(whole.stdoutText).compactMap { $0["conversationId"] as? String }).count == records.count)

        let every = try sandbox.run("ps-history", ["--every-conversation"])
        #expect(every.status == 0, "\(every.stderrText)")
        let exported = try Records.parse(every.stdoutText)
        #expect(exported.contains { $0["id"] as? String == id && $0["pageId"] as? String == Self.agent }, "\(every.stdoutText)")
        // Once, as the agent's (never also as a Global conversation).
        #expect(exported.filter { $0["conversationId"] as? String == id && Records.text(of: $0) == "hello legacy agent" }.count == 1)
    }
}
