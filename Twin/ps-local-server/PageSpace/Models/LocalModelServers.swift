import ArgumentParser

/// The Ollama and LM Studio servers this deployment runs with (OLLAMA_BASE_URL and
/// LMSTUDIO_BASE_URL, apps/web/src/lib/ai/core/ai-utils.ts getManagedProviderKey), and what
/// they have. There are none here: `--local-models` says how the routes answer, as if they
/// were there and reachable, there but down, or not configured at all.
enum LocalModelServers: String, ExpressibleByArgument, CaseIterable, Sendable {
    case reachable, unreachable, unconfigured

    var isConfigured: Bool { self != .unconfigured }

    static let ollamaBaseURL = "http://localhost:11434"
    static let lmStudioBaseURL = "http://localhost:1234/v1"

    /// The `name`s of Ollama's `GET /api/tags` `models`, in its order.
    static let ollamaTags = ["llama3.2:latest", "qwen2.5-coder:7b", "llava:13b"]
    /// The `id`s of LM Studio's OpenAI-compatible `GET /v1/models` `data`, in its order.
    static let lmStudioModelIDs = ["qwen2.5-7b-instruct", "google/gemma-3-12b", "text-embedding-nomic-embed-text-v1.5"]
}
