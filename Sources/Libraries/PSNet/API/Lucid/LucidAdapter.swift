import PSCore

/// Lucid (lucid-agent, an Express app): a stateful backend that keeps users, conversations,
/// messages, facts it learns about its user and summaries of conversations. JSON over `/v1/...`
/// routes (snake_case fields; errors `{"error"}`, a refused field 400 `{"error":"Validation
/// failed","details":[{field,message}]}`), no credential: the user is created (or found again)
/// from an external id at login, kept in the profile, and named by `user_id` (a UUID) in every
/// request. `POST /v1/chat` answers whole (one JSON document, no stream): ps-send writes it as
/// the stream a streaming server would have sent (`streamRecords(fromAnswer:)`).
///
/// The conversation a message goes to when none is named is kept on the client, as the iOS
/// app keeps its current conversation (`CurrentConversation`); when none is kept (or it
/// was deleted), the user's newest conversation on the server (Lucid lists the newest created
/// first); else a new one.
public final class LucidAdapter: APIAdapter, ConversationRenaming, ConversationDeleting {
    public let kind = APIKind.lucid
    public let client: APIClient
    let current: CurrentConversation
    let environment: [String: String]

    /// The largest page asked for (Lucid's own app asks for 50 and 100; the server gives up to 500).
    static let pageSize = 100

    /// The longest message Lucid takes (src/validation/chat.validation.ts:15-18).
    static let longestMessage = 10_000

    public init(client: APIClient, environment: [String: String] = Environment.current) {
        self.client = client
        self.environment = environment
        current = CurrentConversation(profile: client.session.profileName, environment: environment)
        client.errorWording = LucidErrorWording()
        client.probesGenerationOnNotFound = false
    }

    // MARK: Users

    public func login(email: String, password: String) throws -> LoginResult {
        throw ToolError(.usage, "Lucid has no password login: run ps-auth login --api lucid (with --user-name, --user-email, --timezone)")
    }

    /// `POST /v1/users {external_id, name?, email?, timezone?}`: creates the user, or finds the
    /// one this machine and profile made before (same external id). Lucid overwrites the name,
    /// email and timezone of a user it finds again (absent ones with null and UTC), so what this
    /// login does not give is sent as the server has it (`GET /v1/users/{external_id}`).
    public func openLogin(_ account: AccountDetails) throws -> LoginResult {
        let externalID = LucidIdentity.externalID(profile: client.session.profileName)
        var known: JSON?
        if account.name == nil || account.email == nil || account.timezone == nil {
            do {
                known = try client.get("/v1/users/\(URLText.encodeComponent(externalID))")
            } catch let error as ToolError where error.status == .notFound {
                known = nil
            }
        }
        let kept = { (key: String) in known?[key].flatMap { $0.isNull ? nil : $0.stringValue.map(JSON.string) } }
        var body = JSONObject()
        body["external_id"] = .string(externalID)
        body["name"] = account.name.map(JSON.string) ?? kept("name")
        body["email"] = account.email.map(JSON.string) ?? kept("email")
        body["timezone"] = account.timezone.map(JSON.string) ?? kept("timezone")
        let user = try client.post("/v1/users", body: .object(body))
        guard user["id"]?.stringValue?.isEmpty == false else {
            throw ToolError(.serverError, "POST /v1/users: the server's answer names no user id")
        }
        return LoginResult(credentials: nil, user: user)
    }

    /// The user kept in the profile at login; exit 4 when there is none.
    func userID() throws -> String {
        guard let id = client.session.profile?.user?["id"]?.stringValue, !id.isEmpty else {
            throw ToolError(.authenticationNeeded,
                "no Lucid user for profile \(client.session.profileName): run ps-auth login --api lucid")
        }
        return id
    }

