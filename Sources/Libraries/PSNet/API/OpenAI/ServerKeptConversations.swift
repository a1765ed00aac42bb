import PSCore

/// PageSpace's OpenAI-compatible API (`/api/v1`, MCP keys only) keeps the conversations: each
/// AI_CHAT page is a model `ps-agent://<pageId>`; `POST /conversations {title, drive_id}` makes a
/// conversation (in a drive the key reaches, see `ConversationDrive`), and a send that names it (`conversation_id`) is kept there. The server then
/// loads the conversation's history itself and takes only the newest message from the request
/// (apps/web/src/app/api/v1/chat/completions/route.ts: `[...dbMessages, userMessage]`), so
/// only that message is sent. `GET /conversations` (limit/offset, most recently updated
/// first) lists them, `GET /conversations/{id}` shows one with OpenAI-style messages (see
/// `ChatTranscript`), `DELETE /conversations/{id}` deletes it.
///
/// The server has no current conversation: the last one a message went to is remembered in
/// `CurrentConversation` (the profile's `current` file), else the newest the server lists is used.
final class ServerKeptConversations: ConversationKeeping {
    func seedConversation(_ id: String, with messages: [JSON]) throws {
        throw ToolError(.usage, "PageSpace keeps this API's conversations on the server and takes only the new message: "
            + "--history cannot start one")
    }

    let client: APIClient
    let current: CurrentConversation
    /// The last conversation fetched: asking whether one exists and then reading it is one request.
    private var fetched: (id: String, conversation: JSON)?

    static let agentModelPrefix = "ps-agent://"
    static let pageSize = 100

    init(client: APIClient, current: CurrentConversation) {
        self.client = client
        self.current = current
    }

    func reachDescription(models: [String]) -> String {
        let agents = models.isEmpty ? "no agent listed" : models.prefix(8).joined(separator: ", ")
            + (models.count > 8 ? " and \(models.count - 8) more" : "")
        return "PageSpace agents as models (\(agents)); conversations kept by the server"
    }

    var logoutNote: String { "an MCP key stays valid on the server until it is revoked in PageSpace's settings" }

    /// The remembered conversation while the server still has it, else the newest listed,
    /// else a new one.
    func defaultConversationID(creating new: NewConversation?) throws -> String? {
        if let id = current.read(), try conversation(id) != nil { return id }
        let newest = try client.get("/conversations", query: [("limit", "1"), ("offset", "0")])
        if let id = newest["data"]?.arrayValue?.first?["id"]?.stringValue { return id }
        return try new.flatMap { try createConversation($0, agentPageID: nil) }
    }

    func requireConversation(_ id: String) throws {
        guard try conversation(id) != nil else { throw Self.noSuchConversation(id) }
    }

    /// `POST /conversations {title, drive_id}` → 201 `{id, object:"conversation", …}`.
    func createConversation(_ new: NewConversation, agentPageID: String?) throws -> String? {
        var body = JSONObject()
        body["title"] = new.title.map(JSON.string)
        body["drive_id"] = try ConversationDrive(client: client).drive(forAgent: agentPageID).map(JSON.string)
        let created = try client.post("/conversations", body: .object(body))
        guard let id = created["id"]?.stringValue, !id.isEmpty else {
            throw ToolError(.serverError, "POST \(URLText.path(of: client.url("/conversations"))): the answer names no conversation id")
        }
        return id
    }

    func deleteConversation(_ id: String) throws {
        do {
            _ = try client.json(client.request("DELETE", "/conversations/\(URLText.encodeComponent(id))"))
        } catch let error as ToolError where error.status == .notFound {
            throw Self.noSuchConversation(id)
        } catch let error as ToolError where error.status == .forbidden {
            throw Self.outOfScope(id)
        }
        current.forget(id)
    }

    /// Every conversation, most recently updated first, `limit`/`offset` pages of 100; each
    /// record as the server gives it, with `createdAt` (ISO 8601) added from `created_at`.
    func listConversations(_ body: (JSON) throws -> Void) throws {
        var offset = 0
        while true {
            let page = try client.get("/conversations", query: [("limit", String(Self.pageSize)), ("offset", String(offset))])
            let records = page["data"]?.arrayValue ?? []
            for record in records {
                guard case .object(var object) = record else { continue }
                if let seconds = object["created_at"]?.intValue {
                    object["createdAt"] = .string(LocalConversations.iso8601(milliseconds: Int(seconds) * 1000))
                }
                try body(.object(object))
            }
            guard records.count == Self.pageSize else { return }
            offset += records.count
        }
    }

