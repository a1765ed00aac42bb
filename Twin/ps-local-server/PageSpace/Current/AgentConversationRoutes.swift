import Hummingbird
import PSCore

/// The current server's `/api/v1/conversations`: the caller's conversations (every kind:
/// Global, page and client threads) in the OpenAI-style shape, MCP keys only.
struct AgentConversationRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        let auth = state.authenticator

        // Follows apps/web/src/app/api/v1/conversations/route.ts:20-62 (POST, with
        // buildCreateConversationPayload of lib/ai/openai-api/v1-conversations.ts:64-100: a
        // scoped key may name only one of its drives)
        router.post("/api/v1/conversations") { request, _ in
            let allowed = Authenticator.allowedDrives(try auth.require(request, scope: .mcpOnly))
            var request = request
            guard let body = try await request.jsonBodyIfValid() else { throw Refusal.badRequest("Invalid JSON body") }
            guard body.objectValue != nil else { throw Refusal.badRequest("request body must be a JSON object") }
            var title = ""
            if let value = body["title"] {
                guard let text = value.stringValue else { throw Refusal.badRequest("title must be a string") }
                title = String(text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(255))
            }
            var driveID: String?
            if let value = body["drive_id"] {
                guard let text = value.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
                    throw Refusal.badRequest("drive_id must be a non-empty string")
                }
                guard allowed.isEmpty || allowed.contains(text) else {
                    throw Refusal(status: .forbidden, error: "MCP token does not have access to the specified drive")
                }
                driveID = text
            }
            let conversation = Conversation(
                id: Identifiers.cuid(), title: title, kind: .client(driveID: driveID), createdAt: Timestamp.now())
            state.store.insert(conversation)
            return Reply.json(AgentConversationJSON.header(conversation), status: .created)
        }

        // Follows apps/web/src/app/api/v1/conversations/route.ts:64-110 (GET, with
        // buildConversationListQuery): a scoped key lists only its drives' conversations
        // (75-86), and naming another drive is a 403.
        router.get("/api/v1/conversations") { request, _ in
            let allowed = Authenticator.allowedDrives(try auth.require(request, scope: .mcpOnly))
            let limit = request.query("limit").map(Self.parseInt) ?? 20
            let offset = request.query("offset").map(Self.parseInt) ?? 0
            guard let limit, (1...100).contains(limit) else { throw Refusal.badRequest("limit must be between 1 and 100") }
            guard let offset, offset >= 0 else { throw Refusal.badRequest("offset must be >= 0") }
            let driveID = request.query("drive_id")
            if let driveID, !allowed.isEmpty, !allowed.contains(driveID) {
                throw Refusal(status: .forbidden, error: "Drive not accessible with this token")
            }
            let all = state.store.list { conversation in
                let context = conversation.kind.contextID
                if let driveID { return context == driveID }
                return allowed.isEmpty || context.map(allowed.contains) == true
            }
            let page = all.dropFirst(min(offset, all.count)).prefix(limit)
            return Reply.json(["object": "list", "data": .array(page.map(AgentConversationJSON.header))])
        }

        // Follows apps/web/src/app/api/v1/conversations/[id]/route.ts:19-61 (GET; drive scope 31-36)
        router.get("/api/v1/conversations/:id") { request, context in
            let credential = try auth.require(request, scope: .mcpOnly)
            let conversation = try found(context, reachableWith: credential)
            return Reply.json(AgentConversationJSON.detail(conversation))
        }

        // Follows apps/web/src/app/api/v1/conversations/[id]/route.ts:63-91 (DELETE; drive scope 75-80)
        router.delete("/api/v1/conversations/:id") { request, context in
            let credential = try auth.require(request, scope: .mcpOnly)
            let conversation = try found(context, reachableWith: credential)
            _ = state.store.remove(conversation.id)
            return Reply.json(["id": .string(conversation.id), "deleted": true])
        }
    }

    /// validateConversationAccess: a missing (or deleted) conversation is a 404 (every
    /// conversation here is the one user's, so its 403 never happens). Then the key's drive
    /// scope ([id]/route.ts:31-36, 75-80): a scoped key reaches only a conversation whose
    /// context is one of its drives, never one with no drive.
    private func found(_ context: ServerContext, reachableWith credential: Authenticator.Credential) throws -> Conversation {
        guard let conversation = state.store.conversation(context.parameters.get("id") ?? "") else {
            throw Refusal.notFound("Conversation not found")
        }
        let allowed = Authenticator.allowedDrives(credential)
        if !allowed.isEmpty {
            guard let drive = conversation.kind.contextID, allowed.contains(drive) else {
                throw Refusal(status: .forbidden, error: "Conversation not accessible with this token")
            }
        }
        return conversation
    }

    /// JavaScript's parseInt: leading blanks, a sign, the digits that follow (the rest is
    /// ignored); nil (NaN) when there are no digits.
    static func parseInt(_ text: String) -> Int? {
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        var sign = 1
        if let first = rest.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        guard digits.count <= 18, let value = Int(digits) else { return sign * Int.max }
        return sign * value
    }
}
