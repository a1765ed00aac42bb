import Hummingbird
import PSCore

/// Editing, deleting and undoing messages of the current server's conversations.
struct MessageEditRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        let auth = state.authenticator

        // apps/web/src/app/api/ai/global/[id]/messages/[messageId]/route.ts: session tokens;
        // 400 without a string content, 404 for an unknown conversation or a message not in
        // it, 409 while the message is being generated.
        router.patch("/api/ai/global/:id/messages/:messageId") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            var request = request
            let content = try await Self.content(&request)
            let (conversation, message) = try globalMessage(context, verb: "edited")
            // editGlobalMessage announces plain text parts with role 'assistant', whoever wrote it.
            let announced: JSON = [
                "id": .string(message.id), "role": "assistant", "parts": [["type": "text", "text": .string(content)]],
                "status": "complete", "source": .null, "createdAt": .string(Timestamp.iso8601(Timestamp.now())),
            ]
            state.store.append(Self.edited(message, content), to: conversation.id, announceAs: announced)
            return Reply.json(["success": true, "message": "Message updated successfully"])
        }
        router.delete("/api/ai/global/:id/messages/:messageId") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            let (_, message) = try globalMessage(context, verb: "deleted")
            _ = state.store.removeMessage(message.id)
            return Reply.json(["success": true, "message": "Message deleted successfully"])
        }

        // apps/web/src/app/api/ai/chat/messages/[messageId]/route.ts: Page AI messages only
        // (a Global one is "Message not found"), session tokens and MCP keys.
        router.patch("/api/ai/chat/messages/:messageId") { request, context in
            let credential = try auth.require(request, scope: .sessionOrMCP)
            var request = request
            let content = try await Self.content(&request)
            let (conversation, message) = try pageMessage(context, verb: "edited", credential: credential)
            state.store.append(Self.edited(message, content), to: conversation.id)
            return Reply.json(["success": true, "message": "Message updated successfully"])
        }
        router.delete("/api/ai/chat/messages/:messageId") { request, context in
            let credential = try auth.require(request, scope: .sessionOrMCP)
            let (_, message) = try pageMessage(context, verb: "deleted", credential: credential)
            _ = state.store.removeMessage(message.id)
            return Reply.json(["success": true, "message": "Message deleted successfully"])
        }

        // apps/web/src/app/api/ai/chat/messages/[messageId]/undo/route.ts (ai-undo-service.ts):
        // the message and every later one of its conversation. GET previews, POST {mode,
        // force?} does it. This server's tools change nothing, so there are no activities to
        // roll back with messages_and_changes.
        router.get("/api/ai/chat/messages/:messageId/undo") { request, context in
            let credential = try auth.require(request, scope: .sessionOrMCP)
            let (conversation, message, affected) = try undoTarget(context, credential: credential)
            return Reply.json(Self.preview(conversation, message, affected: affected.count))
        }
        router.post("/api/ai/chat/messages/:messageId/undo") { request, context in
            let credential = try auth.require(request, scope: .sessionOrMCP)
            var request = request
            // request.json() throwing is the POST's catch-all 500 (route.ts:218, 382-389).
            guard let body = try await request.jsonBodyIfValid() else {
                throw Refusal(status: .internalServerError, error: "Internal server error")
            }
            guard let mode = body["mode"]?.stringValue, mode == "messages_only" || mode == "messages_and_changes" else {
                throw Refusal.badRequest(#"Invalid mode. Must be "messages_only" or "messages_and_changes""#)
            }
            let (conversation, _, affected) = try undoTarget(context, credential: credential)
            state.store.undo(affected, in: conversation.id, mode: mode)
            let message = mode == "messages_only"
                ? "Deleted \(affected.count) messages" : "Deleted \(affected.count) messages and undid 0 changes"
            return Reply.json([
                "success": true, "messagesDeleted": .integer(Int64(affected.count)), "activitiesRolledBack": 0,
                "errors": [], "message": .string(message),
            ])
        }
    }

    /// `const { content } = await request.json()`: a body that is not JSON, or is null, throws
    /// into the catch-all 500 (global [messageId]/route.ts:35,141-146; chat
    /// messages/[messageId]/route.ts:56,180-185); no string content is a 400.
    private static func content(_ request: inout Request) async throws -> String {
        guard let body = try await request.jsonBodyIfValid(), body != .null else {
            throw Refusal(status: .internalServerError, error: "Failed to edit message")
        }
        guard let content = body["content"]?.stringValue, !content.isEmpty else {
            throw Refusal.badRequest("Content is required and must be a string")
        }
        return content
    }

    /// processMessageContentUpdate: the text becomes `content`; tool parts stay where they are.
    private static func edited(_ message: StoredMessage, _ content: String) -> StoredMessage {
        var parts: [JSON] = []
        var placed = false
        for part in message.parts {
            guard part["type"]?.stringValue == "text" else { parts.append(part); continue }
            if !placed { parts.append(["type": "text", "text": .string(content)]) }
            placed = true
        }
        if !placed { parts.insert(["type": "text", "text": .string(content)], at: 0) }
        return StoredMessage(id: message.id, role: message.role, parts: parts, createdAt: message.createdAt)
    }

    /// The message to edit or delete. A reply still being generated is 409: the real server
    /// writes its 'streaming' placeholder row at the stream's start (start-chat-generation.ts),
    /// so the route finds it and refuses it (global/[id]/messages/[messageId]/route.ts:60-67,
    /// 184-191; chat/messages/[messageId]/route.ts:100-108, 243-250); this server stores a
    /// reply when it ends, so it asks the running generations.
    /// The conversation is any active one of the user's, a page agent's too
    /// (getConversationById, global-conversation-repository.ts:400-412, looks at no type; the
    /// message is looked up in it, message-repository.ts getMessageInConversation:1384-1398).
    private func globalMessage(_ context: ServerContext, verb: String) throws -> (Conversation, StoredMessage) {
        guard let conversation = state.store.conversation(context.parameters.get("id") ?? "") else {
            throw Refusal.notFound("Conversation not found")
        }
        let messageID = context.parameters.get("messageId") ?? ""
        try notStreaming(messageID, verb: verb, in: conversation)
        guard let position = conversation.position(of: messageID) else { throw Refusal.notFound("Message not found") }
        return (conversation, conversation.messages[position])
    }

    /// The key's drive scope on the message's page comes after the message is found and
    /// before the 409 (chat/messages/[messageId]/route.ts:77-84, 219-226).
    private func pageMessage(_ context: ServerContext, verb: String, credential: Authenticator.Credential) throws
        -> (Conversation, StoredMessage) {
        let messageID = context.parameters.get("messageId") ?? ""
        if let running = state.streams.lookup(messageID: messageID).running,
           let conversation = state.store.conversation(running.conversationID), case .agent(let pageID) = conversation.kind {
            try DriveScope.checkPage(credential, pageID, in: state.agents)
            try notStreaming(messageID, verb: verb, in: conversation)
        }
        guard let (conversation, message) = find(messageID), case .agent(let pageID) = conversation.kind else {
            throw Refusal.notFound("Message not found")
        }
        try DriveScope.checkPage(credential, pageID, in: state.agents)
        return (conversation, message)
    }

    /// The message and every later one; the key's drive scope on its page once it is found
    /// (undo/route.ts:96-101).
    private func undoTarget(_ context: ServerContext, credential: Authenticator.Credential) throws
        -> (Conversation, StoredMessage, [String]) {
        let messageID = context.parameters.get("messageId") ?? ""
        guard let (conversation, message) = find(messageID), let position = conversation.position(of: messageID) else {
            throw Refusal.notFound("Message not found or preview failed")
        }
        if let pageID = conversation.pageID {
            try DriveScope.checkPage(credential, pageID, in: state.agents)
        }
        return (conversation, message, conversation.messages[position...].map(\.id))
    }

    private func find(_ messageID: String) -> (Conversation, StoredMessage)? {
        for conversation in state.store.list(where: { $0.position(of: messageID) != nil }) {
            return (conversation, conversation.messages[conversation.position(of: messageID)!])
        }
        return nil
    }

    private func notStreaming(_ messageID: String, verb: String, in conversation: Conversation) throws {
        guard state.streams.lookup(messageID: messageID).running?.conversationID != conversation.id else {
            throw Refusal(status: .conflict, error: "This message is still generating and cannot be \(verb) yet")
        }
    }

    private static func preview(_ conversation: Conversation, _ message: StoredMessage, affected: Int) -> JSON {
        var pageID: JSON = .null
        if case .agent(let id) = conversation.kind { pageID = .string(id) }
        return [
            "messageId": .string(message.id), "conversationId": .string(conversation.id), "pageId": pageID,
            "driveId": pageID.isNull ? .null : .string(SeedData.driveID),
            "source": pageID.isNull ? "global_chat" : "page_chat",
            "createdAt": .string(Timestamp.iso8601(message.createdAt)), "messagesAffected": .integer(Int64(affected)),
            "activitiesAffected": [], "warnings": [],
        ]
    }
}
