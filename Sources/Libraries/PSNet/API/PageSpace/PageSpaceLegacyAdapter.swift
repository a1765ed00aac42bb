import PSCore

/// PageSpace's API of late 2025: password login returning a JWT (15 minutes), a CSRF token
/// and a device token that renews the JWT; `X-CSRF-Token` on every POST/PATCH/DELETE; `/api/ai_conversations/*`; no
/// `/api/auth/me` (the user comes from the login answer) and no abort.
public final class PageSpaceLegacyAdapter: APIAdapter, ConversationRenaming, ConversationDeleting {
    public let kind = APIKind.pagespaceLegacy
    /// Images would be lost: this API stored only a message's text and fed the model from the
    /// database (apps/web/src/app/api/ai_conversations/[id]/messages/route.ts before vision
    /// support came in 2026), so `takesFileParts` keeps its default, false.
    public let client: APIClient

    public init(client: APIClient) {
        self.client = client
        if let csrf = client.session.credentials?.csrfToken { client.mutationHeaders = [("X-CSRF-Token", csrf)] }
        client.errorWording = LegacyErrorWording()
        client.renewal = LegacyRenewal.renew
    }

    /// `POST /api/auth/mobile/login` (apps/web/src/app/api/auth/mobile/login/route.ts:17-150 at
    /// 458264c5b): the login whose answer holds the token, with a CSRF token and a device token
    /// for a `deviceId` we make up (platform `desktop`). The web login, `/api/auth/login`,
    /// puts the token in an httpOnly cookie and answers only `{id, name, email}`.
    public func login(email: String, password: String) throws -> LoginResult {
        let deviceID = "ps-tools-" + RandomID.make(length: 24)
        let body: JSON = [
            "email": .string(email), "password": .string(password), "deviceId": .string(deviceID),
            "platform": "desktop", "deviceName": "ps-tools",
        ]
        let request = LegacyRenewal.anonymousPost(client, "/api/auth/mobile/login", body: body)
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
                                     deviceToken: json["deviceToken"]?.stringValue, deviceID: deviceID),
            user: json["user"])
    }

    /// The stored user, after proving the token still works (the API has no "who am I").
    /// An MCP key is refused by every `/api/ai_conversations` route (they allow JWTs only,
    /// lib/auth/index.ts:234-239 at 458264c5b): its drives prove it.
    public func reach() throws -> CredentialReach {
        if client.session.credentials?.token.hasPrefix("mcp_") == true {
            let drives = try client.get("/api/drives")
            return CredentialReach(
                user: nil, globalAssistant: false, pageAI: true, drives: drives.arrayValue ?? drives["drives"]?.arrayValue,
                note: "an MCP key reaches Page AI agents in its drives, never the Global assistant; for that, log in with --email")
        }
        _ = try client.get("/api/ai_conversations/global")
        let drives = try client.get("/api/drives")
        return CredentialReach(
            user: client.session.profile?.user, globalAssistant: true, pageAI: true,
            drives: drives.arrayValue ?? drives["drives"]?.arrayValue)
    }

    /// `POST /api/auth/logout` revokes the device token it is given in `X-Device-Token`
    /// (apps/web/src/app/api/auth/logout/route.ts:22-45 at 458264c5b), so that it can no
    /// longer renew the login.
    public func logout() throws -> String? {
        var request = client.request("POST", "/api/auth/logout", body: [:])
        if let deviceToken = client.session.credentials?.deviceToken {
            request.headers.append(("X-Device-Token", deviceToken))
        }
        let response = try client.response(request)
        // An old server without a logout route: the token is forgotten locally all the same.
        guard response.head.isSuccess || response.status == 404 || response.status == 405 else {
            throw APIErrors.toolError(response, request: request)
        }
        return nil
    }

    /// The newest global conversation (by creation: the server's `/global` answer), or a new
    /// one when the user has none.
    public func defaultConversationID(creating new: NewConversation?) throws -> String? {
        let global = try client.get("/api/ai_conversations/global")
        if let id = global.conversationID { return id }
        guard global.isNull, let new else { throw ToolError(.serverError, "the server's global conversation has no id") }
        return try createConversation(new)
    }

    /// `POST /api/ai_conversations {title}` (the server names an untitled one after its first
    /// message); it becomes the newest, so later sends without --conversation go to it.
    public func createConversation(_ new: NewConversation) throws -> String? {
        var body = JSONObject()
        body["title"] = new.title.map(JSON.string)
        guard let id = try client.post("/api/ai_conversations", body: .object(body))["id"]?.stringValue else {
            throw ToolError(.serverError, "the server's answer to creating a conversation has no id")
        }
        return id
    }

    /// `GET /api/ai_conversations`: every active conversation, most recently active first.
    /// A server without that route shows its global conversation only.
    public func listConversations(_ body: (JSON) throws -> Void) throws {
        do {
            try (client.get("/api/ai_conversations").arrayValue ?? []).forEach(body)
            return
        } catch let error as ToolError where error.status == .notFound {}
        let global = try client.get("/api/ai_conversations/global")
        guard global.objectValue != nil else { return }
        var record = global.objectValue!
        if record["title"] == nil { record["title"] = "Global" }
        try body(.object(record))
    }

    /// PATCH and DELETE find a deleted conversation too (they do not check isActive,
    /// ai_conversations/[id]/route.ts:63-115 at 458264c5b): one the user deleted is not found
    /// first, as everywhere else.
    public func renameConversation(_ id: String, title: String) throws -> JSON {
        try requireConversation(id)
        return try client.json(client.request("PATCH", conversationPath(id), body: ["title": .string(title)]))
    }

    public func deleteConversation(_ id: String) throws {
        try requireConversation(id)
        _ = try client.json(client.request("DELETE", conversationPath(id)))
    }

    private func conversationPath(_ id: String) -> String { "/api/ai_conversations/" + URLText.encodeComponent(id) }

    public var listsAgentConversations: Bool { true }

    /// `GET /api/agents/{id}/conversations?page=N&pageSize=50` → `{conversations, pagination:
    /// {hasMore, …}}`, newest activity first (apps/web/src/app/api/agents/[agentId]/conversations/route.ts
    /// at 458264c5b; a JWT or an MCP key).
    public func listAgentConversations(agentID: String, _ body: (JSON) throws -> Void) throws {
        var pageNumber = 0
        while true {
            let page = try client.get(
                "/api/agents/\(URLText.encodeComponent(agentID))/conversations",
                query: [("page", String(pageNumber)), ("pageSize", "50")])
            try (page["conversations"]?.arrayValue ?? []).forEach(body)
            guard page["pagination"]?["hasMore"]?.boolValue == true else { return }
            pageNumber += 1
        }
    }

    public func historyPage(_ source: HistorySource, query: HistoryQuery) throws -> HistoryPage {
        switch source {
        case .global(let id):
            return try .parse(client.get(
                "/api/ai_conversations/\(URLText.encodeComponent(id))/messages",
                query: [("limit", query.limit.map(String.init)), ("cursor", query.cursor),
                        ("direction", query.direction?.rawValue)]))
        case .agent(let page, let conversation?):
            // `{messages, conversationId, messageCount}`: the whole conversation at once, no paging
            // (apps/web/src/app/api/agents/[agentId]/conversations/[conversationId]/messages/route.ts).
            let answer = try client.get(
                "/api/agents/\(URLText.encodeComponent(page))/conversations/\(URLText.encodeComponent(conversation))/messages")
            guard let messages = answer["messages"]?.arrayValue else {
                throw ToolError(.serverError, "the server's history answer has no messages array")
            }
            return HistoryPage(messages: messages, hasMore: false, nextCursor: nil, isPaged: false)
        case .agent(let page, nil):
            return try .parse(client.get("/api/ai/chat/messages", query: [("pageId", page)]))
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

    /// `GET /api/ai_conversations/{id}`: 404 for one the user does not have.
    public func requireConversation(_ id: String) throws {
        do {
            _ = try client.get(conversationPath(id))
        } catch let error as ToolError where error.status == .notFound {
            throw ToolError(.notFound, "there is no conversation \(TerminalSafeText.quoted(id)) for this user "
                + CommandHints.unknownConversation)
        }
    }

    public func abort(streamID: String?, conversationID: String?) throws -> AbortOutcome {
        .unsupported("the pagespace-legacy API has no way to stop a turn")
    }
}

/// The legacy API's words for an MCP key on a JWT-only route: the way out is a password login.
struct LegacyErrorWording: APIErrorWording {
    func toolError(status: Int, reason: String, where: String) -> ToolError? {
        guard status == 401, reason.contains("MCP tokens are not permitted") else { return nil }
        return ToolError(.authenticationNeeded,
            "authentication needed\(reason) (\(`where`)): an MCP key reaches Page AI agents (ps-send --page ID) and "
                + "drives, not the Global assistant or the AI settings; for those, log in with: ps-auth login --email ADDRESS")
    }

    func toolError(_ failure: TransferFailure, host: String) -> ToolError? { nil }
}
