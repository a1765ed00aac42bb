import Hummingbird
import PSCore

/// The lucid dialect: lucid-agent (github.com/mattdarbro/lucid-agent), an Express app over
/// Postgres, copied route by route from its source at the iOS guide's commit 8cdb90b; each
/// route names its file and line there (`src/…`). Where HEAD (718cfb9) differs the guide's
/// commit is served (the client accepts both). Bodies and path ids are checked as its zod
/// schemas check them (src/validation/*.validation.ts), errors are `{"error"}` (LucidErrors).
/// A list for an id nobody has is an empty list, as a SELECT gives. No credential.
struct LucidRoutes {
    let state: ServerState
    var store: LucidStore { state.lucid }

    func register(on router: Router<ServerContext>) {
        // src/index.ts:65-72.
        router.get("/") { _, _ in
            Reply.json(["status": "ok", "service": "lucid-agent", "version": "1.0.0",
                        "timestamp": .string(Timestamp.iso8601(Timestamp.now()))])
        }
        // src/index.ts:74-79.
        router.get("/health") { _, _ in Reply.json(["status": "ok", "timestamp": .string(Timestamp.iso8601(Timestamp.now()))]) }

        // src/routes/users.ts:52-60, createUserSchema (src/validation/user.validation.ts:29-68):
        // always 201, the user created or (same external_id) overwritten.
        router.post("/v1/users") { request, _ in
            var request = request
            var body = try await LucidBody.read(&request)
            let externalID = body.string("external_id", required: true, [
                LucidBody.minLength(1, "external_id is required"),
                LucidBody.maxLength(255, "external_id must be less than 255 characters"),
                ({ $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } && !$0.isEmpty },
                 "external_id can only contain alphanumeric characters, hyphens, and underscores"),
            ])
            let name = body.string("name", [LucidBody.minLength(1, "name is required"),
                                            LucidBody.maxLength(255, "name must be less than 255 characters")])
            let email = body.string("email", [({ Self.isEmail($0) }, "Invalid email address"),
                                              LucidBody.maxLength(255, "email must be less than 255 characters")])
            let timezone = body.string("timezone", [LucidBody.timezone])
            body.object("preferences")
            try body.validate()
            let user = store.createOrUpdate(externalID: externalID!, name: name, email: email, timezone: timezone)
            return Reply.json(LucidJSON.user(user), status: .created)
        }

        // src/routes/users.ts:70-96: by external id (at most 255 characters, userExternalIdSchema,
        // user.validation.ts:109-114); 404 {"error":"User not found"}.
        router.get("/v1/users/:externalId") { _, context in
            let externalID = try Self.externalID(context)
            guard let user = store.user(externalID: externalID) else { throw LucidError.notFound("User") }
            return Reply.json(LucidJSON.user(user))
        }

        // src/routes/users.ts:157-187 → 204; the user's data goes with them.
        router.delete("/v1/users/:externalId") { _, context in
            guard store.deleteUser(externalID: try Self.externalID(context)) else { throw LucidError.notFound("User") }
            return Response(status: .noContent)
        }

        // src/routes/conversations.ts:57-74, createConversationSchema (conversation.validation.ts:10-35);
        // the user's timezone when none is given (conversation.service.ts:34-58).
        router.post("/v1/conversations") { request, _ in
            var request = request
            var body = try await LucidBody.read(&request)
            let userID = body.uuid("user_id", "user_id must be a valid UUID")
            let title = body.string("title", Self.titleChecks)
            let timezone = body.string("user_timezone", [LucidBody.timezone])
            try body.validate()
            guard let user = store.user(userID!) else { throw LucidError.notFound("User") }
            guard let conversation = store.createConversation(userID: user.id, title: title, timezone: timezone ?? user.timezone)
            else { throw LucidError.notFound("User") }
            return Reply.json(LucidJSON.conversation(conversation), status: .created)
        }

