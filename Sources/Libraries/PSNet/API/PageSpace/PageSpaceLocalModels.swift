import PSCore

// The current PageSpace API's view of the deployment's Ollama and LM Studio:
// `GET /api/ai/ollama/models` (apps/web/src/app/api/ai/ollama/models/route.ts) and
// `GET /api/ai/lmstudio/models` (apps/web/src/app/api/ai/lmstudio/models/route.ts), a browser
// session only (authenticateSessionRequest refuses MCP keys and OAuth tokens).
extension PageSpaceAdapter: LocalModelListing {
    /// `{success:true, models:{ID: display name}, baseUrl, modelCount}`, in the model server's
    /// order. A model server the backend cannot reach is still a 200: `{success:false, error,
    /// models, baseUrl}`, with a fallback list of the backend's for Ollama (`isFallback`) and
    /// none for LM Studio. 503: the deployment has no such server (a usage error here); 400:
    /// its address is one the backend refuses to fetch (a server error).
    public func listLocalModels(_ provider: LocalModelProvider) throws -> LocalModels {
        let path = "/api/ai/\(provider.rawValue)/models"
        let answer = try sessionOnly("list \(provider.displayName)'s models") { () throws -> JSON in
            var request = client.request("GET", path)
            request.statusIsFinal = true  // its 503 says the deployment has no such server
            let response = try client.response(request)
            let words = ErrorBody(response.body).summary.map(TerminalSafeText.sanitize) ?? "status \(response.status)"
            switch response.status {
            case 503: throw ToolError(.usage, "the server has no \(provider.displayName): \(words)")
            case 400: throw ToolError(.serverError, "the server will not ask its \(provider.displayName): \(words) (GET \(path))")
            default: return try client.json(request, response: response)
            }
        }
        guard let models = answer["models"]?.objectValue else {
            throw ToolError(.serverError, "GET \(path): the answer has no models object")
        }
        let listed = models.compactMap { id, name -> ModelInfo? in
            id.isEmpty ? nil : ModelInfo(id: id, ownedBy: provider.rawValue, name: name.stringValue)
        }
        guard answer["success"]?.boolValue == false else { return LocalModels(models: listed) }
        let words = answer["error"]?.stringValue.map(TerminalSafeText.sanitize)
        return LocalModels(models: listed, unreachable: words ?? "the server cannot reach \(provider.displayName)")
    }
}
