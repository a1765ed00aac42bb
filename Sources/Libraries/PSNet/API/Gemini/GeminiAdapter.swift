import PSCore

/// The Gemini CLI's mobile API (packages/mobile-api, an Express server wrapping
/// gemini-cli-core): the profile's server is its base URL, ending in `/api/v1`; every request
/// carries a Firebase ID token as `Authorization: Bearer`. The server keeps the conversations
/// in memory (`/conversations`, each `GET /conversations/:id` whole), at most 10 per user,
/// and forgets one after 30 minutes without use; it streams a reply as named SSE events
/// (token, thought, tool-call, tool-result, done, error; GeminiStreamError says what its
/// errors mean) and stops one on `POST /conversations/:id/cancel`. Like the app, the client
/// remembers the conversation last used (`CurrentConversation`).
public final class GeminiAdapter: APIAdapter, ConversationDeleting, SettingsAPI {
    public let kind = APIKind.gemini
    public let client: APIClient
    let lastUsed: CurrentConversation

    public init(client: APIClient, environment: [String: String] = Environment.current) {
        self.client = client
        lastUsed = CurrentConversation(profile: client.session.profileName, environment: environment)
    }

    public func login(email: String, password: String) throws -> LoginResult {
        throw ToolError(.usage,
            "the gemini API has no password login: sign in with Firebase and give the ID token with --with-token")
    }

    /// `GET /settings` proves the token; who it is comes from the token's own claims.
    public func reach() throws -> CredentialReach {
        let settings: JSON
        do {
            settings = try showSettings()
        } catch let error as ToolError where error.status == .notFound {
            throw ToolError(.notFound, error.message + "; the server is the API's base URL, ending in /api/v1")
        }
        var reach = CredentialReach(
            user: client.session.credentials.flatMap { FirebaseIDToken.user($0.token) }, globalAssistant: true,
            pageAI: false, drives: nil)
        let model = settings["model"]?.stringValue.map { " with " + TerminalSafeText.sanitize($0) } ?? ""
        reach.described = "Gemini conversations\(model)"
        return reach
    }

    public func logout() throws -> String? {
        "the Gemini mobile API has no logout: the Firebase ID token stays valid until it expires (an hour after it was issued)"
    }

    /// The conversation last used with this profile while the server still has it, else the
    /// most recent one the server lists, else (with `new`) a new one.
    public func defaultConversationID(creating new: NewConversation?) throws -> String? {
        var listed: [JSON] = []
        try listConversations { listed.append($0) }
        let ids = listed.compactMap { $0["id"]?.stringValue }
        if let last = lastUsed.read(), ids.contains(last) { return last }
        if let newest = ids.first { return newest }
        return try new.flatMap(createConversation)
    }

    public func requireConversation(_ id: String) throws {
        _ = try conversation(id)
    }

    /// `POST /conversations {title?, model?}` → 201 and the conversation's metadata
    /// (src/routes/conversations.ts:26-42); a user who has 10 already is refused 400
    /// (src/sessions/sessionManager.ts:67-75).
    public func createConversation(_ new: NewConversation) throws -> String? {
        var body = JSONObject()
        body["title"] = new.title.flatMap { $0.isEmpty ? nil : JSON.string($0) }
        body["model"] = new.model.map(JSON.string)
        let request = client.request("POST", "/conversations", body: .object(body))
        let response = try client.response(request)
        if response.status == 400, let error = ErrorBody(response.body).error, error.hasPrefix("Maximum sessions") {
            throw ToolError(.failure, "the Gemini server keeps at most 10 conversations per user, and this user has them "
                + "(\(TerminalSafeText.sanitize(error))): delete one with ps-history --delete ID, or send to one with "
                + "--conversation ID")
        }
        let created = try client.json(request, response: response)
        guard let id = created["id"]?.stringValue, !id.isEmpty else {
            throw ToolError(.serverError, "POST /conversations: the server's answer has no conversation id")
        }
        return id
    }

    /// `GET /conversations`: `[{id, title, createdAt, lastMessageAt, messageCount, summary}]`.
    public func listConversations(_ body: (JSON) throws -> Void) throws {
        let answer = try client.get("/conversations")
        guard let all = answer.arrayValue ?? answer["conversations"]?.arrayValue else {
            throw ToolError(.serverError, "GET /conversations: the server's answer is not a list of conversations")
        }
        try all.forEach(body)
    }

    /// `DELETE /conversations/:id` → 204.
    public func deleteConversation(_ id: String) throws {
        do {
            _ = try client.json(client.request("DELETE", "/conversations/\(URLText.encodeComponent(id))"))
        } catch let error as ToolError where error.status == .notFound {
            throw notFound(id)
        }
        lastUsed.forget(id)
    }

