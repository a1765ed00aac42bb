/// The providers and models an agent may be set to, for validateAgentModelSelection
/// (apps/web/src/lib/ai/core/ai-providers-config.ts): a model needs a provider, the provider
/// must be one the server offers, and the model one of that provider's (except for
/// providers whose models are found at run time, such as Ollama).
enum ModelCatalog {
    static let models: [String: [String]] = [
        "pagespace": ["glm-4.5-air", "glm-4.6"],
        "openrouter": ["anthropic/claude-sonnet-4.5", "openai/gpt-4o"],
        "google": ["gemini-2.5-flash", "gemini-2.5-pro"],
        "openai": ["gpt-4o", "gpt-4o-mini"],
        "anthropic": ["claude-sonnet-4-5", "claude-opus-4-1"],
    ]
    static let dynamicProviders: Set<String> = ["ollama", "lmstudio"]

    /// Why the pair is refused, or nil when it is fine (empty means unset).
    static func refusal(provider: String, model: String) -> String? {
        if provider.isEmpty && model.isEmpty { return nil }
        if !model.isEmpty && provider.isEmpty { return "Set an AI provider alongside model \"\(model)\"." }
        if models[provider] == nil && !dynamicProviders.contains(provider) {
            return "Unknown or unavailable AI provider \"\(provider)\"."
        }
        if dynamicProviders.contains(provider) { return nil }
        if !model.isEmpty && models[provider]?.contains(model) != true {
            return "Model \"\(model)\" is not a valid model for provider \"\(provider)\"."
        }
        return nil
    }
}
