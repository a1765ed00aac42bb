import Hummingbird
import PSCore

/// The legacy API's AI settings: the selection, and per-user provider API keys
/// (apps/web/src/app/api/ai/settings/route.ts as of late 2025, before keys were retired).
struct LegacyAISettingsRoutes {
    let state: ServerState

    static let keyProviders = ["openrouter", "google", "openai", "anthropic", "xai", "ollama", "lmstudio", "glm"]
    static let selectable = ["pagespace", "openrouter", "openrouter_free", "google", "openai", "anthropic", "xai",
                             "ollama", "lmstudio", "glm"]
    static let shown = ["pagespace", "openrouter", "google", "openai", "anthropic"]
    static let names = [
        "openrouter": "OpenRouter", "google": "Google AI", "openai": "OpenAI", "anthropic": "Anthropic", "xai": "xAI",
        "ollama": "Ollama", "lmstudio": "LM Studio", "glm": "GLM Coder Plan",
    ]

    static func quoted(_ names: [String]) -> String {
        let quoted = names.map { "\"\($0)\"" }
        return quoted.dropLast().joined(separator: ", ") + ", or " + quoted.last!
    }

    func register(on router: Router<ServerContext>) {
        let auth = state.authenticator
        let settings = state.aiSettings

        // apps/web/src/app/api/ai/settings/route.ts (legacy GET)
        router.get("/api/ai/settings") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            let current = settings.current
            var providers = JSONObject()
            for name in Self.shown {
                let keyed = settings.hasKey(name)
                providers[name] = ["isConfigured": .bool(keyed), "hasApiKey": .bool(keyed)]
            }
            return Reply.json([
                "currentProvider": .string(current.provider), "currentModel": current.model.map(JSON.string) ?? .null,
                "userSubscriptionTier": "free", "providers": .object(providers),
                "isAnyProviderConfigured": .bool(Self.shown.contains(where: settings.hasKey)),
            ])
        }
        // apps/web/src/app/api/ai/settings/route.ts (legacy POST {provider, apiKey, baseUrl}):
        // 201 without the key echoed.
        router.post("/api/ai/settings") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            var request = request
            guard let body = try await request.jsonBodyIfValid(), body != .null else {
                throw Refusal(status: .internalServerError, error: "Failed to save API key")
            }
            let provider = body["provider"]?.stringValue ?? ""
            guard Self.keyProviders.contains(provider) else {
                throw Refusal.badRequest("Invalid provider. Must be " + Self.quoted(Self.keyProviders))
            }
            if provider == "ollama" || provider == "lmstudio" {
                guard let url = body["baseUrl"]?.stringValue, !url.trimmingSpaces.isEmpty else {
                    throw Refusal.badRequest("Base URL is required for \(provider == "ollama" ? "Ollama" : "LM Studio")")
                }
            } else {
                guard let key = body["apiKey"]?.stringValue, !key.trimmingSpaces.isEmpty else {
                    throw Refusal.badRequest("API key is required")
                }
            }
            settings.saveKey(for: provider)
            return Reply.json([
                "success": true, "provider": .string(provider),
                "message": .string("\(Self.names[provider] ?? provider) API key saved successfully"),
            ], status: .created)
        }
        // apps/web/src/app/api/ai/settings/route.ts (legacy PATCH {provider, model})
        router.patch("/api/ai/settings") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            var request = request
            guard let body = try await request.jsonBodyIfValid(), body != .null else {
                throw Refusal(status: .internalServerError, error: "Failed to update settings")
            }
            let provider = body["provider"]?.stringValue ?? ""
            guard Self.selectable.contains(provider) else {
                throw Refusal.badRequest("Invalid provider. Must be " + Self.quoted(Self.selectable))
            }
            guard let model = body["model"]?.stringValue, !model.isEmpty else { throw Refusal.badRequest("Model is required") }
            settings.select(provider: provider, model: model)
            return Reply.json([
                "success": true, "provider": .string(provider), "model": .string(model),
                "message": "Model selection updated successfully",
            ])
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