        // src/routes/conversations.ts:123-157: limit/offset parsed, not checked; newest created
        // first; a user nobody has gets an empty list (200).
        router.get("/v1/conversations/user/:userId") { request, context in
            let userID = try LucidError.requireUUID(
                context.parameters.get("userId") ?? "", field: "user_id", "User ID must be a valid UUID")
            let limit = request.query("limit").flatMap { $0.isEmpty ? nil : LucidQuery.parseInt($0) } ?? 50
            let offset = request.query("offset").flatMap { $0.isEmpty ? nil : LucidQuery.parseInt($0) } ?? 0
            // Postgres refuses a negative LIMIT or OFFSET, and NaN: the route's 500.
            guard limit >= 0, offset >= 0, request.query("limit").map({ $0.isEmpty || LucidQuery.parseInt($0) != nil }) ?? true,
                  request.query("offset").map({ $0.isEmpty || LucidQuery.parseInt($0) != nil }) ?? true
            else { throw LucidError.failed("Failed to fetch conversations") }
            let page = store.conversations(ofUser: userID, limit: limit, offset: offset)
            return Reply.json([
                "conversations": .array(page.map(LucidJSON.conversation)), "count": .integer(Int64(page.count)),
                "limit": .integer(Int64(limit)), "offset": .integer(Int64(offset)),
            ])
        }

        // src/routes/conversations.ts:84-109.
        router.get("/v1/conversations/:id") { _, context in
            let id = try Self.conversationID(context)
            guard let conversation = store.conversation(id) else { throw LucidError.notFound("Conversation") }
            return Reply.json(LucidJSON.conversation(conversation))
        }

        // src/routes/conversations.ts:171-200, updateConversationSchema (conversation.validation.ts:40-61):
        // title and user_timezone optional; updated_at set with them, and with neither the
        // conversation is returned untouched (conversation.service.ts:160-212).
        router.patch("/v1/conversations/:id") { request, context in
            var request = request
            var body = try await LucidBody.read(&request)
            let title = body.string("title", Self.titleChecks)
            let timezone = body.string("user_timezone", [LucidBody.timezone])
            try body.validate()
            let id = try Self.conversationID(context)
            let updated = store.update(id) { conversation in
                if let title { conversation.title = title }
                if let timezone { conversation.userTimezone = timezone }
                if title != nil || timezone != nil { conversation.updatedAt = max(Timestamp.now(), conversation.updatedAt) }
                return conversation
            }
            guard let updated else { throw LucidError.notFound("Conversation") }
            return Reply.json(LucidJSON.conversation(updated))
        }

        // src/routes/conversations.ts:210-235 → 204; a conversation with messages or summaries
        // is kept by their foreign keys (no cascade): the route's 500.
        router.delete("/v1/conversations/:id") { _, context in
            switch store.deleteConversation(try Self.conversationID(context)) {
            case .deleted: return Response(status: .noContent)
            case .notFound: throw LucidError.notFound("Conversation")
            case .referenced: throw LucidError.failed("Failed to delete conversation")
            }
        }

        // src/routes/conversations.ts:251-283 and src/routes/messages.ts:136-174, the same answer.
        router.get("/v1/conversations/:id/messages") { request, context in
            try await messages(request, id: try Self.conversationID(context), context: context)
        }
        router.get("/v1/messages/conversations/:id/messages") { request, context in
            let id = try LucidError.requireUUID(
                context.parameters.get("id") ?? "", field: "conversation_id", "Conversation ID must be a valid UUID")
            return try await messages(request, id: id, context: context)
        }

        // src/routes/chat.ts:48-103, chatCompletionSchema (src/validation/chat.validation.ts:6-44) → 200
        // {user_message, assistant_message, response, conversation_id}, answered whole.
        router.post("/v1/chat") { request, context in
            var request = request
            var body = try await LucidBody.read(&request)
            let conversationID = body.uuid("conversation_id", "conversation_id must be a valid UUID")
            let userID = body.uuid("user_id", "user_id must be a valid UUID")
            let message = body.string("message", required: true, [
                LucidBody.minLength(1, "message cannot be empty"),
                LucidBody.maxLength(LucidLimits.messageLength, "message must be less than 10000 characters"),
            ])
            _ = body.string("model")
            _ = body.number("max_tokens", integer: true, min: 1, max: 4096)
            _ = body.number("temperature", min: 0, max: 1)
            _ = body.string("system_prompt", [LucidBody.maxLength(5000, "String must contain at most 5000 character(s)")])
            try body.validate()
            return try await chat(conversationID: conversationID!, userID: userID!, message: message!, context: context)
        }

