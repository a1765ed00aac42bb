import ArgumentParser
import PSCore

/// Which server the process imitates: one of the two PageSpace generations, or a plain
/// OpenAI-compatible server. Everything that differs between them is decided here or in the
/// dialect's own route file, so the rest of the server is shared.
enum Dialect: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// The current server: opaque tokens, `/api/ai/global/*`, AI SDK v6 streams.
    case pagespace
    /// PageSpace as it ran in late 2025: JWT login, CSRF, `/api/ai_conversations/*`, AI SDK v5.
    case legacy = "pagespace-legacy"
    /// A plain OpenAI-compatible server (as Ollama or llama.cpp serve): `/v1/chat/completions`
    /// and `/v1/models`, no credential, no stored conversations.
    case openai
    /// Lucid (lucid-agent, an Express app), a stateful backend (users, conversations, facts,
    /// summaries): `/v1/...` JSON routes answered whole, `{"error"}` errors, no credential.
    case lucid
    /// The Gemini CLI's mobile API (an Express app): Firebase ID tokens, `/api/v1/conversations`,
    /// named SSE events (token, thought, tool-call, tool-result, done, error), `/api/v1/settings`.
    case gemini

    var isCurrent: Bool { self == .pagespace }

    /// What the URL line adds to `http://HOST:PORT` so that it is the server a profile needs:
    /// an OpenAI-compatible API's base URL ends in `/v1` (its routes are `/v1/chat/completions`
    /// and `/v1/models`); the other clients add their own paths.
    var profilePath: String {
        switch self {
        case .openai: "/v1"
        case .gemini: "/api/v1"
        default: ""
        }
    }

    /// Whether a status fault armed for `path` is the route's to report (in its stream) rather
    /// than the middleware's to answer with: the gemini dialect's messages stream has sent its
    /// 200 before the model can fail.
    func reportsStatusFaultInStream(path: String) -> Bool {
        self == .gemini && path.hasPrefix(GeminiRoutes.base + "/conversations/") && path.hasSuffix("/messages")
    }

    /// The JSON body each generation sends with an error status.
    func errorBody(for status: Int) -> JSON {
        if self == .openai { return OpenAIError.body(for: status) }
        if self == .lucid { return LucidError.body(for: status) }
        switch (status, self) {
        case (401, .pagespace): return ["error": "Authentication required"]
        case (401, .legacy): return ["error": "Unauthorized"]
        case (401, .gemini): return ["error": .string(GeminiAuth.invalidToken)]
        case (429, .gemini): return ["error": "Too many requests, please try again later."]
        case (402, _): return ["error": "out_of_credits", "message": "You have used all of your AI credits for this period."]
        case (403, .pagespace): return ["error": "You do not have permission to access this resource"]
        case (403, .legacy): return ["error": "No permission to send messages"]
        case (404, _): return ["error": "Conversation not found"]
        case (409, _): return ["error": "Message is still streaming"]
        case (429, .pagespace):
            return ["error": "too_many_in_flight", "message": "Too many requests are in flight for this user; try again shortly."]
        case (429, .legacy):
            return [
                "error": "Rate limit exceeded",
                "rateLimitInfo": [
                    "currentCount": 20, "limit": 20, "remainingCalls": 0,
                    "resetAt": .string(Timestamp.iso8601(Timestamp.startOfTomorrow())),
                ],
            ]
        case (500, _): return ["error": "Internal server error"]
        case (502, _): return ["error": "Bad gateway: the AI provider did not answer"]
        case (503, _): return ["error": "Service temporarily unavailable"]
        case (504, _): return ["error": "Gateway timeout"]
        default: return ["error": "Request failed"]
        }
    }
}
