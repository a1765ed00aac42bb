import Hummingbird
import PSCore

/// The late-2025 Page AI agent conversations under `/api/agents/*` (at PageSpace 458264c5b;
/// they later moved to `/api/ai/page-agents/*`). Both routes call authenticateHybridRequest:
/// a JWT or an MCP key (lib/auth/index.ts:200-202). The conversations are read from the
/// agent's messages, so one without messages is not listed.
struct LegacyAgentRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        let auth = state.authenticator

        // apps/web/src/app/api/agents/[agentId]/conversations/route.ts:50-231 (GET): the
        // agent must be a live AI_CHAT page (404 "AI agent not found", 63-74); page and
        // pageSize are parseInt'ed, never clamped (87-90): a NaN or a negative one makes
        // the SQL LIMIT/OFFSET fail, the catch-all 500 (225-230).
        router.get("/api/agents/:agentId/conversations") { request, context in
            _ = try auth.require(request, scope: .sessionOrMCP)
            let agentID = try agent(context)
            let failed = Refusal(status: .internalServerError, error: "Failed to list conversations")
            guard let page = AgentConversationRoutes.parseInt(request.query("page") ?? "0"),
                  let pageSize = AgentConversationRoutes.parseInt(request.query("pageSize") ?? "50"),
                  page >= 0, pageSize >= 0, page <= Int(Int32.max), pageSize <= Int(Int32.max)
            else { throw failed }
            // ORDER BY the last message's time, newest first (route.ts:171).
            let all = state.store.list(kind: .agent(pageID: agentID)).filter { !$0.messages.isEmpty }
                .sorted { Self.lastMessage($0).createdAt > Self.lastMessage($1).createdAt }
            let start = min(all.count, page * pageSize)
            let slice = all[start..<min(all.count, start + pageSize)]
            let total = all.count
            // route.ts:211-221; Math.ceil(n / 0) is Infinity or NaN, which JSON writes as null.
            let totalPages: JSON = pageSize == 0 ? .null : .integer(Int64((total + pageSize - 1) / pageSize))
            return Reply.json([
                "conversations": .array(slice.map(Self.listing)),
                "pagination": [
                    "page": .integer(Int64(page)), "pageSize": .integer(Int64(pageSize)),
                    "totalCount": .integer(Int64(total)), "totalPages": totalPages,
                    "hasMore": .bool((page + 1) * pageSize < total),
                ],
            ])
        }

        // apps/web/src/app/api/agents/[agentId]/conversations/[conversationId]/messages/route.ts:43-105:
        // every active message of the conversation, oldest first, as UIMessages (no paging);
        // a conversation the agent does not have is simply empty, never a 404.
        router.get("/api/agents/:agentId/conversations/:conversationId/messages") { request, context in
            _ = try auth.require(request, scope: .sessionOrMCP)
            let agentID = try agent(context)
            let conversationID = context.parameters.get("conversationId") ?? ""
            let conversation = state.store.conversation(conversationID).flatMap { $0.kind == .agent(pageID: agentID) ? $0 : nil }
            let messages = (conversation?.messages ?? []).map(Self.uiMessage)
            return Reply.json([
                "messages": .array(messages), "conversationId": .string(conversationID),
                "messageCount": .integer(Int64(messages.count)),
            ])
        }
    }

    /// route.ts:63-74: a page that is not there, or not an AI_CHAT page. (canUserViewPage's
    /// 403 cannot happen: the one user owns every page here.)
    private func agent(_ context: ServerContext) throws -> String {
        guard let id = context.parameters.get("agentId"), state.agents.isAgent(id) else {
            throw Refusal.notFound("AI agent not found")
        }
        return id
    }

    private static func lastMessage(_ conversation: Conversation) -> StoredMessage {
        conversation.messages.max { $0.createdAt < $1.createdAt }!
    }

    /// route.ts:179-207: the preview is the first user message's text (its first 100 UTF-16
    /// units), the title the preview cut at 50 with "...".
    static func listing(_ conversation: Conversation) -> JSON {
        let first = conversation.messages.min { $0.createdAt < $1.createdAt }!
        let last = lastMessage(conversation)
        let firstUser = conversation.messages.filter { $0.role == "user" }.min { $0.createdAt < $1.createdAt }
        let preview = firstUser.map { Self.preview(content: content($0)) } ?? "New conversation"
        let title = preview.utf16.count > 50 ? preview.javaScriptPrefix(50) + "..." : preview
        return [
            "id": .string(conversation.id), "title": .string(title), "preview": .string(preview),
            "createdAt": .string(Timestamp.iso8601(first.createdAt)),
            "updatedAt": .string(Timestamp.iso8601(last.createdAt)),
            "messageCount": .integer(Int64(conversation.messages.count)),
            "lastMessage": ["role": .string(last.role), "timestamp": .string(Timestamp.iso8601(last.createdAt))],
        ]
    }

    /// chat_messages.content as the old server stored it: a user message's text as it is
    /// (api/ai/chat/route.ts:298-309), an assistant's structured envelope when it was saved
    /// with its parts (message-utils.ts:316-351).
    private static func content(_ message: StoredMessage) -> String {
        message.storedAsEnvelope ? (message.envelopeRow["content"]?.stringValue ?? "") : message.plainText
    }

    /// route.ts:181-195: content that parses as JSON gives the text of its first element or
    /// of its first part, else "New conversation"; content that does not parse is used as is.
    static func preview(content: String) -> String {
        guard let parsed = try? JSON.parse(bytes: Array(content.utf8)) else { return content.javaScriptPrefix(100) }
        if let first = parsed.arrayValue?.first, let text = first["text"]?.stringValue, !text.isEmpty {
            return text.javaScriptPrefix(100)
        }
        if parsed.objectValue != nil, let text = parsed["parts"]?.arrayValue?.first?["text"]?.stringValue, !text.isEmpty {
            return text.javaScriptPrefix(100)
        }
        return "New conversation"
    }

    /// convertDbMessageToUIMessage (lib/ai/core/message-utils.ts:176-206, 275-283): the
    /// parts, createdAt, editedAt and messageType "standard".
    static func uiMessage(_ message: StoredMessage) -> JSON {
        guard case .object(var object) = message.uiMessage else { return .null }
        object["editedAt"] = .null
        object["messageType"] = "standard"
        return .object(object)
    }
}
