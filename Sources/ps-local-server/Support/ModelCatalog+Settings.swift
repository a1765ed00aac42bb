/// What the current server says about its providers beyond the agent check: their order
/// (ALL_PROVIDER_NAMES), display names, which this deployment can run, the default pair and
/// the models a free account may pick (apps/web/src/lib/ai/core/ai-providers-config.ts).
extension ModelCatalog {
    static let providerOrder = ["pagespace", "openrouter", "google", "openai", "anthropic", "ollama", "lmstudio"]
    static let displayNames = [
        "pagespace": "PageSpace", "openrouter": "OpenRouter", "google": "Google", "openai": "OpenAI",
        "anthropic": "Anthropic", "ollama": "Ollama (Local)", "lmstudio": "LM Studio (Local)",
    ]
    /// The providers this deployment has keys for (isProviderAvailable), and Ollama and LM
    /// Studio when it has their addresses.
    static func availableProviders(_ localModels: LocalModelServers) -> Set<String> {
        localModels.isConfigured ? ["pagespace", "google", "ollama", "lmstudio"] : ["pagespace", "google"]
    }
    static let defaultProvider = "pagespace"
    static let defaultModel = "glm-4.5-air"
    /// FREE_TIER_MODELS: any other catalog model needs a paid plan (requiresProSubscription).
    static let freeTierModels: Set<String> = ["glm-4.5-air", "glm-4.6", "gemini-2.5-flash"]
    static let contextWindows = ["glm-4.5-air": 128_000, "glm-4.6": 200_000, "gemini-2.5-flash": 1_048_576]

    static func isValidModel(_ provider: String, _ model: String) -> Bool { models[provider]?.contains(model) == true }
}