    /// Proves the user exists: `GET /v1/users/{external_id}` (404 when there is none; a list of
    /// an unknown user's conversations would be an empty one, not an error).
    public func reach() throws -> CredentialReach {
        let id = try userID()
        let externalID = client.session.profile?.user?["external_id"]?.stringValue
            ?? LucidIdentity.externalID(profile: client.session.profileName)
        let gone = ToolError(.authenticationNeeded, "the Lucid user \(TerminalSafeText.quoted(id)) does not exist on "
            + "\(TerminalSafeText.sanitize(client.session.server)) (any more): run ps-auth login --api lucid")
        do {
            let found = try client.get("/v1/users/\(URLText.encodeComponent(externalID))")
            guard found["id"]?.stringValue == id else { throw gone }
        } catch let error as ToolError where error.status == .notFound {
            throw gone
        }
        var reach = CredentialReach(user: client.session.profile?.user, globalAssistant: true, pageAI: false, drives: nil)
        reach.described = "conversations, facts and summaries of user \(id)"
        return reach
    }

    public func logout() throws -> String? {
        current.clear()
        return "Lucid has no session to end: only this profile's user is forgotten here (logging in again finds the same user)"
    }

    // MARK: Conversations

    public func defaultConversationID(creating new: NewConversation?) throws -> String? {
        let user = try userID()
        if let kept = current.read(owner: user) {
            if try conversation(kept, of: user) != nil { return kept }
            current.clear()
        }
        let newest = try client.get(
            "/v1/conversations/user/\(URLText.encodeComponent(user))", query: [("limit", "1"), ("offset", "0")])
        if let id = newest["conversations"]?.arrayValue?.first?["id"]?.stringValue {
            try current.write(id, owner: user)
            return id
        }
        return try new.flatMap(createConversation)
    }

    public func requireConversation(_ id: String) throws {
        guard try conversation(id, of: try userID()) != nil else {
            throw ToolError(.notFound, "there is no conversation \(TerminalSafeText.quoted(id)) for this Lucid user "
                + CommandHints.unknownConversation)
        }
    }

    /// `GET /v1/conversations/{id}`, nil when there is none for this user. Lucid's ids are
    /// UUIDs: another id is none (the server would refuse it 400).
    private func conversation(_ id: String, of user: String) throws -> JSON? {
        guard LucidIdentity.isUUID(id) else { return nil }
        do {
            let record = try client.get("/v1/conversations/\(URLText.encodeComponent(id))")
            if let owner = record["user_id"]?.stringValue, owner != user { return nil }
            return record
        } catch let error as ToolError where error.status == .notFound {
            return nil
        }
    }

    /// `POST /v1/conversations {user_id, title, user_timezone}` (201); it becomes the current one.
    public func createConversation(_ new: NewConversation) throws -> String? {
        let user = try userID()
        var body = JSONObject()
        body["user_id"] = .string(user)
        body["title"] = new.title.map(JSON.string)
        body["user_timezone"] = environment["TZ"].flatMap { $0.isEmpty || $0.hasPrefix(":") ? nil : JSON.string($0) }
        let created = try client.post("/v1/conversations", body: .object(body))
        guard let id = created["id"]?.stringValue else {
            throw ToolError(.serverError, "POST /v1/conversations: the server's answer names no conversation id")
        }
        try current.write(id, owner: user)
        return id
    }

    /// `GET /v1/conversations/user/{user_id}?limit&offset`, page after page.
    public func listConversations(_ body: (JSON) throws -> Void) throws {
        let path = "/v1/conversations/user/\(URLText.encodeComponent(try userID()))"
        try LucidPages.walk(client, path, key: "conversations", pageSize: Self.pageSize) { try body(LucidRecords.conversation($0)) }
    }

    /// `PATCH /v1/conversations/{id} {title}`.
    public func renameConversation(_ id: String, title: String) throws -> JSON {
        try requireConversation(id)
        let updated = try client.json(client.request(
            "PATCH", "/v1/conversations/\(URLText.encodeComponent(id))", body: ["title": .string(title)]))
        return LucidRecords.conversation(updated)
    }

    /// `DELETE /v1/conversations/{id}` (204); no longer the current one. Lucid's messages and
    /// summaries keep their conversation (no cascade): one that has any is refused with a 500.
    public func deleteConversation(_ id: String) throws {
        let user = try userID()
        try requireConversation(id)
        do {
            _ = try client.json(client.request("DELETE", "/v1/conversations/\(URLText.encodeComponent(id))"))
        } catch let error as ToolError where error.status == .serverError {
            throw ToolError(.serverError, "Lucid did not delete conversation \(TerminalSafeText.quoted(id)): it cannot "
                + "delete a conversation that has messages or summaries (they are not deleted with it); \(error.message)")
        }
        if current.read(owner: user) == id { current.clear() }
    }

