/// What the demo deployment can run (isProviderAvailable): every cloud provider (they are all
/// OpenRouter-backed, and it has an OpenRouter key) and the admin-only `glm` (it has a Z.ai
/// key), Ollama and LM Studio when it has their addresses, never Azure OpenAI (no endpoint).
extension ModelCatalog {
    func availableProviders(_ localModels: LocalModelServers) -> Set<String> {
        let cloud = providerIDs.filter { !hasNoModelList($0) }
        return Set(cloud).union(localModels.isConfigured ? dynamicProviders : [])
    }
}
