import Hummingbird
import PSCore

/// The lucid dialect: Lucid's users, conversations, messages and chat. Lucid's source is not
/// public; every route follows the Lucid iOS integration guide (its routes, bodies, answers
/// and statuses). Where the guide is silent, what Lucid's stack implies (a Python FastAPI app
/// with pydantic models): `{"detail":"… not found"}` 404s, 422 validation errors in pydantic v2's
/// shape (LucidErrors.swift), a 200 for an existing user, `count` = the items in the page,
/// lists of conversations most recently updated first, messages oldest first. No credential.
struct LucidRoutes {
    let state: ServerState
    var store: LucidStore { state.lucid }

    /// The largest page any list gives.
    static let maxLimit = 1000

    func register(on router: Router<ServerContext>) {
        // Guide: GET /health.
        router.get("/health") { _, _ in Reply.json(["status": "healthy", "service": "lucid"]) }

        // Guide: POST /v1/users, create or get by external_id: 201 when created; an existing
        // user (the guide is silent) 200, as a create-or-get endpoint answers.
        router.post("/v1/users") { request, _ in
            var request = request
            var body = try await LucidBody.read(&request)
            let externalID = body.string("external_id", required: true, minLength: 1)
            let name = body.string("name"), email = body.string("email"), timezone = body.string("timezone")
            try body.validate()
            let (user, created) = store.createOrGet(externalID: externalID!, name: name, email: email, timezone: timezone)
            return Reply.json(LucidJSON.user(user), status: created ? .created : .ok)
        }

        // Guide: POST /v1/conversations {user_id, title, user_timezone} → 201.
        router.post("/v1/conversations") { request, _ in
            var request = request
            var body = try await LucidBody.read(&request)
            let userID = body.string("user_id", required: true)
            let title = body.string("title"), timezone = body.string("user_timezone")
            try body.validate()
            guard let conversation = store.createConversation(userID: userID!, title: title, timezone: timezone) else {
                throw LucidError.notFound("User")
            }
            return Reply.json(LucidJSON.conversation(conversation), status: .created)
        }

        // Guide: GET /v1/conversations/user/{user_id}?limit=50&offset=0 (404 for an unknown user).
        router.get("/v1/conversations/user/:userId") { request, context in
            var query = LucidQuery(request)
            let limit = query.int("limit", default: 50, range: 1...Self.maxLimit)
            let offset = query.int("offset", default: 0, range: 0...Int.max)
            try query.validate()
            let userID = context.parameters.get("userId") ?? ""
            guard store.user(userID) != nil else { throw LucidError.notFound("User") }
            let page = store.conversations(ofUser: userID, limit: limit, offset: offset)
            return Reply.json([
                "conversations": .array(page.map(LucidJSON.conversation)), "count": .integer(Int64(page.count)),
                "limit": .integer(Int64(limit)), "offset": .integer(Int64(offset)),
            ])
        }

        // Guide: GET /v1/conversations/{conversation_id}.
        router.get("/v1/conversations/:id") { _, context in
            guard let conversation = store.conversation(context.parameters.get("id") ?? "") else {
                throw LucidError.notFound("Conversation")
            }
            return Reply.json(LucidJSON.conversation(conversation))
        }

        // Guide: PATCH /v1/conversations/{conversation_id} {title} → the updated conversation.
        router.patch("/v1/conversations/:id") { request, context in
            var request = request
            var body = try await LucidBody.read(&request)
            let title = body.string("title", required: true)
            try body.validate()
            let updated = store.update(context.parameters.get("id") ?? "") { conversation in
                conversation.title = title
                conversation.updatedAt = max(Timestamp.now(), conversation.updatedAt)
                return conversation
            }
            guard let updated else { throw LucidError.notFound("Conversation") }
            return Reply.json(LucidJSON.conversation(updated))
        }

        // Guide: DELETE /v1/conversations/{conversation_id} → 204, no content.
        router.delete("/v1/conversations/:id") { _, context in
            guard store.deleteConversation(context.parameters.get("id") ?? "") else { throw LucidError.notFound("Conversation") }
            return Response(status: .noContent)
        }

        // Guide: GET /v1/conversations/{id}/messages?limit=100&offset=0, oldest first; and the
        // older route /v1/messages/conversations/{id}/messages, the same answer.
        router.get("/v1/conversations/:id/messages") { request, context in
            try await messages(request, id: context.parameters.get("id") ?? "", context: context)
        }
        router.get("/v1/messages/conversations/:id/messages") { request, context in
            try await messages(request, id: context.parameters.get("id") ?? "", context: context)
        }

        // Guide: POST /v1/chat {conversation_id, user_id, message, model?, temperature?} → 200
        // {user_message, assistant_message, response, conversation_id}, answered whole.
        router.post("/v1/chat") { request, context in
            var request = request
            var body = try await LucidBody.read(&request)
            let conversationID = body.string("conversation_id", required: true)
            let userID = body.string("user_id", required: true)
            let message = body.string("message", required: true, minLength: 1)
            _ = body.string("model")
            _ = body.double("temperature", default: 0.7, range: 0...2)
            try body.validate()
            return try await chat(conversationID: conversationID!, userID: userID!, message: message!, context: context)
        }

        LucidMemoryRoutes(state: state).register(on: router)
        LucidTestRoutes(state: state).register(on: router)
    }

