import Foundation
import HTTPTypes
import Hummingbird
import PSCore

/// Page AI (AI_CHAT pages, "agents"): send, history, and on the current server the agent's
/// conversations and the non-streaming consult call. MCP keys are welcome here.
struct PageAIRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        let history = HistoryResponder(state: state)
        let auth = state.authenticator

        // apps/web/src/app/api/ai/chat/route.ts (handle-chat-turn.ts, page-chat-turn.ts)
        router.post("/api/ai/chat") { request, _ in
            if state.dialect.isCurrent { try BrowserSessionID.require(request) }
            _ = try auth.require(request, scope: .sessionOrMCP)
            var request = request
            let body = try await request.jsonBody()
            guard let pageID = body["chatId"]?.stringValue, !pageID.isEmpty else {
                throw Refusal.badRequest("chatId is required")
            }
            let conversationID = try agentConversation(
                pageID: pageID, requested: body["conversationId"]?.stringValue, title: body)
            return try ReplyStreamer.respond(to: body, conversationID: conversationID, state: state)
        }

        router.get("/api/ai/chat/messages") { request, context in
            _ = try auth.require(request, scope: .sessionOrMCP)
            guard let pageID = request.query("pageId"), !pageID.isEmpty else {
                throw Refusal.badRequest("pageId is required")
            }
            guard SeedData.isAgentPage(pageID) else { throw Refusal.notFound("Page not found") }
            try await history.dropIfArmed(context)
            let conversations = state.store.list(kind: .agent(pageID: pageID))
            // No conversation named: the page's most recently active one.
            let conversation: Conversation?
            if let wanted = request.query("conversationId") {
                conversation = conversations.first { $0.id == wanted }
            } else {
                conversation = conversations.first
            }
            return Reply.json(.array((conversation?.messages ?? []).map { $0.rendered(for: state.dialect) }))
        }

        guard state.dialect.isCurrent else { return }

        router.get("/api/ai/page-agents/:agentId/conversations") { request, context in
            _ = try auth.require(request, scope: .sessionOrMCP)
            let pageID = try agentPage(context)
            let page = max(0, request.query("page").flatMap { Int($0) } ?? 0)
            let pageSize = min(max(1, request.query("pageSize").flatMap { Int($0) } ?? 50), 100)
            let all = state.store.list(kind: .agent(pageID: pageID))
            let start = min(all.count, page * pageSize)
            let slice = all[start..<min(all.count, start + pageSize)]
            return Reply.json([
                "conversations": .array(slice.map(conversationListing)),
                "pagination": [
                    "page": .integer(Int64(page)), "pageSize": .integer(Int64(pageSize)),
                    "totalCount": .integer(Int64(all.count)),
                    "totalPages": .integer(Int64((all.count + pageSize - 1) / pageSize)),
                    "hasMore": .bool(slice.endIndex < all.count),
                ],
            ])
        }

        // apps/web/src/app/api/ai/page-agents/[agentId]/conversations/[conversationId]/messages/route.ts
        router.get("/api/ai/page-agents/:agentId/conversations/:conversationId/messages") { request, context in
            _ = try auth.require(request, scope: .sessionOrMCP)
            _ = try agentPage(context)
            return try await history.page(
                of: context.parameters.get("conversationId") ?? "", request: request, context: context,
                unknownDirection: .becomesBefore)
        }

        router.post("/api/ai/page-agents/consult") { request, _ in
            _ = try auth.require(request, scope: .sessionOrMCP)
            var request = request
            let body = try await request.jsonBody()
            guard let pageID = body["agentId"]?.stringValue, let question = body["question"]?.stringValue,
                !question.isEmpty
            else { throw Refusal.badRequest("agentId and question are required") }
            let conversationID = try agentConversation(
                pageID: pageID, requested: body["conversationId"]?.stringValue, title: ["question": .string(question)])
            return Reply.json(consult(question: question, pageID: pageID, conversationID: conversationID))
        }
    }

    private func agentPage(_ context: ServerContext) throws -> String {
        guard let pageID = context.parameters.get("agentId"), SeedData.isAgentPage(pageID) else {
            throw Refusal.notFound("Page not found")
        }
        return pageID
    }

    /// The conversation a Page AI message goes to: the one named, or a new one. A
    /// conversation is only ever created from a cuid-shaped id; an unknown id of another
    /// shape is refused (page-chat-turn.ts). Without an id the server makes one and tells
    /// it nowhere.
    private func agentConversation(pageID: String, requested: String?, title source: JSON) throws -> String {
        guard SeedData.isAgentPage(pageID) else { throw Refusal.notFound("Page not found") }
        let id = requested.flatMap { $0.isEmpty ? nil : $0 } ?? Identifiers.cuid()
        if let existing = state.store.conversation(id) {
            guard existing.kind == .agent(pageID: pageID) else { throw Refusal(status: .forbidden, error: "Forbidden") }
            return id
        }
        guard Identifiers.isCuid(id) else { throw Refusal.badRequest("Invalid conversationId") }
        let text = source["question"]?.stringValue
            ?? source["messages"]?.arrayValue?.last?["parts"]?.arrayValue?.first?["text"]?.stringValue ?? "New conversation"
        state.store.insert(Conversation(id: id, title: String(text.prefix(60)), kind: .agent(pageID: pageID), createdAt: Timestamp.now()))
        return id
    }

    private func conversationListing(_ conversation: Conversation) -> JSON {
        let first = conversation.messages.first { $0.role == "user" }?.plainText ?? ""
        return [
            "id": .string(conversation.id), "title": .string(conversation.title),
            "preview": .string(String(first.prefix(100))),
            "createdAt": .string(Timestamp.iso8601(conversation.createdAt)),
            "updatedAt": .string(Timestamp.iso8601(conversation.updatedAt)),
            "messageCount": .integer(Int64(conversation.messages.count)),
        ]
    }

    /// The non-streaming ask: the same reply as a stream would carry, stored, answered whole.
    private func consult(question: String, pageID: String, conversationID: String) -> JSON {
        let asked = StoredMessage(
            id: state.ids.nextMessageID(), role: "user", parts: [["type": "text", "text": .string(question)]],
            createdAt: Timestamp.now())
        state.store.append(asked, to: conversationID)
        let segments = ReplyScript.reply(to: question, callID: Identifiers.random(prefix: "call_", bytes: 8))
        let reply = StoredMessage(
            id: state.ids.nextMessageID(), role: "assistant", parts: ReplyScript.historyParts(segments),
            createdAt: Timestamp.now())
        state.store.append(reply, to: conversationID)
        return [
            "success": true, "response": .string(reply.plainText), "conversationId": .string(conversationID),
            "agentId": .string(pageID), "messageId": .string(reply.id),
        ]
    }
}
