import Foundation
import Hummingbird
import PSCore

/// The models of the deployment's Ollama and LM Studio, as the current server reports them,
/// from `--local-models` (LocalModelServers) instead of fetching them.
struct LocalModelRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        let auth = state.authenticator
        let servers = state.localModels

        // apps/web/src/app/api/ai/ollama/models/route.ts: authenticateSessionRequest, then the base URL.
        router.get("/api/ai/ollama/models") { request, _ in
            _ = try auth.require(request, scope: .sessionRequest)
            guard servers.isConfigured else { throw Self.notConfigured("Ollama") }
            let baseURL = LocalModelServers.ollamaBaseURL
            guard servers == .reachable else {
                // Still a 200: the route offers fallback models.
                return Self.unreachable(
                    "Could not connect to Ollama at \(baseURL). Using fallback models.",
                    models: Self.ollamaFallback, baseURL: baseURL, isFallback: true)
            }
            return Self.found(LocalModelServers.ollamaTags.map { ($0, Self.ollamaDisplayName($0)) }, baseURL: baseURL)
        }

        // apps/web/src/app/api/ai/lmstudio/models/route.ts: the same, with no fallback models.
        router.get("/api/ai/lmstudio/models") { request, _ in
            _ = try auth.require(request, scope: .sessionRequest)
            guard servers.isConfigured else { throw Self.notConfigured("LM Studio") }
            let baseURL = LocalModelServers.lmStudioBaseURL
            guard servers == .reachable else {
                return Self.unreachable(
                    "Could not connect to LM Studio at \(baseURL). Please ensure LM Studio server is running.",
                    models: [], baseURL: baseURL, isFallback: false)
            }
            return Self.found(LocalModelServers.lmStudioModelIDs.map { ($0, Self.lmStudioDisplayName($0)) }, baseURL: baseURL)
        }
    }

    /// `{success:true, models:{ID: name}, baseUrl, modelCount}`.
    /// The 200 a route answers when its server cannot be reached: `success:false`, the
    /// route's words, and the models it falls back on (Ollama's) or none (LM Studio's).
    private static func unreachable(_ error: String, models: [(String, String)], baseURL: String, isFallback: Bool) -> Response {
        var answer = JSONObject()
        answer["success"] = false
        answer["error"] = .string(error)
        answer["models"] = .object(JSONObject(models.map { ($0, .string($1)) }))
        answer["baseUrl"] = .string(baseURL)
        if isFallback { answer["isFallback"] = true }
        return Reply.json(.object(answer))
    }

    private static func found(_ models: [(String, String)], baseURL: String) -> Response {
        var answer = JSONObject()
        answer["success"] = true
        answer["models"] = .object(JSONObject(models.map { ($0, .string($1)) }))
        answer["baseUrl"] = .string(baseURL)
        answer["modelCount"] = .integer(Int64(models.count))
        return Reply.json(.object(answer))
    }

    private static func notConfigured(_ name: String) -> Refusal {
        Refusal(Reply.json(
            ["success": false, "error": .string("\(name) is not configured on this deployment."), "models": .object(JSONObject())],
            status: .serviceUnavailable))
    }

    /// "llama3.2:latest" → "Llama3.2", "qwen2.5-coder:7b" → "Qwen2.5-coder 7b": `:latest` off
    /// the end, colons to spaces, the first letter upper case.
    static func ollamaDisplayName(_ name: String) -> String {
        var shown = name.hasSuffix(":latest") ? String(name.dropLast(":latest".count)) : name
        shown = shown.replacingOccurrences(of: ":", with: " ")
        return shown.prefix(1).uppercased() + shown.dropFirst()
    }

    /// "qwen2.5-7b-instruct" → "Qwen2.5 7b Instruct": `_` and `-` to spaces, each word's first
    /// letter upper case.
    static func lmStudioDisplayName(_ id: String) -> String {
        let spaced = id.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
        return spaced.split(separator: " ", omittingEmptySubsequences: false)
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    /// The route's own list, answered when Ollama does not.
    static let ollamaFallback: [(String, String)] = [
        ("llama3.2:latest", "Llama 3.2"), ("llama3.2:3b", "Llama 3.2 3B"), ("llama3.1:latest", "Llama 3.1 8B"),
        ("codellama:latest", "Code Llama"), ("mistral:latest", "Mistral 7B"), ("qwen2.5:latest", "Qwen 2.5"),
        ("qwen2.5-coder:latest", "Qwen 2.5 Coder"), ("gemma2:latest", "Gemma 2"), ("phi3:latest", "Phi-3"),
    ]
}
