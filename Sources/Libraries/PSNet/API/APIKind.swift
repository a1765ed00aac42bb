import ArgumentParser

/// Which API a server speaks. Adding a backend is adding a case here and one adapter
/// (see `APIAdapter` and `APIAdapters.make`).
public enum APIKind: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// The current PageSpace API: opaque tokens, `/api/ai/global/*`, AI SDK v6 streams.
    case pagespace
    /// PageSpace's API of late 2025: JWT login with CSRF, `/api/ai_conversations/*`.
    case pagespaceLegacy = "pagespace-legacy"
    /// Any OpenAI-compatible server: `/chat/completions` streams, `/models`; the client keeps
    /// the conversations. The profile's server is the API's base URL (ending in `/v1`).
    case openai
    /// Lucid: a stateful backend that keeps users, conversations, facts and summaries;
    /// `/v1/...` JSON routes, no credential (the user is named by id in each request).
    case lucid
    /// The Gemini CLI's mobile API: Firebase ID tokens, `/conversations` with named SSE events
    /// (token, thought, tool-call, tool-result, done), `/settings`. The profile's server is the
    /// API's base URL (ending in `/api/v1`).
    case gemini

    /// Whether a message can be sent without a credential (a local model server needs none).
    public var credentialOptional: Bool { self == .openai || self == .lucid }

    /// Whether this API's tokens are JWTs (then a JWT does not say which API issued it).
    public var takesJWTs: Bool { self == .pagespaceLegacy || self == .gemini }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }

    /// What a token's shape tells about the API that issued it, if anything.
    public static func guess(fromToken token: String) -> APIKind? {
        if token.hasPrefix("ps_sess_") || token.hasPrefix("mcp_") || token.hasPrefix("ps_at_") { return .pagespace }
        // A JWT: three base64url parts, the header starting {"  (eyJ).
        if token.hasPrefix("eyJ"), token.split(separator: ".", omittingEmptySubsequences: false).count == 3 {
            return .pagespaceLegacy
        }
        return nil
    }
}
