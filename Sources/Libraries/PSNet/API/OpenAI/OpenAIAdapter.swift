import PSCore

/// Any OpenAI-compatible server: the profile's server is the API's base URL, `POST
/// /chat/completions` streams `chat.completion.chunk` events, `GET /models` lists the models.
/// Two variants, told apart by the base URL alone (no request is spent on it):
///
/// - a base URL whose path ends in `/api/v1` is PageSpace's own OpenAI-compatible API
///   (`https://pagespace.ai/api/v1`, MCP keys only): the server keeps the conversations
///   (`ServerKeptConversations`), its models are its agents (`ps-agent://<pageId>`, so
///   `ps-send --page ID` picks one);
/// - any other (Ollama's `http://127.0.0.1:11434/v1`, llama.cpp, vLLM, a hosted model) keeps
///   none: the client keeps each conversation and sends it whole (`ClientKeptConversations`).
///
/// A key is sent when the profile has one; a plain server needs none. When a send names no
/// model (neither --model nor the profile's), the one model the server lists is used.
public final class OpenAIAdapter: APIAdapter, ConversationDeleting, ConversationSeeding, ModelListing, ClientToolCalling {
    public let kind = APIKind.openai
    public let client: APIClient
    let keeper: ConversationKeeping

    public init(client: APIClient, environment: [String: String] = Environment.current) {
        self.client = client
        client.probesGenerationOnNotFound = false
        client.refusalNote = Self.explain
        if Self.isPageSpace(baseURL: client.session.server) {
            keeper = ServerKeptConversations(
                client: client, current: CurrentConversation(profile: client.session.profileName, environment: environment))
        } else {
            keeper = ClientKeptConversations(LocalConversations(profile: client.session.profileName, environment: environment))
        }
    }

    /// Whether the base URL is PageSpace's OpenAI-compatible API: its path ends in `/api/v1`.
    public static func isPageSpace(baseURL: String) -> Bool {
        var path = URLText.path(of: Session.normalise(baseURL))
        while path.hasSuffix("/") { path.removeLast() }
        return path.hasSuffix("/api/v1")
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
        let ids = try listModels().map(\.id)
        var reach = CredentialReach(user: nil, globalAssistant: true, pageAI: false, drives: nil)
        reach.described = keeper.reachDescription(models: ids)
        return reach
    }

    /// The models the server lists (`{object:"list", data:[{id, owned_by, created}, …]}`).
    public func listModels() throws -> [ModelInfo] {
        let answer: JSON
        do {
            answer = try client.get("/models")
        } catch let error as ToolError where error.status == .authenticationNeeded && keeper is ServerKeptConversations {
            throw ToolError(.authenticationNeeded, error.message
                + " (PageSpace's /api/v1 takes only an MCP key, mcp_...: settings > MCP keys, or ps-auth login --device --drive ID)")
        }
        return (answer["data"]?.arrayValue ?? answer.arrayValue ?? []).compactMap(ModelInfo.init(openAI:))
    }

    public func logout() throws -> String? { keeper.logoutNote }

    public func defaultConversationID(creating new: NewConversation?) throws -> String? {
        try keeper.defaultConversationID(creating: new)
    }

    public func requireConversation(_ id: String) throws { try keeper.requireConversation(id) }

    public func createConversation(_ new: NewConversation) throws -> String? { try keeper.createConversation(new, agentPageID: nil) }

    /// `ps-send --page ID` without --conversation: a new conversation, as on PageSpace's own API.
    public func newAgentConversationID(pageID: String, creating new: NewConversation) throws -> String {
        _ = try keeper.agentModel(pageID: pageID)
        guard let id = try keeper.createConversation(new, agentPageID: pageID) else { throw ClientKeptConversations.noAgents }
        return id
    }

    public func deleteConversation(_ id: String) throws { try keeper.deleteConversation(id) }

    public func seedConversation(_ id: String, with messages: [JSON]) throws { try keeper.seedConversation(id, with: messages) }

    public func listConversations(_ body: (JSON) throws -> Void) throws { try keeper.listConversations(body) }

    public var listsAgentConversations: Bool { false }

    public func listAgentConversations(agentID: String, _ body: (JSON) throws -> Void) throws {
        throw ToolError(.usage, "an OpenAI-compatible server does not list an agent's conversations: ps-history --list lists them all")
    }

    /// The whole conversation at once.
    public func historyPage(_ source: HistorySource, query: HistoryQuery) throws -> HistoryPage {
        HistoryPage(messages: try keeper.messages(source), hasMore: false, nextCursor: nil, isPaged: false)
    }

    public func sendRequest(_ target: SendTarget, message: JSON, options: SendOptions) throws -> HTTPRequest {
        try sendRequest(target, message: message, options: options, tools: nil)
    }

