import PSCore

/// What the late-2025 settings route (apps/web/src/app/api/ai/settings/route.ts at 458264c5b)
/// says about providers, read by scripts/model-catalog.py into model-catalog.json's
/// `legacy.settings`: the providers GET reports, each with `hasApiKey` or `hasBaseUrl`
/// (route.ts:80-117); those POST saves a key or base URL for, with their names (route.ts:143,
/// 192-201); those PATCH may select (route.ts:241).
struct LegacySettingsCatalog: Sendable {
    struct Reported: Sendable {
        let id: String
        /// "hasApiKey", or "hasBaseUrl" for Ollama and LM Studio.
        let flag: String
    }

    let reported: [Reported]
    let keyProviders: [String]
    let keyProviderNames: [String: String]
    let selectableProviders: [String]

    static let file = LegacySettingsCatalog(ModelCatalog.file("legacy")["settings"] ?? .null)

    init(_ json: JSON) {
        reported = (json["reported"]?.arrayValue ?? []).compactMap { entry in
            guard let id = entry["id"]?.stringValue, let flag = entry["flag"]?.stringValue else { return nil }
            return Reported(id: id, flag: flag)
        }
        func strings(_ key: String) -> [String] { (json[key]?.arrayValue ?? []).compactMap(\.stringValue) }
        keyProviders = strings("keyProviders")
        selectableProviders = strings("selectableProviders")
        var names: [String: String] = [:]
        for (id, name) in json["keyProviderNames"]?.objectValue ?? JSONObject() { names[id] = name.stringValue }
        keyProviderNames = names
    }
}
