import PSCore

/// The current PageSpace API: opaque tokens (`ps_sess_`, `mcp_`), `/api/ai/global/*`,
/// `X-Browser-Session-Id` on sends, `POST /api/ai/abort`.
public final class PageSpaceAdapter: APIAdapter {
    public let kind = APIKind.pagespace
    /// Image file parts are checked and passed to vision models (validate-image-parts.ts).
    public let takesFileParts = true
    public let client: APIClient

    public init(client: APIClient) {
        self.client = client
        // What the official CLI sends.
        client.commonHeaders = [("X-PageSpace-API-Version", "1.0.0")]
    }

    public func login(email: String, password: String) throws -> LoginResult {
        throw ToolError(.usage,
            "the pagespace API has no password login; create a token in PageSpace and run: ps-auth login --with-token < token-file")
    }

    public func reach() throws -> CredentialReach {
        let token = client.session.credentials?.token ?? ""
        if token.hasPrefix("mcp_") {
            // /api/auth/me refuses MCP keys (apps/web/src/app/api/auth/me/route.ts): its drives prove it.
            return CredentialReach(
                user: nil, globalAssistant: false, pageAI: true, drives: try drives(),
                note: "an MCP key reaches Page AI agents in its drives, never the Global assistant; for that, "
                    + "log in with a browser session token (ps_sess_..., the session cookie)")
        }
        let user = try me()
        if token.hasPrefix("ps_at_") {
            return CredentialReach(
                user: user, globalAssistant: false, pageAI: false, drives: try? drives(),
                note: "an OAuth access token reaches no AI route; get an MCP key with: ps-auth login --device --drive ID")
        }
        return CredentialReach(user: user, globalAssistant: true, pageAI: true, drives: try drives())
    }

    private func me() throws -> JSON {
        let user = try client.get("/api/auth/me")
        return user["user"]?.objectValue != nil ? user["user"]! : user
    }

    /// `POST /api/auth/logout` reads only the browser's session cookie
    /// (apps/web/src/app/api/auth/logout/route.ts): a bearer token cannot be ended from here.
    public func logout() throws -> String? {
        let token = client.session.credentials?.token ?? ""
        if token.hasPrefix("mcp_") {
            return "an MCP key stays valid on the server until it is revoked in PageSpace's settings"
        }
        return "the current PageSpace API cannot end a session from outside the browser (its logout reads only the "
            + "browser's cookie): the token stays valid until it expires or you sign out in the browser"
    }

    /// The most recently used conversation with messages (`active` skips empty ones,
    /// global-conversation-repository.ts getActiveGlobalConversation).
    public func defaultConversationID(creating new: NewConversation?) throws -> String? {
        if let id = try client.get("/api/ai/global/active").conversationID { return id }
        return try new.flatMap(createConversation)
    }

    /// `GET /api/ai/global/{id}`: 404 for an unknown or someone else's conversation
    /// (apps/web/src/app/api/ai/global/[id]/route.ts).
    public func requireConversation(_ id: String) throws {
        do {
            _ = try client.get("/api/ai/global/\(URLText.encodeComponent(id))")
        } catch let error as ToolError where error.status == .notFound {
            throw ToolError(.notFound, "there is no global conversation \(TerminalSafeText.quoted(id)) "
                + "for this user " + CommandHints.unknownConversation)
        }
    }

    /// A new conversation, as the web app makes one: the client picks a cuid-shaped id and
    /// the server creates the conversation with the first message saved to it. Nothing is
    /// made before that, so failed or abandoned runs leave no empty conversations behind.
    public func createConversation(_ new: NewConversation) throws -> String? {
        RandomID.conversationID()
    }

    public func listConversations(_ body: (JSON) throws -> Void) throws {
        var cursor: String?
        repeat {
            let page = try client.get("/api/ai/global", query: [("paginated", "true"), ("limit", "100"), ("cursor", cursor)])
            if let all = page.arrayValue {  // a server that ignores `paginated`
                try all.forEach(body)
                return
            }
            try (page["conversations"]?.arrayValue ?? []).forEach(body)
            let pagination = page["pagination"]
            cursor = pagination?["hasMore"]?.boolValue == true ? pagination?["nextCursor"]?.stringValue : nil
        } while cursor != nil
    }

    public var listsAgentConversations: Bool { true }

    public func listAgentConversations(agentID: String, _ body: (JSON) throws -> Void) throws {
        var pageNumber = 0
        while true {
            let page = try client.get(
                "/api/ai/page-agents/\(URLText.encodeComponent(agentID))/conversations",
                query: [("page", String(pageNumber)), ("pageSize", "50")])
            try (page["conversations"]?.arrayValue ?? []).forEach(body)
            guard page["pagination"]?["hasMore"]?.boolValue == true else { return }
            pageNumber += 1
        }
    }

    public func historyPage(_ source: HistorySource, query: HistoryQuery) throws -> HistoryPage {
        let paging: [(String, String?)] = [
            ("limit", query.limit.map(String.init)), ("cursor", query.cursor), ("direction", query.direction?.rawValue),
        ]
        switch source {
        case .global(let id):
            return try .parse(client.get("/api/ai/global/\(URLText.encodeComponent(id))/messages", query: paging))
        case .agent(let page, let conversation?):
            return try .parse(client.get(
                "/api/ai/page-agents/\(URLText.encodeComponent(page))/conversations/\(URLText.encodeComponent(conversation))/messages",
                query: paging))
        case .agent(let page, nil):
            return try .parse(client.get("/api/ai/chat/messages", query: [("pageId", page)]))
        }
    }

    public func sendRequest(_ target: SendTarget, message: JSON, options: SendOptions) throws -> HTTPRequest {
        let session: [(name: String, value: String)] = [
            ("X-Browser-Session-Id", options.browserSessionID), ("Accept", "text/event-stream"),
        ]
        switch target {
        case .global(let id):
            return client.request("POST", "/api/ai/global/\(URLText.encodeComponent(id))/messages",
                                  body: SendBody.global(message: message, options: options, location: SendBody.contextRef(options.location)), headers: session)
        case .agent(let page, let conversation):
            return client.request("POST", "/api/ai/chat",
                                  body: SendBody.agent(pageID: page, conversationID: conversation, message: message, options: options, location: SendBody.contextRef(options.location)),
                                  headers: session)
        }
    }

    /// `POST /api/ai/abort {streamId?, conversationId?}` → `{aborted, code?, reason?}`
    /// (apps/web/src/app/api/ai/abort/route.ts); session tokens only.
    public func abort(streamID: String?, conversationID: String?) throws -> AbortOutcome {
        guard client.session.credentials?.token.hasPrefix("mcp_") != true else {
            return .unsupported("an MCP key cannot stop a turn (only a session token can): the reply goes on on the server")
        }
        var body = JSONObject()
        body["streamId"] = streamID.map { .string($0) }
        body["conversationId"] = conversationID.map { .string($0) }
        guard !body.isEmpty else { return .notStopped(code: nil, reason: "nothing names the turn yet") }
        let answer = try client.post("/api/ai/abort", body: .object(body))
        if answer["aborted"]?.boolValue == true { return .stopped }
        return .notStopped(code: answer["code"]?.stringValue, reason: answer["reason"]?.stringValue)
    }
}

extension JSON {
    /// The id of a conversation answer: `{id}`, `{conversation:{id}}` or `{conversationId}`; nil for `null`.
    var conversationID: String? {
        self["id"]?.stringValue ?? self["conversation"]?["id"]?.stringValue ?? self["conversationId"]?.stringValue
    }
}
