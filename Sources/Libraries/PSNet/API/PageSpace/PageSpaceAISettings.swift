import PSCore

// The current PageSpace API's AI selection, model catalog and search:
// `GET|PATCH /api/ai/settings` (apps/web/src/app/api/ai/settings/route.ts, session only),
// `GET /api/ai/models` (apps/web/src/app/api/ai/models/route.ts, public) and
// `GET /api/search` (apps/web/src/app/api/search/route.ts, session only).
extension PageSpaceAdapter: SettingsAPI, ModelListing, SearchAPI {
    /// `{currentProvider, currentModel, imageGenerationModel, userSubscriptionTier, isAdmin,
    /// providers:{NAME:{isAvailable}}, isAnyProviderConfigured}`, as the server gives it.
    public func showSettings() throws -> JSON {
        try sessionOnly("read or change the AI settings") { try client.get("/api/ai/settings") }
    }

    /// Only the selection can change: `provider` and `model` (also spelled `currentProvider`,
    /// `currentModel`, as shown). A model alone keeps the current provider. The server checks
    /// the pair (400 unknown provider or model, 503 provider not configured here): a usage
    /// error in its words; 403 when the model needs a paid plan.
    public func changeSettings(_ change: JSONObject) throws -> JSON {
        try sessionOnly("read or change the AI settings") { _ = try AISettingsRoute.patch(client, change) }
        return try showSettings()
    }

    /// Every model of every provider in `GET /api/ai/models`, `ownedBy` its provider, named by
    /// its displayName, with whether the free plan runs it and its context window where the
    /// catalog gives one; the catalog gives no creation dates. Providers whose models are found
    /// at run time (Ollama, LM Studio, Azure OpenAI: `dynamic`) list none there.
    public func listModels() throws -> [ModelInfo] {
        let catalog = try client.get("/api/ai/models")
        guard let providers = catalog["providers"]?.arrayValue else {
            throw ToolError(.serverError, "GET /api/ai/models: the answer has no providers list")
        }
        return providers.flatMap { provider -> [ModelInfo] in
            (provider["models"]?.arrayValue ?? []).compactMap { model in
                guard let id = model["id"]?.stringValue, !id.isEmpty else { return nil }
                // displayName (lib/ai/core/model-catalog.ts), when it says more than the id.
                let name = model["displayName"]?.stringValue.flatMap { $0.isEmpty || $0 == id ? nil : $0 }
                return ModelInfo(id: id, ownedBy: model["provider"]?.stringValue ?? provider["provider"]?.stringValue, name: name,
                                 free: model["free"]?.boolValue, contextWindow: model["contextWindow"]?.intValue)
            }
        }
    }

    /// `GET /api/search?q=&limit=` → `{results:[{id, title, type: drive|page|user, pageType?,
    /// driveId?, driveName?, description?, matchLocation, relevanceScore}]}`, best first. The
    /// server answers a query shorter than 2 characters (after trimming) with no results, and
    /// takes a limit of 1 to 50 (20 when not given).
    public func search(_ query: String, limit: Int?) throws -> [JSON] {
        let answer = try sessionOnly("search") {
            try client.get("/api/search", query: [("q", query), ("limit", limit.map(String.init))])
        }
        guard let results = answer["results"]?.arrayValue else {
            throw ToolError(.serverError, "GET /api/search: the answer has no results list")
        }
        return results
    }

    /// These routes (and the subscription's and local models') take a browser session only: an
    /// MCP key or an OAuth token is refused with a 401 that says so where the route names it
    /// (settings) and a bare "Unauthorized" where it does not (search). Say what would work.
    func sessionOnly<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ToolError where error.status == .authenticationNeeded {
            let token = client.session.credentials?.token ?? ""
            guard token.hasPrefix("mcp_") || token.hasPrefix("ps_at_") else { throw error }
            let kind = token.hasPrefix("mcp_") ? "an MCP key" : "an OAuth access token"
            throw ToolError(.authenticationNeeded, "\(kind) cannot \(what): the server takes only a browser session "
                + "token here (the ps_sess_... session cookie): ps-auth login --with-token")
        }
    }
}

/// `GET|PATCH /api/ai/settings`, the same selection change in both API generations; the legacy
/// one also saves a provider's API key (`POST {provider, apiKey}` → 201 `{success, provider,
/// message}`, the key never echoed; apps/web/src/app/api/ai/settings/route.ts as of late 2025).
enum AISettingsRoute {
    static func patch(_ client: APIClient, _ change: JSONObject) throws {
        var provider: String?, model: String?
        for (key, value) in change {
            let text = { () throws -> String in
                guard let text = value.stringValue else {
                    throw ToolError(.usage, "\(TerminalSafeText.sanitize(key)) takes a name, not \(TerminalSafeText.sanitize(value.serialized()))")
                }
                return text
            }
            switch key {
            case "provider", "currentProvider": provider = try text()
            case "model", "currentModel": model = try text()
            default:
                throw ToolError(.usage, "PageSpace's settings change only provider and model here, not "
                    + TerminalSafeText.sanitize(key) + " (an API key goes with --api-key-stdin, where the server takes one)")
            }
        }
        if provider == nil { provider = try client.get("/api/ai/settings")["currentProvider"]?.stringValue }
        var body = JSONObject()
        body["provider"] = provider.map(JSON.string)
        body["model"] = model.map(JSON.string)
        _ = try refusedAsUsage(client, client.request("PATCH", "/api/ai/settings", body: .object(body)))
    }

    static func saveKey(_ client: APIClient, provider: String, key: String) throws -> JSON {
        var body = JSONObject()
        body["provider"] = .string(provider)
        body["apiKey"] = .string(key)
        return try refusedAsUsage(client, client.request("POST", "/api/ai/settings", body: .object(body)))
    }

    /// The answer; a 400 or 503 (a value the server refuses) is a usage error in its words.
    private static func refusedAsUsage(_ client: APIClient, _ request: HTTPRequest) throws -> JSON {
        let response = try client.response(request)
        if response.status == 400 || response.status == 503 {
            let words = ErrorBody(response.body).summary.map(TerminalSafeText.sanitize) ?? "status \(response.status)"
            throw ToolError(.usage, "the server refused the change: \(words)")
        }
        return try client.json(request, response: response)
    }
}

extension PageSpaceLegacyAdapter: SettingsAPI, ProviderKeySaving {
    public func showSettings() throws -> JSON { try client.get("/api/ai/settings") }

    public func changeSettings(_ change: JSONObject) throws -> JSON {
        try AISettingsRoute.patch(client, change)
        return try showSettings()
    }

    public func saveProviderKey(provider: String, key: String) throws -> JSON {
        try AISettingsRoute.saveKey(client, provider: provider, key: key)
    }
}
