import Foundation
import PSCore

/// The providers and models the server offers, read from model-catalog.json (beside this file), which
/// scripts/model-catalog.py writes from a PageSpace checkout (AI_PROVIDERS and its sets in
/// apps/web/src/lib/ai/core/ai-providers-config.ts, ALL_PROVIDER_NAMES in ai-utils.ts:62-85,
/// the default pair in packages/lib/src/ai/model-defaults.ts:6-7), one generation per dialect.
struct ModelCatalog: Sendable {
    /// Provider ids in AI_PROVIDERS' order, with their display names and model ids.
    let providerIDs: [String]
    let displayNames: [String: String]
    let models: [String: [String]]
    /// Each model's display name (the value of its AI_PROVIDERS entry), by model id.
    let modelNames: [String: String]
    /// ALL_PROVIDER_NAMES: what PATCH /api/ai/settings accepts (the current generation).
    let providerNames: [String]
    let defaultProvider: String
    let defaultModel: String
    let freeTierModels: Set<String>
    let adminOnlyProviders: Set<String>
    /// DYNAMIC_MODEL_PROVIDERS (ollama, lmstudio): models found at run time.
    let dynamicProviders: Set<String>
    /// DYNAMIC_CATALOG_PROVIDERS (isDynamicModelProvider, ai-providers-config.ts:440-448): those
    /// and azure_openai; /api/ai/models calls them dynamic.
    let dynamicCatalogProviders: Set<String>
    /// ONPREM_ALLOWED_PROVIDERS: PATCH skips the model check for these too (azure_openai).
    let onpremProviders: Set<String>
    /// MODEL_CONTEXT_WINDOWS (packages/lib/src/monitoring/ai-monitoring.ts) of the models that
    /// have one, where the catalog route gives them (the current generation).
    let contextWindows: [String: Int64]
    let commit: String

    /// Today's server (the pagespace dialect).
    static let current = load("current")
    /// The late-2025 server (the pagespace-legacy dialect).
    static let legacy = load("legacy")

    init(_ json: JSON) {
        let providers = json["providers"]?.objectValue ?? JSONObject()
        providerIDs = providers.keys
        var names: [String: String] = [:], models: [String: [String]] = [:], modelNames: [String: String] = [:]
        for (id, provider) in providers {
            names[id] = provider["name"]?.stringValue ?? id
            models[id] = (provider["models"]?.arrayValue ?? []).compactMap(\.stringValue)
            for (model, name) in provider["modelNames"]?.objectValue ?? JSONObject() {
                modelNames[model] = name.stringValue
            }
        }
        displayNames = names
        self.models = models
        self.modelNames = modelNames
        func strings(_ key: String) -> [String] { (json[key]?.arrayValue ?? []).compactMap(\.stringValue) }
        providerNames = json["providerNames"] == nil ? providerIDs : strings("providerNames")
        defaultProvider = json["defaultProvider"]?.stringValue ?? ""
        defaultModel = json["defaultModel"]?.stringValue ?? ""
        freeTierModels = Set(strings("freeTierModels"))
        adminOnlyProviders = Set(strings("adminOnlyProviders"))
        dynamicProviders = json["dynamicModelProviders"] == nil ? ["ollama", "lmstudio"] : Set(strings("dynamicModelProviders"))
        dynamicCatalogProviders = json["dynamicCatalogProviders"] == nil ? dynamicProviders : Set(strings("dynamicCatalogProviders"))
        onpremProviders = Set(strings("onpremProviders"))
        contextWindows = (json["contextWindows"]?.objectValue ?? JSONObject()).reduce(into: [:]) { windows, entry in
            if let size = entry.1.intValue { windows[entry.0] = size }
        }
        commit = json["commit"]?.stringValue ?? ""
    }

    /// One generation of the catalog file; an empty catalog if the file is missing (a broken build).
    static func load(_ generation: String) -> ModelCatalog { ModelCatalog(file(generation)) }

    /// One generation's part of model-catalog.json, or an empty object.
    static func file(_ generation: String) -> JSON {
        guard let url = Bundle.module.url(forResource: "model-catalog", withExtension: "json"),
              let data = try? Data(contentsOf: url), let json = try? JSON.parse(bytes: Array(data))
        else { return .object(JSONObject()) }
        return json[generation] ?? .object(JSONObject())
    }

    func isValidModel(_ provider: String, _ model: String) -> Bool { models[provider]?.contains(model) == true }

    /// isDynamicModelProvider (ai-providers-config.ts:446): Ollama, LM Studio and Azure OpenAI,
    /// whose models no static list holds.
    func hasNoModelList(_ provider: String) -> Bool { dynamicProviders.contains(provider) || onpremProviders.contains(provider) }

    /// validateAgentModelSelection (ai-providers-config.ts:460-486): why the pair is refused,
    /// or nil when it is fine (empty means unset).
    func refusal(provider: String, model: String) -> String? {
        if provider.isEmpty && model.isEmpty { return nil }
        if !model.isEmpty && provider.isEmpty { return "Set an AI provider alongside model \"\(model)\"." }
        if models[provider] == nil { return "Unknown or unavailable AI provider \"\(provider)\"." }
        if hasNoModelList(provider) { return nil }
        if !model.isEmpty && !isValidModel(provider, model) {
            return "Model \"\(model)\" is not a valid model for provider \"\(provider)\"."
        }
        return nil
    }
}
