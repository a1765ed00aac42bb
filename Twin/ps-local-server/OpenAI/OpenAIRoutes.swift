import Hummingbird
import PSCore

/// The openai dialect: a plain OpenAI-compatible server, as Ollama or llama.cpp serve one.
/// No credential is asked for (a bearer token, if sent, is accepted), nothing is stored,
/// errors come in OpenAI's shape. The reply is ReplyScript's, so the faults and keywords
/// work as on the PageSpace routes.
struct OpenAIRoutes {
    let state: ServerState

    /// The models served; any of them gives the same scripted replies.
    static let models = ["ps-demo", "ps-demo-mini"]
    /// When the models were "made" (seconds since 1970).
    static let modelsCreated = Timestamp.seedEpoch / Timestamp.second

    func register(on router: Router<ServerContext>) {
        let auth = state.authenticator

        // Follows OpenAI's GET /v1/models (https://platform.openai.com/docs/api-reference/models/list).
        router.get("/v1/models") { request, _ in
            _ = try auth.require(request, scope: .anyToken)
            return Reply.json(["object": "list", "data": .array(Self.models.map(Self.modelJSON))])
        }
        router.get("/v1/models/:model") { request, context in
            _ = try auth.require(request, scope: .anyToken)
            let model = context.parameters.get("model") ?? ""
            guard Self.models.contains(model) else { throw OpenAIError.unknownModel(model) }
            return Reply.json(Self.modelJSON(model))
        }

        // Follows OpenAI's POST /v1/chat/completions (https://platform.openai.com/docs/api-reference/chat/create).
        router.post("/v1/chat/completions") { request, context in
            _ = try auth.require(request, scope: .anyToken)
            var request = request
            guard let body = try await request.jsonBodyIfValid() else {
                throw OpenAIError.invalid("We could not parse the JSON body of your request. The API expects a JSON payload.")
            }
            let chat = try ChatRequest(body, knownModels: Self.models)
            let segments = chat.segments(callID: Identifiers.random(prefix: "call_", bytes: 12))
            let script = OpenAIChunks(
                id: Identifiers.random(prefix: "chatcmpl-"), model: chat.model,
                created: Timestamp.now() / Timestamp.second, includeUsage: chat.includeUsage)
            let promptTokens = OpenAIChunks.tokens(chat.promptText)
            let pacing = ReplyGeneration.Pacing(paceMs: state.paceMs, slow: state.faults.takeSlow())
            let drop = state.faults.takeDrop()
            let chunks = script.chunks(for: segments, promptTokens: promptTokens)

            guard chat.stream else {
                // The whole answer once the stream would have ended; the cut fault closes
                // the connection without one.
                let perChunk = pacing.paceMs + (pacing.slow?.pauseMs ?? 0)
                if perChunk > 0 { try? await Task.sleep(for: .milliseconds(perChunk * (chunks.count - 1))) }
                if drop != nil, drop?.clean == false {
                    try? await context.channel.close()
                    throw ConnectionDropped()
                }
                return Reply.json(script.completion(for: segments, promptTokens: promptTokens))
            }
            let generation = ReplyGeneration(
                streamID: Identifiers.random(prefix: "stream_"), messageID: "", conversationID: "")
            Task { await generation.run(chunks: chunks, pacing: pacing) { _ in } }
            return CompletionStream.response(generation, mapper: PassThroughChunks(), drop: drop)
        }
    }

    static func modelJSON(_ id: String) -> JSON {
        ["id": .string(id), "object": "model", "created": .integer(modelsCreated), "owned_by": "ps-local-server"]
    }
}
