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

        // apps/web/src/app/api/ai/chat/route.ts (handle-chat-turn.ts, page-chat-turn.ts): a body
        // that is not JSON is a 500 (handle-chat-turn.ts:218-224). Without a chatId, a
        // conversationId naming one of the user's Global conversations runs the Global turn, for
        // a session only (:295-353). Then the messages and chatId (page-chat-turn.ts:395-403;
        // the late-2025 route, 458264c5b, route.ts:159-167); on the current server the key's
        // drive scope (:436-440), then the file parts, then the page: one the user cannot view,
        // as one that does not exist, is 403 (canPrincipalViewPage, :485-493; late-2025
        // route.ts:188-195), of any type (:521-526); then the model's vision (the request's
        // model, else the page's), the conversation's checks (:628-691), and only then the
        // credit gate (:742-750), before the new conversation's row is made.
        router.post("/api/ai/chat") { request, _ in
            if state.dialect.isCurrent { try BrowserSessionID.require(request) }
            let credential = try auth.require(request, scope: .sessionOrMCP)
            var request = request
            let body = try await request.chatBody()
            let chatID = body["chatId"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            if state.dialect.isCurrent, chatID == nil, let named = body["conversationId"]?.stringValue,
               state.store.conversation(named)?.kind == .global {
                if case .mcpKey = credential { _ = try auth.require(request, scope: .sessionOnly) }
                return try GlobalRoutes.turn(body, urlConversationID: nil, state: state)
            }
            guard body.hasChatMessages else { throw Refusal.badRequest("messages are required") }
            guard let pageID = chatID else { throw Refusal.badRequest("chatId is required") }
            if state.dialect.isCurrent {
                try DriveScope.checkPage(credential, pageID, in: state.agents)
                try ImageGate.checkFileParts(body)
            }
            guard let page = state.agents.page(pageID) else {
                throw Refusal(status: .forbidden, error: "You do not have permission to view this AI chat")
            }
            if state.dialect.isCurrent {
                let selected = body["selectedModel"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
                try ImageGate.checkVision(body, model: selected ?? page.config.aiModel)
            }
            let (conversationID, created) = try agentConversation(
                pageID: pageID, requested: body["conversationId"]?.stringValue, title: body)
            if state.dialect.isCurrent { try ChatAdmission.checkCredits(state) }
            if let created { state.store.insert(created) }
            return try ReplyStreamer.respond(to: body, conversationID: conversationID, state: state)
        }

        // apps/web/src/app/api/ai/chat/messages/route.ts (GET): pageId, then the key's drive
        // scope (:35-39), then the page (:41-47).
        router.get("/api/ai/chat/messages") { request, context in
            let credential = try auth.require(request, scope: .sessionOrMCP)
            guard let pageID = request.query("pageId"), !pageID.isEmpty else {
                throw Refusal.badRequest("pageId is required")
            }
            if state.dialect.isCurrent {
                try DriveScope.checkPage(credential, pageID, in: state.agents)
                // canPrincipalViewPage (:41-47): false for a page that does not exist; any
                // page the user sees has its messages here (none but an agent's).
                guard state.agents.page(pageID) != nil else {
                    throw Refusal(Reply.json([
                        "error": "You need view permission to access this page's chat messages",
                        "details": "Contact the page owner to request access",
                    ], status: .forbidden))
                }
            } else {
                guard state.agents.isAgent(pageID) else { throw Refusal.notFound("Page not found") }
            }
            try await history.dropIfArmed(context)
            let conversations = state.store.list(kind: .agent(pageID: pageID))
            // The conversation named, or with none every conversation of the page, interleaved
            // oldest first (route.ts:25,56-60; message-repository.ts getMessagesForPage:1255-1280,
            // ordered by createdAt then id; the late-2025 route, 458264c5b, route.ts:35-51, by
            // createdAt).
            let messages: [StoredMessage]
            if let wanted = request.query("conversationId"), !wanted.isEmpty {
                messages = conversations.first { $0.id == wanted }?.messages ?? []
            } else {
                messages = conversations.flatMap(\.messages).sorted {
                    ($0.createdAt, $0.id) < ($1.createdAt, $1.id)
                }
            }
            return Reply.json(.array(messages.map { $0.rendered(for: state.dialect) }))
        }

        guard state.dialect.isCurrent else { return }

        // apps/web/src/app/api/ai/page-agents/[agentId]/conversations/route.ts (GET): the
        // agent (:46-51), then the key's drive scope (:55-59); page and pageSize through
        // parseBoundedIntParam (0-10000, 1-200). Only conversations with messages, the
        // agent's and the client threads stamped with it, most recent message first
        // (conversation-repository.ts listConversations:448-531, unifiedPageScopeSql).
        router.get("/api/ai/page-agents/:agentId/conversations") { request, context in
            let credential = try auth.require(request, scope: .sessionOrMCP)
            let pageID = try agentPage(context)
            try DriveScope.checkPage(credential, pageID, in: state.agents)
            func bounded(_ name: String, _ fallback: Int, _ range: ClosedRange<Int>) -> Int {
                let value = request.query(name).flatMap(AgentConversationRoutes.parseInt) ?? fallback
                return min(range.upperBound, max(range.lowerBound, value))
            }
            let page = bounded("page", 0, 0...10_000), pageSize = bounded("pageSize", 50, 1...200)
            let all = state.store.list { $0.pageID == pageID && !$0.messages.isEmpty }
                .sorted { ($0.lastMessageAt ?? 0, $0.id) > ($1.lastMessageAt ?? 0, $1.id) }
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

        // apps/web/src/app/api/ai/page-agents/[agentId]/conversations/[conversationId]/messages/route.ts:
        // only the agent's messages of that conversation (unifiedPageScope(agentId), :151-156):
        // another agent's or a Global conversation has none here, though its rev is still
        // given (:118, 289); a conversation that does not exist has a null rev. The answer
        // names the conversation and counts the messages (:277-290). The agent first
        // (:70-81), then the key's drive scope (:85-89).
        router.get("/api/ai/page-agents/:agentId/conversations/:conversationId/messages") { request, context in
            let credential = try auth.require(request, scope: .sessionOrMCP)
            let pageID = try agentPage(context)
            try DriveScope.checkPage(credential, pageID, in: state.agents)
            let conversationID = context.parameters.get("conversationId") ?? ""
            let query = HistoryQuery(request.uri, unknownDirection: .becomesBefore)
            try await history.dropIfArmed(context)
            let found = state.store.page(of: conversationID, query: query, compoundCursor: true)
            let ours = state.store.conversation(conversationID)?.kind == .agent(pageID: pageID)
            let page = ours ? found?.page ?? .empty : .empty
            var body = page.body(query: query, dialect: state.dialect, rev: found?.rev).objectValue ?? JSONObject()
            body["conversationId"] = .string(conversationID)
            body["messageCount"] = .integer(Int64(page.messages.count))
            if found == nil { body["rev"] = .null }
            return Reply.json(.object(body))
        }

        // apps/web/src/app/api/ai/page-agents/consult/route.ts: a named conversation must be
        // this agent's (404 "Conversation not found" otherwise, never made anew); without one
        // a new conversation is made and its id returned. A body that is not JSON, or is
        // null, throws inside the try: the catch-all 500 quoting the error (route.ts:211-212,
        // 723-728).
        router.post("/api/ai/page-agents/consult") { request, _ in
            let credential = try auth.require(request, scope: .sessionOrMCP)
            var request = request
            let body: JSON
            switch try await request.javaScriptJSONBody() {
            case .failure(let failure): throw Refusal(status: .internalServerError, error: "Failed to consult agent: " + failure.message)
            case .success(.null):
                throw Refusal(status: .internalServerError,
                              error: "Failed to consult agent: Cannot destructure property 'agentId' of 'body' as it is null.")
            case .success(let json): body = json
            }
            guard let agentID = body["agentId"]?.stringValue, !agentID.isEmpty,
                let question = body["question"]?.stringValue, !question.isEmpty
            else { throw Refusal.badRequest("agentId and question are required") }
            guard let agent = state.agents.page(agentID) else {
                throw Refusal.notFound("Agent with ID \"\(agentID)\" not found")
            }
            guard agent.type == "AI_CHAT" else { throw Refusal.badRequest("Page \"\(agentID)\" is not an AI agent") }
            try DriveScope.checkPage(credential, agentID, in: state.agents)  // route.ts:243-247
            try ChatAdmission.admitAgentRun(agent, userFallback: false, state: state)  // route.ts:265-293
            let conversationID: String
            if let requested = body["conversationId"]?.stringValue, !requested.isEmpty {
                guard state.store.conversation(requested)?.kind == .agent(pageID: agentID) else {
                    throw Refusal.notFound("Conversation not found")
                }
                conversationID = requested
            } else {
                conversationID = Identifiers.cuid()
                state.store.insert(Conversation(
                    id: conversationID, title: String(question.prefix(60)), kind: .agent(pageID: agentID),
                    createdAt: Timestamp.now()))
            }
            let context = body["context"]?.stringValue
            return Reply.json(consult(question: question, context: context, agent: agent, conversationID: conversationID))
        }
    }

    /// The agent of a page-agents route (conversations/route.ts:46-51,167-172,
    /// conversations/[conversationId]/messages/route.ts:75-81: 404 "AI agent not found").
    private func agentPage(_ context: ServerContext) throws -> String {
        guard let pageID = context.parameters.get("agentId"), state.agents.isAgent(pageID) else {
            throw Refusal.notFound("AI agent not found")
        }
        return pageID
    }

    /// The conversation a Page AI message goes to: the one named, or a new one, given back
    /// to be stored once the credit gate has passed. A conversation is only ever created
    /// from a cuid-shaped id; an unknown id of another shape is refused (page-chat-turn.ts).
    /// Without an id the server makes one and tells it nowhere.
    private func agentConversation(pageID: String, requested: String?, title source: JSON) throws -> (id: String, created: Conversation?) {
        let id = requested.flatMap { $0.isEmpty ? nil : $0 } ?? Identifiers.cuid()
        if let existing = state.store.conversation(id) {
            guard existing.kind == .agent(pageID: pageID) else { throw Refusal(status: .forbidden, error: "Forbidden") }
            return (id, nil)
        }
        // A deleted one keeps its row on the real server: history_deleted, 404
        // (page-chat-turn.ts:672-682).
        guard !state.store.wasDeleted(id) else { throw Refusal.notFound("Conversation not found") }
        guard Identifiers.isCuid(id) else { throw Refusal.badRequest("Invalid conversationId") }
        let text = source["question"]?.stringValue
            ?? source["messages"]?.arrayValue?.last?["parts"]?.arrayValue?.first?["text"]?.stringValue ?? "New conversation"
        return (id, Conversation(id: id, title: String(text.prefix(60)), kind: .agent(pageID: pageID), createdAt: Timestamp.now()))
    }

    /// One conversation of the listing (conversations/route.ts:93-116): the title made from
    /// the first user message (extractPreviewText, generateTitle:
    /// conversation-repository.ts:88-123), the times of its first and last messages.
    private func conversationListing(_ conversation: Conversation) -> JSON {
        func prefix(_ text: String, _ units: Int) -> String { String(decoding: Array(text.utf16.prefix(units)), as: UTF16.self) }
        let preview = conversation.messages.first { $0.role == "user" }.map { prefix($0.plainText, 100) } ?? "New conversation"
        let title = preview.utf16.count > 50 ? prefix(preview, 50) + "..." : preview
        let first = conversation.messages.first?.createdAt ?? conversation.createdAt
        let last = conversation.messages.last
        let lastAt: JSON = .string(Timestamp.iso8601(last?.createdAt ?? conversation.createdAt))
        return [
            "id": .string(conversation.id), "title": .string(title), "preview": .string(preview),
            "createdAt": .string(Timestamp.iso8601(first)), "updatedAt": lastAt,
            "messageCount": .integer(Int64(conversation.messages.count)),
            "isShared": false, "isOwner": true, "sessionId": .null,
            "lastMessage": ["role": last.map { .string($0.role) } ?? .null, "timestamp": lastAt],
        ]
    }

    /// The non-streaming ask: the same reply as a stream would carry, stored, answered whole
    /// in the route's shape.
    private func consult(question: String, context: String?, agent: AgentDirectory.Page, conversationID: String) -> JSON {
        let history = state.store.conversation(conversationID)?.messages.count ?? 0
        let asked = context.map { "Context: \($0)\n\nQuestion: \(question)" } ?? question
        state.store.append(
            StoredMessage(id: state.ids.nextMessageID(), role: "user", parts: [["type": "text", "text": .string(asked)]],
                          createdAt: Timestamp.now()),
            to: conversationID)
        let segments = ReplyScript.reply(to: question, callID: Identifiers.random(prefix: "call_", bytes: 8))
        let reply = StoredMessage(
            id: state.ids.nextMessageID(), role: "assistant", parts: ReplyScript.historyParts(segments),
            createdAt: Timestamp.now())
        state.store.append(reply, to: conversationID)
        let text = reply.plainText
        let prompt = agent.config.systemPrompt.isEmpty ? "You are a helpful AI assistant." : agent.config.systemPrompt
        let provider: JSON = .string(agent.config.aiProvider.isEmpty ? "default" : agent.config.aiProvider)
        let model: JSON = .string(agent.config.aiModel.isEmpty ? "default" : agent.config.aiModel)
        let tools = Int64(agent.config.enabledTools.count)
        return [
            "success": true,
            "agent": [
                "id": .string(agent.id), "title": .string(agent.title),
                "systemPrompt": .string(String(prompt.prefix(100)) + (prompt.count > 100 ? "..." : "")),
                "provider": provider, "model": model, "enabledToolsCount": .integer(tools),
            ],
            "question": .string(question), "response": .string(text), "context": context.map(JSON.string) ?? .null,
            "conversationId": .string(conversationID),
            "metadata": [
                "conversationLength": .integer(Int64(history)), "toolsAvailable": .integer(tools),
                "provider": provider, "model": model, "responseLength": .integer(Int64(text.utf16.count)),
                "timestamp": .string(Timestamp.iso8601(Timestamp.now())),
            ],
            "summary": .string("Consulted agent \"\(agent.title)\" and received \(text.utf16.count) character response"),
            // route.ts:715-720
            "nextSteps": [
                "Review the agent's response for insights",
                "Continue the conversation if needed using the agent's page",
                "Consider adjusting the agent's configuration if the response wasn't helpful",
                .string("Agent: \(agent.title) (\(agent.id))"),
            ],
        ]
    }
}