    public var listsAgentConversations: Bool { false }

    public func listAgentConversations(agentID: String, _ body: (JSON) throws -> Void) throws {
        throw ToolError(.usage, "Lucid has no Page AI agents")
    }

    // MARK: History

    public var historyPaging: HistoryPaging { .oldestFirstOffset }

    /// `GET /v1/conversations/{id}/messages?limit&offset`, oldest first, as UIMessage records.
    public func historyPage(_ source: HistorySource, query: HistoryQuery) throws -> HistoryPage {
        guard case .global(let id) = source else { throw ToolError(.usage, "Lucid has no Page AI agents") }
        guard query.cursor == nil, query.direction == nil else {
            throw ToolError(.usage, "Lucid pages by position, not by cursor: drop --cursor and --direction")
        }
        let limit = query.limit ?? Self.pageSize
        let page = try client.get(
            "/v1/conversations/\(URLText.encodeComponent(id))/messages",
            query: [("limit", String(limit)), ("offset", String(query.offset ?? 0))])
        guard let messages = page["messages"]?.arrayValue else {
            throw ToolError(.serverError, "the server's history answer has no messages array")
        }
        return HistoryPage(
            messages: messages.map(LucidRecords.message), hasMore: messages.count >= limit, nextCursor: nil, isPaged: true)
    }

    // MARK: Sending

    /// chat.validation.ts:15-18 counts UTF-16 units, as JavaScript does.
    public func checkMessage(_ text: String) throws {
        guard text.utf16.count <= Self.longestMessage else {
            throw ToolError(.usage, "the message is \(text.utf16.count) characters long; Lucid refuses messages over "
                + "\(Self.longestMessage) characters: shorten it or send it in parts")
        }
    }

    /// `POST /v1/chat {conversation_id, user_id, message, model?}`; the conversation becomes
    /// the current one.
    public func sendRequest(_ target: SendTarget, message: JSON, options: SendOptions) throws -> HTTPRequest {
        guard case .global(let id) = target else { throw ToolError(.usage, "Lucid has no Page AI agents (drop --page)") }
        guard options.location == nil else { throw ToolError(.usage, "Lucid has no drives or pages (drop --drive)") }
        guard options.system == nil else { throw ToolError(.usage, "Lucid takes no system prompt (drop --system)") }
        guard options.provider == nil else { throw ToolError(.usage, "Lucid picks its own provider (drop --provider; --model names a model)") }
        let user = try userID()
        let text = (message["parts"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }.joined()
        try checkMessage(text)
        var body = JSONObject()
        body["conversation_id"] = .string(id)
        body["user_id"] = .string(user)
        body["message"] = .string(text)
        body["model"] = options.model.map(JSON.string)
        try current.write(id, owner: user)
        return client.request("POST", "/v1/chat", body: .object(body))
    }

    public var answersWhole: Bool { true }

    public func streamRecords(fromAnswer answer: JSON, target: SendTarget) throws -> WholeAnswer {
        try LucidRecords.chatAnswer(answer)
    }

    public func abort(streamID: String?, conversationID: String?) throws -> AbortOutcome {
        .unsupported("Lucid answers whole and has no way to stop a reply: it is kept on the server when it comes")
    }
}

/// Walks Lucid's `limit`/`offset` lists (`{<key>:[…], count, limit, offset}`): the next page
/// until one comes back shorter than asked.
enum LucidPages {
    static func walk(
        _ client: APIClient, _ path: String, key: String, pageSize: Int, query: [(String, String?)] = [],
        _ body: (JSON) throws -> Void
    ) throws {
        var offset = 0
        while true {
            let page = try client.get(path, query: query + [("limit", String(pageSize)), ("offset", String(offset))])
            guard let items = page[key]?.arrayValue else {
                throw ToolError(.serverError, "GET \(path): the server's answer has no \(key) array")
            }
            try items.forEach(body)
            guard items.count >= pageSize else { return }
            offset += items.count
        }
    }
}
