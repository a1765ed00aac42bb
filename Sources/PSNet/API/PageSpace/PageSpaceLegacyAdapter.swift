import PSCore

/// PageSpace's API of late 2025: password login returning a JWT, a CSRF token and a
/// device token; `X-CSRF-Token` on every POST/PATCH/DELETE; `/api/ai_conversations/*`; no
/// `/api/auth/me` (the user comes from the login answer) and no abort.
public final class PageSpaceLegacyAdapter: APIAdapter {
    public let kind = APIKind.pagespaceLegacy
    public let client: APIClient

    public init(client: APIClient) {
        self.client = client
        if let csrf = client.session.credentials?.csrfToken { client.mutationHeaders = [("X-CSRF-Token", csrf)] }
    }

    public func login(email: String, password: String) throws -> LoginResult {
        var request = client.request("POST", "/api/auth/login", body: ["email": .string(email), "password": .string(password)])
        request.headers.removeAll { $0.name == "Authorization" || $0.name == "X-CSRF-Token" }
        let response = try client.response(request)
        if response.status == 401 {
            let reason = ErrorBody(response.body).summary ?? "wrong email or password"
            throw ToolError(.authenticationNeeded, "login refused: \(reason)")
        }
        guard response.head.isSuccess else { throw APIErrors.toolError(response, request: request) }
        guard let json = try? JSON.parse(bytes: response.body), let token = json["token"]?.stringValue, !token.isEmpty else {
            throw ToolError(.serverError, "the server's login answer has no token")
        }
        return LoginResult(
            credentials: Credentials(token: token, csrfToken: json["csrfToken"]?.stringValue,
                                     deviceToken: json["deviceToken"]?.stringValue),
            user: json["user"])
    }

    /// The stored user, after proving the token still works (the API has no "who am I").
    public func reach() throws -> CredentialReach {
        _ = try client.get("/api/ai_conversations/global")
        let drives = try client.get("/api/drives")
        return CredentialReach(
            user: client.session.profile?.user, globalAssistant: true, pageAI: true,
            drives: drives.arrayValue ?? drives["drives"]?.arrayValue)
    }

    public func logout() throws -> String? {
        let request = client.request("POST", "/api/auth/logout", body: [:])
        let response = try client.response(request)
        // An old server without a logout route: the token is forgotten locally all the same.
        guard response.head.isSuccess || response.status == 404 || response.status == 405 else {
            throw APIErrors.toolError(response, request: request)
        }
        return nil
    }

    public func defaultConversationID(creating new: NewConversation?) throws -> String? {
        guard let id = try client.get("/api/ai_conversations/global").conversationID else {
            throw ToolError(.serverError, "the server's global conversation has no id")
        }
        return id
    }

    public func createConversation(_ new: NewConversation) throws -> String? { nil }

    public func listConversations(_ body: (JSON) throws -> Void) throws {
        let global = try client.get("/api/ai_conversations/global")
        guard global.objectValue != nil else { return }
        var record = global.objectValue!
        if record["title"] == nil { record["title"] = "Global" }
        try body(.object(record))
    }

    public var listsAgentConversations: Bool { false }

    public func listAgentConversations(agentID: String, _ body: (JSON) throws -> Void) throws {
        throw ToolError(.usage, "the pagespace-legacy API cannot list an agent's conversations; name one with --conversation")
    }

    public func historyPage(_ source: HistorySource, query: HistoryQuery) throws -> HistoryPage {
        switch source {
        case .global(let id):
            return try .parse(client.get(
                "/api/ai_conversations/\(URLText.encodeComponent(id))/messages",
                query: [("limit", query.limit.map(String.init)), ("cursor", query.cursor),
                        ("direction", query.direction?.rawValue)]))
        case .agent(let page, let conversation):
            return try .parse(client.get("/api/ai/chat/messages", query: [("pageId", page), ("conversationId", conversation)]))
        }
    }

    public func sendRequest(_ target: SendTarget, message: JSON, options: SendOptions) throws -> HTTPRequest {
        let accept: [(name: String, value: String)] = [("Accept", "text/event-stream")]
        switch target {
        case .global(let id):
            return client.request("POST", "/api/ai_conversations/\(URLText.encodeComponent(id))/messages",
                                  body: SendBody.global(message: message, options: options, location: SendBody.locationContext(options.location)), headers: accept)
        case .agent(let page, let conversation):
            return client.request("POST", "/api/ai/chat",
                                  body: SendBody.agent(pageID: page, conversationID: conversation, message: message, options: options, location: SendBody.pageContext(options.location)),
                                  headers: accept)
        }
    }

    /// The legacy API has no route that tells an unknown conversation from an empty one.
    public func requireConversation(_ id: String) throws {}

    public func abort(streamID: String?, conversationID: String?) throws -> AbortOutcome {
        .unsupported("the pagespace-legacy API has no way to stop a turn")
    }
}
