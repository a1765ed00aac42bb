import Hummingbird
import PSCore
import Synchronization

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
        // PATCH and DELETE ([id]/route.ts:50-130) look the row up by id and user alone, not
        // isActive: a deleted conversation is still renamed, and deleted again, 200.
        router.patch("/api/ai_conversations/:id") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            var request = request
            guard let body = try await request.jsonBodyIfValid() else {
                throw Refusal(status: .internalServerError, error: "Failed to update conversation")
            }
            let id = context.parameters.get("id") ?? ""
            // An absent title is left as it is (drizzle skips undefined values).
            let change = { (conversation: inout Conversation) -> Conversation in
                conversation.updatedAt = Timestamp.now()
                if let title = body["title"]?.stringValue { conversation.title = title }
                return conversation
            }
            if let updated = state.store.update(id, change) { return Reply.json(Self.row(updated)) }
            guard let deleted = state.legacyDeleted.update(id, change) else { throw Refusal.notFound("Conversation not found") }
            return Reply.json(Self.row(deleted, isActive: false))
        }
        router.delete("/api/ai_conversations/:id") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            let id = context.parameters.get("id") ?? ""
            if var active = state.store.conversation(id), state.store.remove(id) {
                active.updatedAt = Timestamp.now()
                state.legacyDeleted.keep(active)
            } else if state.legacyDeleted.update(id, { $0.updatedAt = Timestamp.now() }) == nil {
                throw Refusal.notFound("Conversation not found")
            }
            return Reply.json(["success": true])
        }
        // apps/web/src/app/api/ai_conversations/[id]/messages/route.ts:46-155: a conversation the
        // user does not have (or deleted) is 404 {"error":"Conversation not found"} (:57-71) before
        // any paging.
        router.get("/api/ai_conversations/:id/messages") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            let id = try conversation(context).id
            // `Math.min(parseInt(limit || '50'), 200)` then `.limit(limit + 1)` (:74, :112): a
            // limit that is not a number, or below -1, makes the query fail: the catch-all
            // 500 (:157-161).
            if let text = request.query("limit"), !text.isEmpty, (HistoryQuery.parseInt(text) ?? -2) < -1 {
                throw Refusal(status: .internalServerError, error: "Failed to fetch messages")
            }
            return try await history.page(of: id, request: request, context: context)
        }
        // The same file (POST, :167-300): any active conversation of the user (:186-200), then
        // the body (:203; not JSON: the catch-all 500) and its messages (:229-232); an untitled
        // conversation is named after the user message (`slice(0, 50)`: its first 50 UTF-16
        // units, "..." when cut, :285-289).
        router.post("/api/ai_conversations/:id/messages") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            let conversation = try conversation(context)
            var request = request
            let body = try await request.chatBody()
            guard body.hasChatMessages else { throw Refusal.badRequest("messages are required") }
            if conversation.title.isEmpty, let text = Self.lastUserText(body), !text.isEmpty {
                let title = text.utf16.count > 50 ? text.javaScriptPrefix(50) + "..." : text
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
    static func row(_ conversation: Conversation, isActive: Bool = true) -> JSON {
        guard case .object(var object) = conversation.summary else { return .null }
        object["title"] = conversation.title.isEmpty ? .null : .string(conversation.title)
        object["userId"] = .string(SeedData.userID)
        object["isActive"] = .bool(isActive)
        return .object(object)
    }

    static func lastUserText(_ body: JSON) -> String? {
        guard let last = body["messages"]?.arrayValue?.last, last["role"]?.stringValue == "user" else { return nil }
        return last["parts"]?.arrayValue?.compactMap { $0["type"]?.stringValue == "text" ? $0["text"]?.stringValue : nil }
            .joined()
    }
}

/// The legacy Global conversations the user deleted: the real DELETE only sets isActive false
/// ([id]/route.ts:104-115), so the row is still there for PATCH and DELETE, and for nothing else.
final class LegacyDeletedConversations: Sendable {
    private let rows = Mutex<[String: Conversation]>([:])

    func keep(_ conversation: Conversation) { rows.withLock { $0[conversation.id] = conversation } }

    /// Runs `body` on a deleted conversation; nil when there is none.
    func update<T>(_ id: String, _ body: (inout Conversation) -> T) -> T? {
        rows.withLock { all in
            guard all[id] != nil else { return nil }
            return body(&all[id]!)
        }
    }
}
