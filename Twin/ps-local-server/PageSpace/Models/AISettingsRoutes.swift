import HTTPTypes
import Hummingbird
import PSCore

/// The user's provider and model selection and the public model catalog (current server only).
struct AISettingsRoutes {
    let state: ServerState

    static let gone = "Per-user API key configuration has been retired. AI providers are now managed at the deployment level."

    func register(on router: Router<ServerContext>) {
        let auth = state.authenticator
        let settings = state.aiSettings
        let catalog = settings.catalog
        let available = catalog.availableProviders(state.localModels)

        // apps/web/src/app/api/ai/settings/route.ts (GET): session only; every provider of
        // ALL_PROVIDER_NAMES (lib/ai/core/ai-utils.ts:62-85); the stored pair as
        // resolveProviderModel resolves it (route.ts:54-59): the default when it is not whole
        // or the catalog does not hold it.
        router.get("/api/ai/settings") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            let current = ChatAdmission.resolve(nil, nil, stored: settings.current, catalog: catalog)
            var providers = JSONObject()
            for name in catalog.providerNames {
                providers[name] = ["isAvailable": .bool(available.contains(name))]
            }
            return Reply.json([
                "currentProvider": .string(current.provider), "currentModel": .string(current.model),
                "imageGenerationModel": .null, "userSubscriptionTier": .string(state.subscriptionTier), "isAdmin": false,
                "providers": .object(providers), "isAnyProviderConfigured": .bool(!available.isEmpty),
            ])
        }
        // apps/web/src/app/api/ai/settings/route.ts (PATCH): session only (a bearer token skips
        // CSRF), checks in the route's order, {success, provider, model, message}.
        router.patch("/api/ai/settings") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            var request = request
            // request.json() failing, or destructuring null: the route's catch-all 500.
            guard let body = try await request.jsonBodyIfValid(), body != .null else {
                throw Refusal(status: .internalServerError, error: "Failed to update settings")
            }
            return try Self.change(body, in: settings, available: available, tier: state.subscriptionTier)
        }
        // apps/web/src/app/api/ai/settings/route.ts (POST, DELETE): retired, no authentication.
        router.post("/api/ai/settings") { _, _ in Reply.json(["error": .string(Self.gone)], status: .gone) }
        router.delete("/api/ai/settings") { _, _ in Reply.json(["error": .string(Self.gone)], status: .gone) }

        // apps/web/src/app/api/ai/models/route.ts: public, no credential needed.
        router.get("/api/ai/models") { _, _ in
            var headers = HTTPFields()
            headers[.cacheControl] = "public, max-age=300, s-maxage=300"
            return Reply.json([
                "providers": .array(catalog.providerIDs.map { Self.catalogEntry($0, catalog) }),
                "defaultProvider": .string(catalog.defaultProvider), "defaultModel": .string(catalog.defaultModel),
            ], headers: headers)
        }
    }

    /// PATCH /api/ai/settings, checks in the route's order (apps/web/src/app/api/ai/settings/route.ts:111-166).
    private static func change(_ body: JSON, in settings: AISettingsStore, available: Set<String>, tier: String) throws -> Response {
        let catalog = settings.catalog
        let provider = body["provider"]?.stringValue ?? ""
        let model = body["model"]?.stringValue
        guard catalog.providerNames.contains(provider) else {
            throw Refusal.badRequest("Invalid provider. Must be one of: " + catalog.providerNames.joined(separator: ", "))
        }
        guard available.contains(provider) else {
            throw Refusal(status: .serviceUnavailable, error: "Provider \"\(provider)\" is not configured on this deployment.")
        }
        // skipModelValidation: ONPREM_ALLOWED_PROVIDERS or DYNAMIC_MODEL_PROVIDERS (route.ts:124).
        if !catalog.hasNoModelList(provider) {
            guard let model, !model.isEmpty else { throw Refusal.badRequest("Model is required") }
            guard catalog.isValidModel(provider, model) else {
                throw Refusal.badRequest("Model \"\(model)\" is not a valid model for provider \"\(provider)\".")
            }
        }
        // ADMIN_ONLY_PROVIDERS (ai-providers-config.ts:59): the demo user is no admin
        // (createAdminRestrictedResponse, lib/subscription/rate-limit-middleware.ts:42-50).
        if catalog.adminOnlyProviders.contains(provider) {
            throw Refusal(Reply.json([
                "error": "Provider restricted", "message": "This provider is restricted to administrators.",
            ], status: .forbidden))
        }
        // requiresProSubscription (lib/subscription/rate-limit-middleware.ts:17-21): on the free
        // tier only FREE_TIER_MODELS may be chosen (isModelAllowedForTier,
        // ai-providers-config.ts:85-88). The check is on the model alone, whatever the
        // provider: Ollama, LM Studio and Azure OpenAI, whose models no list holds (or none
        // given), are refused too.
        if tier == "free", !(model.map(catalog.freeTierModels.contains) ?? false) {
            throw ChatAdmission.subscriptionRequired
        }
        settings.select(provider: provider, model: model)
        var answer = JSONObject()
        answer["success"] = true
        answer["provider"] = .string(provider)
        answer["model"] = model.map(JSON.string)
        answer["message"] = "Model selection updated successfully"
        return Reply.json(.object(answer))
    }

    /// One provider of buildModelCatalog (apps/web/src/lib/ai/core/model-catalog.ts:42-55): each model
    /// with its display name, `dynamic` by isDynamicModelProvider (ai-providers-config.ts:440-448).
    /// contextWindow where MODEL_CONTEXT_WINDOWS has one (model-catalog.ts:53; undefined, so
    /// left out, where it has none).
    private static func catalogEntry(_ provider: String, _ catalog: ModelCatalog) -> JSON {
        let models = (catalog.models[provider] ?? []).map { id -> JSON in
            var model = JSONObject()
            model["id"] = .string(id)
            model["displayName"] = .string(catalog.modelNames[id] ?? id)
            model["provider"] = .string(provider)
            model["free"] = .bool(catalog.freeTierModels.contains(id))
            model["contextWindow"] = catalog.contextWindows[id].map(JSON.integer)
            return .object(model)
        }
        return [
            "provider": .string(provider), "name": .string(catalog.displayNames[provider] ?? provider),
            "dynamic": .bool(catalog.dynamicCatalogProviders.contains(provider)), "models": .array(models),
        ]
    }
}
