import Hummingbird
import PSCore

/// The current server's Global assistant: `/api/ai/global/*` and `/api/ai/abort` (AbortRoute), session
/// tokens only.
struct GlobalRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        let history = HistoryResponder(state: state)
        let auth = state.authenticator

        router.get("/api/ai/global") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            // listConversations / listConversationsPaginated (apps/web/src/lib/repositories/
            // global-conversation-repository.ts:198-206, 234-285): only conversations with a message.
            let all = state.store.list(kind: .global).filter { !$0.messages.isEmpty }
            guard request.query("paginated") == "true" else { return Reply.json(.array(all.map(\.summary))) }
            return try paginatedList(all, request: request)
        }
        router.post("/api/ai/global") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            var request = request
            let body = try? await request.jsonBody()
            let title = body?["title"]?.stringValue ?? "New conversation"
            let conversation = Conversation(
                id: Identifiers.random(prefix: "conv_"), title: title, kind: .global, createdAt: Timestamp.now())
            state.store.insert(conversation)
            return Reply.json(conversation.summary)
        }
        // apps/web/src/app/api/ai/global/active/route.ts: the most recently used conversation
        // that has messages, or null.
        router.get("/api/ai/global/active") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            return Reply.json(state.store.list(kind: .global).first { !$0.messages.isEmpty }?.summary ?? .null)
        }
        router.get("/api/ai/global/:id") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            return Reply.json(try globalConversation(context).summary)
        }
        // apps/web/src/app/api/ai/global/[id]/route.ts (PATCH): the title as sent, unchecked;
        // a body that is not JSON is the route's catch-all 500.
        router.patch("/api/ai/global/:id") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            var request = request
            guard let body = try await request.jsonBodyIfValid() else {
                throw Refusal(status: .internalServerError, error: "Failed to update conversation")
            }
            let id = try globalConversation(context).id
            guard let title = body["title"]?.stringValue else { return Reply.json(try globalConversation(context).summary) }
            return Reply.json(state.store.rename(id, to: title)?.summary ?? .null)
        }
        // apps/web/src/app/api/ai/global/[id]/route.ts (DELETE)
        router.delete("/api/ai/global/:id") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            guard state.store.remove(try globalConversation(context).id) else { throw Refusal.notFound("Conversation not found") }
            return Reply.json(["success": true])
        }
        router.get("/api/ai/global/:id/messages") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            return try await history.page(of: context.parameters.get("id") ?? "", request: request, context: context)
        }
        // apps/web/src/app/api/ai/global/[id]/messages/route.ts (global-chat-turn.ts): the
        // browser session header first; the images checked before the conversation is looked
        // at; an unknown cuid-shaped id is created on first use.
        router.post("/api/ai/global/:id/messages") { request, context in
            try BrowserSessionID.require(request)
            _ = try auth.require(request, scope: .sessionOnly)
            var request = request
            let body = try await request.jsonBody()
            try ImageGate.checkFileParts(body)
            try ImageGate.checkVision(body, model: body["selectedModel"]?.stringValue)
            try ChatAdmission.checkCredits(state)
            let id = try globalConversationCreatingNew(context).id
            return try ReplyStreamer.respond(to: body, conversationID: id, state: state, global: true)
        }
        AbortRoute(state: state).register(on: router)
    }

    /// The conversation a send names; a new one when the id is unknown and cuid-shaped
    /// (clients make the id of a new conversation themselves).
    private func globalConversationCreatingNew(_ context: ServerContext) throws -> Conversation {
        let id = context.parameters.get("id") ?? ""
        if state.store.conversation(id) == nil, Identifiers.isCuid(id) {
            state.store.insert(Conversation(id: id, title: "", kind: .global, createdAt: Timestamp.now()))
        }
        return try globalConversation(context)
    }

    private func globalConversation(_ context: ServerContext) throws -> Conversation {
        guard let id = context.parameters.get("id"), let conversation = state.store.conversation(id),
            conversation.kind == .global
        else { throw Refusal.notFound("Conversation not found") }
        return conversation
    }

    /// `?paginated=true&limit=&cursor=`: the cursor is the id of the last conversation seen.
    private func paginatedList(_ all: [Conversation], request: Request) throws -> Response {
        var limit = 20
        if let text = request.query("limit") {
            guard let value = Int(text) else { throw Refusal.badRequest("limit must be a number") }
            limit = min(max(value, 1), 100)
        }
        var start = 0
        if let cursor = request.query("cursor"), !cursor.isEmpty {
            start = (all.firstIndex { $0.id == cursor }).map { $0 + 1 } ?? all.count
        }
        let page = all[start..<min(all.count, start + limit)]
        let hasMore = page.endIndex < all.count
        return Reply.json([
            "conversations": .array(page.map(\.summary)),
            "pagination": [
                "hasMore": .bool(hasMore), "nextCursor": hasMore ? .string(page.last!.id) : .null,
                "limit": .integer(Int64(limit)),
            ],
        ])
    }
}
