import PSCore

/// Any OpenAI-compatible server (Ollama, llama.cpp, vLLM, hosted models): the profile's server is
/// the API's base URL (`http://127.0.0.1:11434/v1`), `POST /chat/completions` streams
/// `chat.completion.chunk` events, `GET /models` lists the models. The server keeps no
/// conversation: the client keeps each one (`LocalConversations`) and sends it whole with every
/// message. A key is sent when the profile has one; none is needed otherwise.
public final class OpenAIAdapter: APIAdapter, ConversationDeleting {
    public let kind = APIKind.openai
    public let client: APIClient
    let conversations: LocalConversations

    public init(client: APIClient, environment: [String: String] = Environment.current) {
        self.client = client
        conversations = LocalConversations(profile: client.session.profileName, environment: environment)
    }

    public func login(email: String, password: String) throws -> LoginResult {
        throw ToolError(.usage,
            "an OpenAI-compatible server has no password login: give its API key with --with-token, or no credential at all")
    }

    /// No credential: the server is only asked to answer (`GET /models`).
    public func openLogin(_ account: AccountDetails) throws -> LoginResult {
        _ = try reach()
        return LoginResult(credentials: nil, user: nil)
    }

    /// `GET /models`: proves the server answers (and the key, when there is one).
    public func reach() throws -> CredentialReach {
        let ids = try models().compactMap { $0["id"]?.stringValue }
        var reach = CredentialReach(user: nil, globalAssistant: true, pageAI: false, drives: nil)
        reach.described = "chat completions with " + (ids.isEmpty ? "no model listed" : ids.prefix(8).joined(separator: ", ")
            + (ids.count > 8 ? " and \(ids.count - 8) more" : ""))
        return reach
    }

    /// The models the server lists (`{object:"list", data:[{id, …}]}`).
    public func models() throws -> [JSON] {
        let answer = try client.get("/models")
        return answer["data"]?.arrayValue ?? answer.arrayValue ?? []
    }

    public func logout() throws -> String? {
        "an OpenAI-compatible server has no session to end: only the local copy of the key is removed"
    }

    public func defaultConversationID(creating new: NewConversation?) throws -> String? {
        if let current = try conversations.current() { return current }
        return try new.flatMap(createConversation)
    }

    public func requireConversation(_ id: String) throws {
        guard conversations.exists(id) else {
            throw ToolError(.notFound, "there is no conversation \(TerminalSafeText.sanitize(id)) kept for this profile "
                + "(ps-history --list shows them; --new-conversation starts one)")
        }
    }

    /// A conversation is kept from its first turn on; until then it is only an id.
    public func createConversation(_ new: NewConversation) throws -> String? { RandomID.conversationID() }

    public func deleteConversation(_ id: String) throws { try conversations.remove(id) }

    public func listConversations(_ body: (JSON) throws -> Void) throws {
        try conversations.list().forEach(body)
    }

    public var listsAgentConversations: Bool { false }

    public func listAgentConversations(agentID: String, _ body: (JSON) throws -> Void) throws {
        throw ToolError(.usage, "an OpenAI-compatible server has no Page AI agents")
    }

    /// The whole conversation at once, from the local file.
    public func historyPage(_ source: HistorySource, query: HistoryQuery) throws -> HistoryPage {
        guard case .global(let id) = source else { throw ToolError(.usage, "an OpenAI-compatible server has no Page AI agents") }
        try requireConversation(id)
        return HistoryPage(messages: try conversations.messages(id), hasMore: false, nextCursor: nil, isPaged: false)
    }

    public func sendRequest(_ target: SendTarget, message: JSON, options: SendOptions) throws -> HTTPRequest {
        guard case .global(let id) = target else { throw ToolError(.usage, "an OpenAI-compatible server has no Page AI agents") }
        guard let model = options.model else {
            throw ToolError(.usage, "an OpenAI-compatible server needs --model (ps-auth status lists the server's models)")
        }
        let history = try conversations.messages(id)
        var body = JSONObject()
        body["model"] = .string(model)
        body["messages"] = .array(ChatMessages.make(system: options.system, history: history + [message]))
        body["stream"] = true
        body["stream_options"] = ["include_usage": true]
        return client.request("POST", "/chat/completions", body: .object(body), headers: [("Accept", "text/event-stream")])
    }

    public var keepsTurns: Bool { true }

    /// Keeps the turn: the user's message and the reply as it was rebuilt from the stream.
    public func keepTurn(_ target: SendTarget, message: JSON, reply: JSON?) throws {
        guard case .global(let id) = target else { return }
        try conversations.append([message] + (reply.map { [$0] } ?? []), to: id)
    }

    /// Closing the connection is how an OpenAI-compatible server is told to stop.
    public func abort(streamID: String?, conversationID: String?) throws -> AbortOutcome {
        .unsupported("an OpenAI-compatible server stops a reply when its connection closes; nothing else to ask")
    }
}