        LucidMemoryRoutes(state: state).register(on: router)
        LucidTestRoutes(state: state).register(on: router)
    }

    static let titleChecks = [LucidBody.minLength(1, "title cannot be empty"),
                              LucidBody.maxLength(255, "title must be less than 255 characters")]

    static func externalID(_ context: ServerContext) throws -> String {
        let id = context.parameters.get("externalId") ?? ""
        guard id.utf16.count <= 255 else {
            throw LucidError.validation([("external_id", "external_id must be less than 255 characters")])
        }
        return id
    }

    /// conversationIdSchema (conversation.validation.ts:66-68).
    static func conversationID(_ context: ServerContext) throws -> String {
        try LucidError.requireUUID(context.parameters.get("id") ?? "", field: "id", "Conversation ID must be a valid UUID")
    }

    /// Roughly zod's `.email()`: something@domain.tld, no spaces.
    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasSuffix(".")
            && !text.contains(where: \.isWhitespace)
    }

    /// A page of messages (messageListQuerySchema, message.validation.ts:55-73: limit 1-500,
    /// default 50; role user, assistant or system); the `dropHistory` fault closes the connection.
    private func messages(_ request: Request, id: String, context: ServerContext) async throws -> Response {
        try await HistoryResponder(state: state).dropIfArmed(context)
        var query = LucidQuery(request)
        let limit = query.limit(default: 50, max: LucidLimits.listPage)
        let offset = query.offset()
        let role = request.query("role")
        if let role, !["user", "assistant", "system"].contains(role) {
            query.refuse("role", "Invalid enum value. Expected 'user' | 'assistant' | 'system', received '\(role)'")
        }
        try query.validate()
        let page = store.messages(of: id, role: role, limit: limit, offset: offset)
        return Reply.json([
            "messages": .array(page.map { LucidJSON.message($0, conversationID: id) }),
            "count": .integer(Int64(page.count)), "limit": .integer(Int64(limit)), "offset": .integer(Int64(offset)),
        ])
    }

    /// chat.service.ts:44-180: the user's message is stored first (message.service.ts:54-63: 404
    /// "…Conversation not found" when there is no such conversation), then the reply
    /// (ReplyScript's text, so keywords work) after the pace and an armed slow fault's pause; a
    /// drop fault closes the connection unanswered (the turn is kept). A user that does not
    /// exist breaks the messages' foreign key: 500.
    private func chat(conversationID: String, userID: String, message: String, context: ServerContext) async throws -> Response {
        guard store.conversation(conversationID) != nil else {
            throw LucidError.error(.notFound, "Chat completion failed: Failed to create message: Conversation not found")
        }
        guard store.user(userID) != nil else {
            throw LucidError.error(.internalServerError, "Chat completion failed", details:
                "Chat completion failed: Failed to create message: insert or update on table \"messages\" violates foreign key constraint \"messages_user_id_fkey\"")
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
        guard let added = store.append([("user", message), ("assistant", reply)], to: conversationID, userID: userID), added.count == 2 else {
            throw LucidError.error(.notFound, "Chat completion failed: Failed to create message: Conversation not found")
        }
        if drop != nil, drop?.clean == false {
            try? await context.channel.close()
            throw ConnectionDropped()
        }
        return Reply.json([
            "user_message": LucidJSON.message(added[0], conversationID: conversationID),
            "assistant_message": LucidJSON.message(added[1], conversationID: conversationID),
            "response": .string(reply), "conversation_id": .string(conversationID),
        ])
    }
}

/// Lucid's limits (src/validation/*.validation.ts at 8cdb90b).
enum LucidLimits {
    /// chat.validation.ts:15-18: `message` at most 10,000 characters.
    static let messageLength = 10_000
    /// The list pages (messages, facts, summaries): `limit` 1-500 (message.validation.ts:56-62).
    static let listPage = 500
    /// Fact search's `limit` 1-100 (fact.validation.ts:156-162); extraction's `limit` 1-100
    /// (fact.validation.ts:200-206); a summary's `message_count` 1-100 (summary.validation.ts:56-61).
    static let searchResults = 100, extractMessages = 100, summaryMessages = 100
}
