import Hummingbird
import PSCore

/// The late-2025 Global assistant: `/api/ai_conversations/*`, as it stood before the routes moved under `/api/ai` (PageSpace commit 60ce27bbb, whose
/// parent these follow).
struct LegacyConversationRoutes {
    let state: ServerState

    /// Every one of these routes is `AUTH_OPTIONS = { allow: ['jwt'], requireCSRF: true }`
    /// (ai_conversations/route.ts:10, global/route.ts:6, [id]/route.ts:6, [id]/messages/route.ts:41
    /// at 458264c5b): an MCP key is refused by name (lib/auth/index.ts:234-239).
    func register(on router: Router<ServerContext>) {
        let history = HistoryResponder(state: state)
        let auth = state.authenticator

        // apps/web/src/app/api/ai_conversations/route.ts (GET): the user's active rows of the
        // conversations table (route.ts:21-35), most recently active first, as a bare array.
        // A Page AI agent's conversations live in chat_messages alone, so never here.
        router.get("/api/ai_conversations") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            return Reply.json(.array(state.store.list { $0.kind == .global }.map(\.summary)))
        }
        // apps/web/src/app/api/ai_conversations/route.ts (POST): {title?, type = global,
        // contextId?}; the title stays null until the first message names it.
        router.post("/api/ai_conversations") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            var request = request
            guard let body = try await request.jsonBodyIfValid() else {
                throw Refusal(status: .internalServerError, error: "Failed to create conversation")
            }
            let conversation = Conversation(
                id: Identifiers.cuid(), title: body["title"]?.stringValue ?? "", kind: .global, createdAt: Timestamp.now())
            state.store.insert(conversation)
            return Reply.json(Self.row(conversation))
        }
        // apps/web/src/app/api/ai_conversations/global/route.ts: the most recently CREATED
        // global conversation, or null.
        router.get("/api/ai_conversations/global") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            let newest = state.store.list(kind: .global).max { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            return Reply.json(newest?.summary ?? .null)
        }
        // apps/web/src/app/api/ai_conversations/[id]/route.ts (GET, PATCH, DELETE): 404
        // {"error":"Conversation not found"} for one the user does not have.
        router.get("/api/ai_conversations/:id") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            return Reply.json(Self.row(try conversation(context)))
        }
        router.patch("/api/ai_conversations/:id") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            var request = request
            guard let body = try await request.jsonBodyIfValid() else {
                throw Refusal(status: .internalServerError, error: "Failed to update conversation")
            }
            let id = try conversation(context).id
            // An absent title is left as it is (drizzle skips undefined values).
            let updated = state.store.update(id) { conversation -> Conversation in
                conversation.updatedAt = Timestamp.now()
                if let title = body["title"]?.stringValue { conversation.title = title }
                return conversation
            }
            guard let updated else { throw Refusal.notFound("Conversation not found") }
            return Reply.json(Self.row(updated))
        }
        router.delete("/api/ai_conversations/:id") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            guard state.store.remove(try conversation(context).id) else { throw Refusal.notFound("Conversation not found") }
            return Reply.json(["success": true])
        }
        // apps/web/src/app/api/ai_conversations/[id]/messages/route.ts
        router.get("/api/ai_conversations/:id/messages") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            return try await history.page(of: context.parameters.get("id") ?? "", request: request, context: context)
        }
        // The same file (POST): any active conversation of the user; an untitled one is named
        // after the first user message (its first 50 characters, "..." when cut).
        router.post("/api/ai_conversations/:id/messages") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            let conversation = try conversation(context)
            var request = request
            let body = try await request.jsonBody()
            if conversation.title.isEmpty, let text = Self.lastUserText(body), !text.isEmpty {
                let title = text.count > 50 ? String(text.prefix(50)) + "..." : text
                state.store.rename(conversation.id, to: title)
            }
            return try ReplyStreamer.respond(to: body, conversationID: conversation.id, state: state)
        }
    }

    private func conversation(_ context: ServerContext) throws -> Conversation {
        guard let conversation = state.store.conversation(context.parameters.get("id") ?? "") else {
            throw Refusal.notFound("Conversation not found")
        }
        return conversation
    }

    /// The conversations row as `.returning()` gives it.
    static func row(_ conversation: Conversation) -> JSON {
        guard case .object(var object) = conversation.summary else { return .null }
        object["title"] = conversation.title.isEmpty ? .null : .string(conversation.title)
        object["userId"] = .string(SeedData.userID)
        object["isActive"] = true
        return .object(object)
    }

    static func lastUserText(_ body: JSON) -> String? {
        guard let last = body["messages"]?.arrayValue?.last, last["role"]?.stringValue == "user" else { return nil }
        return last["parts"]?.arrayValue?.compactMap { $0["type"]?.stringValue == "text" ? $0["text"]?.stringValue : nil }
            .joined()
    }
}