    public func toolSendRequest(_ target: SendTarget, message: JSON, options: SendOptions, tools: ToolOffer) throws -> HTTPRequest {
        try sendRequest(target, message: message, options: options, tools: tools)
    }

    private func sendRequest(_ target: SendTarget, message: JSON, options: SendOptions, tools: ToolOffer?) throws -> HTTPRequest {
        let conversationID: String, model: String
        switch target {
        case .global(let id):
            conversationID = id
            model = try options.model ?? onlyModel()
        case .agent(let page, let id):
            guard let id else { throw ToolError(.usage, "name the conversation with --conversation") }
            conversationID = id
            model = try keeper.agentModel(pageID: page)
        }
        var body = try keeper.sendFields(conversationID: conversationID, message: message, system: options.system, tools: tools)
        body["model"] = .string(model)
        body["stream"] = true
        if let schema = options.responseSchema {
            // Structured output as OpenAI takes it (vLLM, llama.cpp, Ollama and LiteLLM pass it on).
            body["response_format"] = ["type": "json_schema", "json_schema": ["name": "answer", "schema": schema]]
        }
        return client.request("POST", "/chat/completions", body: .object(body), headers: [("Accept", "text/event-stream")])
    }

    /// No model named: the one the server lists, else a usage error naming them.
    func onlyModel() throws -> String {
        let ids = try listModels().map(\.id)
        if ids.count == 1 { return ids[0] }
        let listed = ids.isEmpty ? "the server lists none" : "the server lists " + Self.names(ids)
        throw ToolError(.usage, "no model: give --model NAME or store one with ps-auth set-model NAME (\(listed))")
    }

    /// "a, b, c": the first eight, then "…and N more".
    static func names(_ ids: [String]) -> String {
        let shown = ids.prefix(8).map(TerminalSafeText.sanitize).joined(separator: ", ")
        return ids.count > 8 ? shown + " …and \(ids.count - 8) more" : shown
    }

    /// What an OpenAI-compatible server's refusal leaves unsaid (APIClient.refusalNote). A send
    /// naming a model the server does not know gets the models it lists (`GET /models`; when
    /// that fails too, the refusal stays as it was). Any other 404 at a base URL whose path does
    /// not end in /v1 says that it usually does: Ollama, llama.cpp, vLLM and LiteLLM serve
    /// /v1/chat/completions and /v1/models.
    static func explain(_ client: APIClient, _ response: HTTPResponse, _ request: HTTPRequest, _ error: ToolError) -> ToolError {
        if isUnknownModel(response), URLText.path(of: request.url).hasSuffix("/chat/completions") {
            guard let ids = try? client.get("/models"), let models = ids["data"]?.arrayValue else { return error }
            let listed = models.compactMap(ModelInfo.init(openAI:)).map(\.id)
            let names = listed.isEmpty ? "the server lists no model" : "the server lists " + Self.names(listed)
            return ToolError(.notFound, error.message + "; " + names + " (see ps-models)")
        }
        let server = Session.normalise(URLText.withoutUserinfo(client.session.server))
        guard response.status == 404, !URLText.path(of: server).hasSuffix("/v1") else { return error }
        return ToolError(error.status, error.message + "; an OpenAI-compatible server's base URL usually ends in /v1 (--server "
            + TerminalSafeText.sanitize(server) + "/v1)")
    }

    /// Whether a refusal says that the server does not know the model asked for: OpenAI's 404
    /// "The model `x` does not exist" (code model_not_found; vLLM's too), Ollama's 404 `model
    /// "x" not found, try pulling it first`, LiteLLM's 400 "Invalid model name passed in model=x".
    static func isUnknownModel(_ response: HTTPResponse) -> Bool {
        guard response.status == 404 || response.status == 400 else { return false }
        let words = (ErrorBody(response.body).summary ?? "").lowercased()
        return words.contains("model") && (words.contains("not found") || words.contains("does not exist")
            || words.contains("invalid model"))
    }

    public var keepsTurns: Bool { keeper.keepsTurns }

    /// Not PageSpace's /api/v1: its chat route takes no `response_format` (apps/web/src/app/api/v1/
    /// chat/completions/route.ts:82 reads pageId, model, messages and the conversation only).
    public var takesResponseSchema: Bool { !(keeper is ServerKeptConversations) }

    public func keepTurn(_ target: SendTarget, message: JSON, reply: JSON?) throws {
        guard case .global(let id) = target else { return }
        try keeper.keepTurn(conversationID: id, message: message, reply: reply)
    }

    /// Closing the connection is how an OpenAI-compatible server is told to stop.
    public func abort(streamID: String?, conversationID: String?) throws -> AbortOutcome {
        .unsupported("an OpenAI-compatible server stops a reply when its connection closes; nothing else to ask")
    }
}