    func messages(_ source: HistorySource) throws -> [JSON] {
        let id: String
        switch source {
        case .global(let conversation), .agent(_, let conversation?): id = conversation
        case .agent:
            throw ToolError(.usage, "PageSpace's /api/v1 does not say which agent a conversation talks to: "
                + "name the conversation with --conversation (ps-history --list shows them)")
        }
        guard let conversation = try conversation(id) else { throw Self.noSuchConversation(id) }
        return ChatTranscript.uiMessages(conversation["messages"]?.arrayValue ?? [])
    }

    func agentModel(pageID: String) throws -> String { Self.agentModelPrefix + pageID }

    /// Only the new message and the conversation's id; the conversation becomes the current one.
    /// A system prompt would be dropped by the server (the agent's own is used in a kept
    /// conversation), so it is refused rather than ignored.
    func sendFields(conversationID: String, message: JSON, system: String?, tools: ToolOffer?) throws -> JSONObject {
        if system != nil {
            throw ToolError(.usage, "PageSpace's /api/v1 answers with the agent's own system prompt in a kept conversation: "
                + "drop --system (edit the agent's prompt in PageSpace instead)")
        }
        let text = (message["parts"]?.arrayValue ?? [])
            .compactMap { $0["type"]?.stringValue == "text" ? $0["text"]?.stringValue : nil }.joined()
        var sent = JSONObject()
        sent["id"] = message["id"]
        sent["role"] = "user"
        sent["content"] = .string(text)
        var fields = JSONObject()
        fields["messages"] = [.object(sent)]
        fields["conversation_id"] = .string(conversationID)
        if let tools {
            // The route takes the tool results only in the request's messages, and loads the
            // stored history only without client_manages_history, taking then just the last
            // message (route.ts:419-430): so the client sends the whole conversation, as read
            // once before the first step (the server stores what the steps add), and the
            // server back-fills the results into its stored calls (route.ts:432-473).
            let history = try messages(.global(conversationID: conversationID))
            let reply = tools.reply.map { [$0] } ?? []
            fields["messages"] = .array(ChatMessages.make(system: nil, history: history + [message] + reply))
            fields["client_manages_history"] = true
            fields["tools"] = .array(tools.definitions)
        }
        try current.write(conversationID)
        return fields
    }

    var keepsTurns: Bool { false }

    func keepTurn(conversationID: String, message: JSON, reply: JSON?) throws {}

    /// `GET /conversations/{id}`, nil for a 404 (unknown or deleted).
    private func conversation(_ id: String) throws -> JSON? {
        if let fetched, fetched.id == id { return fetched.conversation }
        do {
            let conversation = try client.get("/conversations/\(URLText.encodeComponent(id))")
            fetched = (id, conversation)
            return conversation
        } catch let error as ToolError where error.status == .notFound {
            return nil
        } catch let error as ToolError where error.status == .forbidden {
            throw Self.outOfScope(id)
        }
    }

    /// A 403 `Conversation not accessible with this token` ([id]/route.ts:31-36, 75-80): the
    /// key is scoped to drives and the conversation is in none of them (one made with no drive,
    /// by an older ps-send or another client, or with another key).
    static func outOfScope(_ id: String) -> ToolError {
        ToolError(.forbidden, "conversation \(TerminalSafeText.quoted(id)) is outside this key's drives "
            + "(a drive-scoped MCP key reaches only the conversations in its drives): "
            + "ps-send --new-conversation starts one in the key's drive, ps-history --list shows those it reaches; "
            + "to read this one use a key for its drive, or one not scoped to drives")
    }

    static func noSuchConversation(_ id: String) -> ToolError {
        ToolError(.notFound, "there is no conversation \(TerminalSafeText.quoted(id)) on the server for this key "
            + CommandHints.unknownConversation)
    }
}
