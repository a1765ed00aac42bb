import Foundation
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
        // apps/web/src/app/api/ai/global/route.ts (POST): request.json() throwing, or a null
        // body destructured, is the catch-all 500 (:92-93, 118-123); the answer is the row
        // inserted (:117), its id a cuid, its title null when none was given, its type and
        // contextId as given (`type || 'global'`, `contextId || null`: createConversation,
        // global-conversation-repository.ts:335-359; the columns,
        // packages/db/src/schema/conversations.ts:11-102). The twin's own limit: it keeps
        // Global, page ("page" with the agent page) and client conversations only, and a
        // Global one without a contextId.
        router.post("/api/ai/global") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            var request = request
            guard let body = try await request.jsonBodyIfValid(), body != .null else {
                throw Refusal(status: .internalServerError, error: "Failed to create conversation")
            }
            func given(_ key: String) -> String? { body[key]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
            let kind: Conversation.Kind
            switch (given("type") ?? "global", given("contextId")) {
            case ("global", nil): kind = .global
            case ("page", let page?): kind = .agent(pageID: page)
            case ("client", let drive): kind = .client(driveID: drive)
            default: throw Refusal.badRequest("ps-local-server keeps Global, page and client conversations only")
            }
            let conversation = Conversation(
                id: Identifiers.cuid(), title: body["title"]?.stringValue ?? "", kind: kind, createdAt: Timestamp.now())
            state.store.insert(conversation)
            var row = conversation.summary.objectValue ?? JSONObject()
            if conversation.title.isEmpty { row["title"] = .null }
            row["userId"] = .string(SeedData.userID)
            row["agentPageId"] = .null
            row["rev"] = .integer(Int64(conversation.rev))
            row["planPageId"] = .null
            row["isActive"] = .bool(true)
            row["isShared"] = .bool(false)
            return Reply.json(.object(row))
        }
        // apps/web/src/app/api/ai/global/active/route.ts: the most recently used conversation
        // that has messages, or null.
        router.get("/api/ai/global/active") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            return Reply.json(state.store.list(kind: .global).first { !$0.messages.isEmpty }?.summary ?? .null)
        }
        // apps/web/src/app/api/ai/global/[id]/route.ts (GET, PATCH, DELETE): any active
        // conversation of the user's, a page agent's too (getConversationById and
        // updateConversationTitle, global-conversation-repository.ts:400-439, look at no type).
        router.get("/api/ai/global/:id") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            return Reply.json(try usersConversation(context).summary)
        }
        // apps/web/src/app/api/ai/global/[id]/route.ts (PATCH): the title as sent, unchecked;
        // a body that is not JSON is the route's catch-all 500.
        router.patch("/api/ai/global/:id") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            var request = request
            guard let body = try await request.jsonBodyIfValid() else {
                throw Refusal(status: .internalServerError, error: "Failed to update conversation")
            }
            let id = try usersConversation(context).id
            guard let title = body["title"]?.stringValue else { return Reply.json(try usersConversation(context).summary) }
            return Reply.json(state.store.rename(id, to: title)?.summary ?? .null)
        }
        // apps/web/src/app/api/ai/global/[id]/route.ts (DELETE)
        router.delete("/api/ai/global/:id") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            guard state.store.remove(try usersConversation(context).id) else { throw Refusal.notFound("Conversation not found") }
            return Reply.json(["success": true])
        }
        router.get("/api/ai/global/:id/messages") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            return try await history.page(of: context.parameters.get("id") ?? "", request: request, context: context)
        }
        // apps/web/src/app/api/ai/global/[id]/messages/route.ts, handleChatTurn
        // (chat-pipeline/handle-chat-turn.ts:166-226): the browser session header, the session,
        // the body; then the Global turn.
        router.post("/api/ai/global/:id/messages") { request, context in
            try BrowserSessionID.require(request)
            _ = try auth.require(request, scope: .sessionOnly)
            var request = request
            let body = try await request.chatBody()
            return try Self.turn(body, urlConversationID: context.parameters.get("id"), state: state)
        }
        AbortRoute(state: state).register(on: router)
    }

    /// One Global assistant turn (runGlobalChatTurn, chat-pipeline/global-chat-turn.ts): the
    /// messages (:326-329), the images (:368-383), the credit gate (:435-447), then the
    /// conversation (:466-474): the body's conversationId, else the URL's (:299-302). An
    /// unknown cuid-shaped id is made on first use; a deleted one, a page agent's, or an id
    /// of another shape is 404 (resolveOrCreateConversation,
    /// lib/repositories/resolve-or-create-conversation.ts:64-95).
    static func turn(_ body: JSON, urlConversationID: String?, state: ServerState) throws -> Response {
        guard body.hasChatMessages else { throw Refusal.badRequest("messages are required") }
        try ImageGate.checkFileParts(body)
        try ImageGate.checkVision(body, model: body["selectedModel"]?.stringValue)
        try ChatAdmission.checkCredits(state)
        let named = body["conversationId"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let id = named ?? urlConversationID ?? ""
        if state.store.conversation(id) == nil, Identifiers.isCuid(id), !state.store.wasDeleted(id) {
            state.store.insert(Conversation(id: id, title: "", kind: .global, createdAt: Timestamp.now()))
        }
        guard state.store.conversation(id)?.kind == .global else { throw Refusal.notFound("Conversation not found") }
        return try ReplyStreamer.respond(to: body, conversationID: id, state: state, global: true)
    }

    private func usersConversation(_ context: ServerContext) throws -> Conversation {
        guard let conversation = state.store.conversation(context.parameters.get("id") ?? "") else {
            throw Refusal.notFound("Conversation not found")
        }
        return conversation
    }

    /// `?paginated=true&limit=&cursor=` (apps/web/src/app/api/ai/global/route.ts:42-60;
    /// global-conversation-repository.ts listConversationsPaginated:256-330): limit through
    /// parseBoundedIntParam (unreadable: 20; 1...100); the cursor is opaque, the sort key and id
    /// of the last conversation given (encodeCursor, lib/conversations/conversation-recency.ts:
    /// 115-131), and means "older than that"; one that does not decode is ignored: page one
    /// (decodeCursor, :133-157).
    private func paginatedList(_ all: [Conversation], request: Request) throws -> Response {
        let limit = min(100, max(1, request.query("limit").flatMap(AgentConversationRoutes.parseInt) ?? 20))
        var older = all[...]
        if let cursor = request.query("cursor").flatMap(Self.decodeCursor) {
            older = all.drop { ($0.updatedAt, $0.id) >= (cursor.sortKey, cursor.id) }
        }
        let page = older.prefix(limit)
        let hasMore = page.endIndex < older.endIndex
        return Reply.json([
            "conversations": .array(page.map(\.summary)),
            "pagination": [
                "hasMore": .bool(hasMore), "nextCursor": hasMore ? .string(Self.encodeCursor(page.last!)) : .null,
                "limit": .integer(Int64(limit)),
            ],
        ])
    }

    /// base64url of `{"sortKey","id"}`, the list's sort key being when it was last active.
    static func encodeCursor(_ conversation: Conversation) -> String {
        let json: JSON = ["sortKey": .string(Timestamp.iso8601(conversation.updatedAt)), "id": .string(conversation.id)]
        return Identifiers.base64URL(Array(json.serialized().utf8))
    }

    /// The sort key (ms since 1970) and id of a cursor; nil for one that is not base64url JSON
    /// with a string id and a string sortKey that parses as a date.
    static func decodeCursor(_ cursor: String) -> (sortKey: Int64, id: String)? {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let json = try? JSON.parse(bytes: Array(data)),
              let sortKey = json["sortKey"]?.stringValue, let id = json["id"]?.stringValue else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = formatter.date(from: sortKey) ?? ISO8601DateFormatter().date(from: sortKey) else { return nil }
        return (Int64((date.timeIntervalSince1970 * 1000).rounded()), id)
    }
}