    /// A page of messages; the `dropHistory` fault closes the connection instead.
    private func messages(_ request: Request, id: String, context: ServerContext) async throws -> Response {
        try await HistoryResponder(state: state).dropIfArmed(context)
        var query = LucidQuery(request)
        let limit = query.int("limit", default: 100, range: 1...Self.maxLimit)
        let offset = query.int("offset", default: 0, range: 0...Int.max)
        try query.validate()
        guard let conversation = store.conversation(id),
              let page = store.messages(of: id, limit: limit, offset: offset) else { throw LucidError.notFound("Conversation") }
        return Reply.json([
            "messages": .array(page.map { LucidJSON.message($0, in: conversation) }), "count": .integer(Int64(page.count)),
            "limit": .integer(Int64(limit)), "offset": .integer(Int64(offset)),
        ])
    }

    /// Stores the user's message and the reply (ReplyScript's text, so keywords work), then
    /// answers, after the pace and an armed slow fault's pause; a drop fault closes the
    /// connection unanswered (the turn is kept, as a server that did the work keeps it).
    private func chat(conversationID: String, userID: String, message: String, context: ServerContext) async throws -> Response {
        guard store.user(userID) != nil else { throw LucidError.notFound("User") }
        guard let conversation = store.conversation(conversationID), conversation.userID == userID else {
            throw LucidError.notFound("Conversation")
        }
        let segments = ReplyScript.reply(to: message, callID: Identifiers.random(prefix: "call_", bytes: 8))
        let reply = segments.compactMap { segment -> String? in
            if case .text(let text) = segment { return text }
            return nil
        }.joined(separator: "\n\n")
        let slow = state.faults.takeSlow()
        let drop = state.faults.takeDrop()
        let wait = state.paceMs + (slow?.pauseMs ?? 0)
        if wait > 0 { try? await Task.sleep(for: .milliseconds(wait)) }
        guard let added = store.append([("user", message), ("assistant", reply)], to: conversationID), added.count == 2,
              let updated = store.conversation(conversationID) else {
            throw LucidError.notFound("Conversation")
        }
        if drop != nil, drop?.clean == false {
            try? await context.channel.close()
            throw ConnectionDropped()
        }
        return Reply.json([
            "user_message": LucidJSON.message(added[0], in: updated),
            "assistant_message": LucidJSON.message(added[1], in: updated),
            "response": .string(reply), "conversation_id": .string(conversationID),
        ])
    }
}
