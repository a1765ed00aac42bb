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
        let available = ModelCatalog.availableProviders(state.localModels)

        // apps/web/src/app/api/ai/settings/route.ts (GET): session only.
        router.get("/api/ai/settings") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            let current = settings.current
            var providers = JSONObject()
            for name in ModelCatalog.providerOrder {
                providers[name] = ["isAvailable": .bool(available.contains(name))]
            }
            return Reply.json([
                "currentProvider": .string(current.provider), "currentModel": current.model.map(JSON.string) ?? .null,
                "imageGenerationModel": .null, "userSubscriptionTier": "free", "isAdmin": false,
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
            return try Self.change(body, in: settings, available: available)
        }
        // apps/web/src/app/api/ai/settings/route.ts (POST, DELETE): retired, no authentication.
        router.post("/api/ai/settings") { _, _ in Reply.json(["error": .string(Self.gone)], status: .gone) }
        router.delete("/api/ai/settings") { _, _ in Reply.json(["error": .string(Self.gone)], status: .gone) }

        // apps/web/src/app/api/ai/models/route.ts: public, no credential needed.
        router.get("/api/ai/models") { _, _ in
            var headers = HTTPFields()
            headers[.cacheControl] = "public, max-age=300, s-maxage=300"
            return Reply.json([
                "providers": .array(ModelCatalog.providerOrder.map(Self.catalogEntry)),
                "defaultProvider": .string(ModelCatalog.defaultProvider), "defaultModel": .string(ModelCatalog.defaultModel),
            ], headers: headers)
        }
    }

    private static func change(_ body: JSON, in settings: AISettingsStore, available: Set<String>) throws -> Response {
        let provider = body["provider"]?.stringValue ?? ""
        let model = body["model"]?.stringValue
        guard ModelCatalog.providerOrder.contains(provider) else {
            throw Refusal.badRequest("Invalid provider. Must be one of: " + ModelCatalog.providerOrder.joined(separator: ", "))
        }
        guard available.contains(provider) else {
            throw Refusal(status: .serviceUnavailable, error: "Provider \"\(provider)\" is not configured on this deployment.")
        }
        let dynamic = ModelCatalog.dynamicProviders.contains(provider)
        if !dynamic {
            guard let model, !model.isEmpty else { throw Refusal.badRequest("Model is required") }
            guard ModelCatalog.isValidModel(provider, model) else {
                throw Refusal.badRequest("Model \"\(model)\" is not a valid model for provider \"\(provider)\".")
            }
            // requiresProSubscription: the demo user is on the free tier and no admin.
            guard ModelCatalog.freeTierModels.contains(model) else {
                var refusal = JSONObject()
                refusal["error"] = "Subscription required"
                refusal["message"] = "This model is available on paid plans. Upgrade to access the full model catalog."
                refusal["upgradeUrl"] = "/settings/plan"
                throw Refusal(Reply.json(.object(refusal), status: .forbidden))
            }
        }
        settings.select(provider: provider, model: model)
        var answer = JSONObject()
        answer["success"] = true
        answer["provider"] = .string(provider)
        answer["model"] = model.map(JSON.string)
        answer["message"] = "Model selection updated successfully"
        return Reply.json(.object(answer))
    }

    /// One provider of buildModelCatalog (apps/web/src/lib/ai/core/model-catalog.ts).
    private static func catalogEntry(_ provider: String) -> JSON {
        let models = (ModelCatalog.models[provider] ?? []).map { id -> JSON in
            var model = JSONObject()
            model["id"] = .string(id)
            model["displayName"] = .string(id)
            model["provider"] = .string(provider)
            model["free"] = .bool(ModelCatalog.freeTierModels.contains(id))
            model["contextWindow"] = ModelCatalog.contextWindows[id].map { .integer(Int64($0)) }
            return .object(model)
        }
        return [
            "provider": .string(provider), "name": .string(ModelCatalog.displayNames[provider] ?? provider),
            "dynamic": .bool(ModelCatalog.dynamicProviders.contains(provider)), "models": .array(models),
        ]
    }
}