    public var listsAgentConversations: Bool { false }

    public func listAgentConversations(agentID: String, _ body: (JSON) throws -> Void) throws {
        throw ToolError(.usage, "the Gemini mobile API has no Page AI agents")
    }

    /// `GET /conversations/:id`: the whole history at once.
    public func historyPage(_ source: HistorySource, query: HistoryQuery) throws -> HistoryPage {
        guard case .global(let id) = source else { throw ToolError(.usage, "the Gemini mobile API has no Page AI agents") }
        let stored = try conversation(id)["messages"]?.arrayValue ?? []
        return HistoryPage(messages: GeminiHistory.messages(stored), hasMore: false, nextCursor: nil, isPaged: false)
    }

    /// `POST /conversations/:id/messages {content}`: answered with the event stream. The
    /// conversation becomes the one a message goes to when none is named.
    /// The largest request body the server reads: express.json({limit: '1mb'}) (src/server.ts:38)
    /// refuses a larger one, 413.
    static let largestBody = 1 << 20

    public func checkMessage(_ text: String) throws {
        let body: JSON = ["content": .string(text)]
        let size = body.serialized().utf8.count
        guard size <= Self.largestBody else {
            throw ToolError(.usage, "the message is \(size) bytes as JSON; the Gemini mobile API refuses a request over "
                + "\(Self.largestBody) bytes (1 MiB): shorten it or send it in parts")
        }
    }

    public func sendRequest(_ target: SendTarget, message: JSON, options: SendOptions) throws -> HTTPRequest {
        guard case .global(let id) = target else { throw ToolError(.usage, "the Gemini mobile API has no Page AI agents") }
        if options.system != nil { throw ToolError(.usage, "the Gemini mobile API takes no system prompt (--system)") }
        if options.provider != nil { throw ToolError(.usage, "the Gemini mobile API has no provider choice (--provider)") }
        if options.location != nil { throw ToolError(.usage, "the Gemini mobile API has no drives or pages (--drive)") }
        let text = message["parts"]?.arrayValue?.compactMap { $0["text"]?.stringValue }.joined(separator: "\n") ?? ""
        try checkMessage(text)
        do {
            try lastUsed.write(id)
        } catch let error as ToolError {
            Diagnostics.warning("the conversation is not remembered as the last one used: \(error.message)")
        }
        return client.request(
            "POST", "/conversations/\(URLText.encodeComponent(id))/messages", body: ["content": .string(text)],
            headers: [("Accept", "text/event-stream")])
    }

    /// `POST /conversations/:id/cancel` → `{cancelled: true}`: the server aborts the turn, and
    /// its stream ends with `done`, the text so far as `fullResponse` (sessionManager.ts:171-230).
    public func abort(streamID: String?, conversationID: String?) throws -> AbortOutcome {
        guard let id = conversationID else { return .notStopped(code: nil, reason: "nothing names the conversation yet") }
        let answer = try client.post("/conversations/\(URLText.encodeComponent(id))/cancel")
        if answer["cancelled"]?.boolValue == true { return .stopped }
        return .notStopped(code: nil, reason: answer["error"]?.stringValue)
    }

    // MARK: Settings

    public func showSettings() throws -> JSON {
        let settings = try client.get("/settings")
        guard settings.objectValue != nil else {
            throw ToolError(.serverError, "GET /settings: the server's answer is not a JSON object")
        }
        return settings
    }

    /// `PUT /settings {key: value, …}`; the answer is the settings after the change. A 400 is
    /// the server refusing a value: a usage error, in the server's words.
    public func changeSettings(_ change: JSONObject) throws -> JSON {
        let request = client.request("PUT", "/settings", body: .object(change))
        let response = try client.response(request)
        if response.status == 400 {
            let error = APIErrors.toolError(response, request: request)
            let words = ErrorBody(response.body).summary.map(TerminalSafeText.sanitize) ?? error.message
            throw ToolError(.usage, "the server refused the settings: \(words)")
        }
        let answer = try client.json(request, response: response)
        return answer.objectValue != nil ? answer : try showSettings()
    }

    // MARK: Helpers

    private func conversation(_ id: String) throws -> JSON {
        do {
            return try client.get("/conversations/\(URLText.encodeComponent(id))")
        } catch let error as ToolError where error.status == .notFound {
            throw notFound(id)
        }
    }

    private func notFound(_ id: String) -> ToolError {
        ToolError(.notFound, "there is no conversation \(TerminalSafeText.quoted(id)) for this user; the Gemini server "
            + "forgets a conversation after 30 minutes without use " + CommandHints.unknownConversation)
    }
}
