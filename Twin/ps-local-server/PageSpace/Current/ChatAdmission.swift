import ArgumentParser
import HTTPTypes
import Hummingbird
import PSCore

/// What the current server's two chat routes decide before a model runs (Global assistant,
/// apps/web/src/lib/ai/chat-pipeline/global-chat-turn.ts; Page AI, page-chat-turn.ts): the
/// prepaid credit gate, then, once the user's message is stored, the subscription gate on the
/// provider and model, and the pair the request named saved as the user's default (and the
/// agent's).
enum ChatAdmission {
    /// Why canConsumeAI refuses (packages/lib/src/billing/credit-gate.ts), or none: the twin's
    /// switch for the real gate's answers.
    enum CreditGate: String, ExpressibleByArgument, CaseIterable, Sendable {
        case open
        case outOfCredits = "out_of_credits"
        case tooManyInFlight = "too_many_in_flight"
        case dailyCapExceeded = "daily_cap_exceeded"
    }

    /// The credit gate, before anything is stored (global-chat-turn.ts:434-446,
    /// page-chat-turn.ts:742-750), answered by creditGateErrorResponse
    /// (apps/web/src/lib/subscription/credit-gate-response.ts:15-45): 429 for the two caps,
    /// 402 for an empty balance.
    static func checkCredits(_ state: ServerState) throws {
        let status: HTTPResponse.Status, message: String
        switch state.creditGate {
        case .open: return
        case .tooManyInFlight:
            status = .tooManyRequests
            message = "Too many AI requests in flight at once. Wait for one to finish, then try again."
        case .dailyCapExceeded:
            status = .tooManyRequests
            message = "You've reached your daily AI usage limit. Try again tomorrow."
        case .outOfCredits:
            status = HTTPResponse.Status(code: 402)
            message = "Your credit balance is too low. Add credits to get back to positive, or wait for your monthly allowance to be added at your next renewal."
        }
        throw Refusal(Reply.json(["error": .string(state.creditGate.rawValue), "message": .string(message)], status: status))
    }

    /// The subscription gate and the saved selection, after the user's message is stored.
    /// The gate judges, through resolveGenerationAdmission (lib/ai/core/generation-admission.ts),
    /// on Global the pair that runs (resolveProviderModel, ai-providers-config.ts:498-521,
    /// via createAIProvider, provider-factory.ts:78-85; global-chat-turn.ts:689-722), on Page
    /// AI the request's provider and model each falling back to the user's stored one, then
    /// the default (page-chat-turn.ts:1090-1128). A pair given whole is then saved as the
    /// user's default as sent, even one that was replaced by the default to run
    /// (updateUserProviderSettings, provider-factory.ts:238-257), and on Page AI as the
    /// agent's provider and model (page-chat-turn.ts:1152-1163); a model alone is not saved.
    static func admit(_ body: JSON, pageID: String?, state: ServerState) throws {
        let catalog = state.aiSettings.catalog
        let stored = state.aiSettings.current
        let selectedProvider = body["selectedProvider"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let selectedModel = body["selectedModel"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let judged: (provider: String, model: String)
        if pageID != nil {
            judged = (selectedProvider ?? stored.provider, selectedModel ?? stored.model ?? catalog.defaultModel)
        } else {
            judged = resolve(selectedProvider, selectedModel, stored: stored, catalog: catalog)
        }
        // resolveGenerationAdmission: admin-only providers first, then the tier
        // (requiresProSubscription, lib/subscription/rate-limit-middleware.ts:17-21;
        // isModelAllowedForTier, ai-providers-config.ts:85-88). The demo user is no admin.
        if catalog.adminOnlyProviders.contains(judged.provider) { throw adminRestricted }
        if state.subscriptionTier == "free", !catalog.freeTierModels.contains(judged.model) {
            throw subscriptionRequired
        }
        guard let selectedProvider, let selectedModel else { return }
        state.aiSettings.select(provider: selectedProvider, model: selectedModel)
        if let pageID, var page = state.agents.page(pageID) {
            page.config.aiProvider = selectedProvider
            page.config.aiModel = selectedModel
            _ = state.agents.setConfig(pageID, page.config)
        }
    }

    /// The gates of the two routes that run an agent's own configuration, before anything is
    /// stored: the admin-only providers, then the credit gate, both judged on the pair that
    /// runs (resolveProviderModel). Neither route has the subscription gate: a free user's key
    /// runs an agent set to a paid model. `/api/v1/chat/completions`
    /// (apps/web/src/app/api/v1/chat/completions/route.ts:204-257; createAIProvider, the pair
    /// with the user's own as the fallback, provider-factory.ts:62-84, checks no tier) and
    /// consult (apps/web/src/app/api/ai/page-agents/consult/route.ts:265-293, the agent's pair
    /// alone). The twin's providers are all metered (isMeteringExempt only skips the credit
    /// gate for the admin-only one).
    static func admitAgentRun(_ agent: AgentDirectory.Page, userFallback: Bool, state: ServerState) throws {
        let catalog = state.aiSettings.catalog
        let provider = agent.config.aiProvider.isEmpty ? nil : agent.config.aiProvider
        let model = agent.config.aiModel.isEmpty ? nil : agent.config.aiModel
        let stored = userFallback ? state.aiSettings.current : AISettingsStore.Selection(provider: "", model: nil)
        if catalog.adminOnlyProviders.contains(resolve(provider, model, stored: stored, catalog: catalog).provider) {
            throw adminRestricted
        }
        try checkCredits(state)
    }

    /// createAdminRestrictedResponse (lib/subscription/rate-limit-middleware.ts:42-50).
    static var adminRestricted: Refusal {
        Refusal(Reply.json([
            "error": "Provider restricted", "message": "This provider is restricted to administrators.",
        ], status: .forbidden))
    }

    /// createSubscriptionRequiredResponse (lib/subscription/rate-limit-middleware.ts:26-35).
    static var subscriptionRequired: Refusal {
        var refusal = JSONObject()
        refusal["error"] = "Subscription required"
        refusal["message"] = "This model is available on paid plans. Upgrade to access the full model catalog."
        refusal["upgradeUrl"] = "/settings/plan"
        return Refusal(Reply.json(.object(refusal), status: .forbidden))
    }

    /// resolveProviderModel (ai-providers-config.ts:498-521): the request's pair when whole,
    /// else the stored pair when whole, else the default; a pair the catalog does not hold
    /// (but for the on-premise providers, whose models are found at run time) is the default.
    static func resolve(_ provider: String?, _ model: String?, stored: AISettingsStore.Selection,
                        catalog: ModelCatalog) -> (provider: String, model: String) {
        var pair = (provider: catalog.defaultProvider, model: catalog.defaultModel)
        if let provider, let model {
            pair = (provider, model)
        } else if !stored.provider.isEmpty, let model = stored.model, !model.isEmpty {
            pair = (stored.provider, model)
        }
        if !catalog.onpremProviders.contains(pair.provider), !catalog.isValidModel(pair.provider, pair.model) {
            pair = (catalog.defaultProvider, catalog.defaultModel)
        }
        return pair
    }
}
