import Hummingbird
import PSCore

/// The legacy API's AI settings: the selection, and per-user provider API keys
/// (apps/web/src/app/api/ai/settings/route.ts at 458264c5b, before keys were retired). Its
/// provider lists and names come from the source, through model-catalog.json.
struct LegacyAISettingsRoutes {
    let state: ServerState

    static let catalog = LegacySettingsCatalog.file

    static func quoted(_ names: [String]) -> String {
        let quoted = names.map { "\"\($0)\"" }
        return quoted.dropLast().joined(separator: ", ") + ", or " + quoted.last!
    }

    func register(on router: Router<ServerContext>) {
        let auth = state.authenticator
        let settings = state.aiSettings

        // route.ts:40-127 (GET): every provider the route reports, configured when a key (or
        // for Ollama and LM Studio a base URL) was saved; the deployment's PageSpace key is set.
        // An unset selection reads as `|| 'pagespace'` and `|| 'glm-4.5-air'` (route.ts:77-78).
        router.get("/api/ai/settings") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            let current = settings.current
            var providers = JSONObject()
            for provider in Self.catalog.reported {
                let configured = settings.hasKey(provider.id)
                providers[provider.id] = ["isConfigured": .bool(configured), provider.flag: .bool(configured)]
            }
            let defaults = settings.catalog
            return Reply.json([
                "currentProvider": .string(current.provider.isEmpty ? defaults.defaultProvider : current.provider),
                "currentModel": .string(current.model.flatMap { $0.isEmpty ? nil : $0 } ?? defaults.defaultModel),
                "userSubscriptionTier": .string(state.subscriptionTier), "providers": .object(providers),
                "isAnyProviderConfigured": .bool(Self.catalog.reported.contains { settings.hasKey($0.id) }),
            ])
        }
        // route.ts:133-229 (POST {provider, apiKey, baseUrl}): 201 without the key echoed.
        router.post("/api/ai/settings") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            var request = request
            guard let body = try await request.jsonBodyIfValid(), body != .null else {
                throw Refusal(status: .internalServerError, error: "Failed to save API key")
            }
            let provider = body["provider"]?.stringValue ?? ""
            guard Self.catalog.keyProviders.contains(provider) else {
                throw Refusal.badRequest("Invalid provider. Must be " + Self.quoted(Self.catalog.keyProviders))
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
                "message": .string("\(Self.catalog.keyProviderNames[provider] ?? "undefined") API key saved successfully"),
            ], status: .created)
        }
        // route.ts:231-309 (PATCH {provider, model}): the provider, then the model (:240-253);
        // PageSpace's pro model for a user without a Pro or Business plan is 403 (:264-274,
        // requiresProSubscription, lib/subscription/rate-limit-middleware.ts:92-100).
        router.patch("/api/ai/settings") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            var request = request
            guard let body = try await request.jsonBodyIfValid(), body != .null else {
                throw Refusal(status: .internalServerError, error: "Failed to update settings")
            }
            let provider = body["provider"]?.stringValue ?? ""
            guard Self.catalog.selectableProviders.contains(provider) else {
                throw Refusal.badRequest("Invalid provider. Must be " + Self.quoted(Self.catalog.selectableProviders))
            }
            guard let model = body["model"]?.stringValue, !model.isEmpty else { throw Refusal.badRequest("Model is required") }
            if provider == "pagespace", model == "glm-4.6", !["pro", "business"].contains(state.subscriptionTier) {
                throw Refusal(Reply.json([
                    "error": "Subscription required", "message": "PageSpace Pro AI requires a Pro or Business subscription.",
                    "upgradeUrl": "/settings/billing",
                ], status: .forbidden))
            }
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
