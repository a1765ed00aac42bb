import Foundation
import HTTPTypes
import Hummingbird
import PSCore
import Synchronization

/// Who may call which route, per dialect (apps/web/src/lib/auth/index.ts on the current server;
/// JWT and CSRF on the legacy one; nothing at all on a plain OpenAI-compatible server).
final class Authenticator: Sendable {
    /// Which kinds of token a route takes on the current server (each route's `allow` list,
    /// apps/web/src/lib/auth/index.ts): session only (Global assistant, settings, abort,
    /// logout), session or MCP key (Page AI, agents), session or OAuth (who am I), or any
    /// of the three (reads such as GET /api/drives), or MCP key only (the OpenAI-compatible
    /// `/api/v1/*`, `allow: ['mcp']`). `sessionRequest` is authenticateSessionRequest called
    /// directly (Ollama's and LM Studio's models): session only too, but an OAuth token is
    /// no format it knows ("Invalid token format").
    enum Scope: Sendable { case sessionOnly, sessionRequest, sessionOrMCP, sessionOrOAuth, anyToken, mcpOnly }

    enum Credential: Sendable {
        case session
        /// An MCP key, with the drives it is scoped to (empty: every drive the user has).
        case mcpKey(drives: [String])
        case oauth
        case legacyJWT(token: String)
        /// The openai dialect: no credential asked for (a bearer token, if sent, is ignored).
        case anonymous
    }

    private struct State {
        /// OAuth access tokens handed out by the device flow.
        var oauthTokens: Set<String> = []
        /// Legacy logins handed out: JWT → its CSRF token.
        var legacyLogins: [String: String] = [:]
    }

    let dialect: Dialect
    /// The user's MCP keys (a revoked one no longer passes).
    let mcpKeys = MCPKeys()
    private let state = Mutex(State())

    init(dialect: Dialect) { self.dialect = dialect }

    func require(_ request: Request, scope: Scope) throws -> Credential {
        let token = Authenticator.bearerToken(request)
        switch dialect {
        case .pagespace: return try requireCurrent(token: token, scope: scope)
        case .legacy: return try requireLegacy(token: token, request: request)
        case .openai, .lucid: return .anonymous
        case .gemini:
            try GeminiAuth.require(request)
            return .anonymous
        }
    }

    /// `Authorization: Bearer TOKEN`, the prefix matched case-sensitively as getBearerToken
    /// does (apps/web/src/lib/auth/index.ts): "bearer x" is no bearer token at all.
    static func bearerToken(_ request: Request) -> String? {
        guard let value = request.headers[.authorization], value.hasPrefix("Bearer ") else { return nil }
        let token = String(value.dropFirst(7))
        return token.isEmpty ? nil : token
    }

    private func requireCurrent(token: String?, scope: Scope) throws -> Credential {
        if scope == .mcpOnly { return try requireMCPOnly(token: token) }
        guard let token else { throw Refusal(Reply.text("Authentication required", status: .unauthorized)) }
        let unauthorized = Refusal(Reply.error(401, dialect: .pagespace))
        if token.hasPrefix("mcp_") {
            guard scope == .sessionOrMCP || scope == .anyToken else {
                throw Refusal(status: .unauthorized, error: "MCP tokens are not permitted for this endpoint")
            }
            guard let key = mcpKeys.key(token) else { throw unauthorized }
            return .mcpKey(drives: key.driveIDs)
        }
        if token.hasPrefix("ps_at_") {
            guard scope != .sessionRequest else { throw Refusal(status: .unauthorized, error: "Invalid token format") }
            guard scope == .sessionOrOAuth || scope == .anyToken else {
                throw Refusal(status: .unauthorized, error: "OAuth tokens are not permitted for this endpoint")
            }
            guard state.withLock({ $0.oauthTokens.contains(token) }) else {
                throw Refusal(status: .unauthorized, error: "Invalid OAuth access token")
            }
            return .oauth
        }
        if token.hasPrefix("ps_sess_") {
            guard token == SeedData.sessionToken else { throw unauthorized }
            return .session
        }
        throw Refusal(status: .unauthorized, error: "Invalid token format")
    }

    /// authenticateRequestWithOptions with `allow: ['mcp']`: an OAuth token is named and
    /// refused, anything else that is not an MCP key (no token, a session token) gets
    /// authenticateMCPRequest's "MCP token required", an unknown key "Invalid MCP token".
    private func requireMCPOnly(token: String?) throws -> Credential {
        if let token, token.hasPrefix("ps_at_") {
            throw Refusal(status: .unauthorized, error: "OAuth tokens are not permitted for this endpoint")
        }
        guard let token, token.hasPrefix("mcp_") else { throw Refusal(status: .unauthorized, error: "MCP token required") }
        guard let key = mcpKeys.key(token) else {
            throw Refusal(status: .unauthorized, error: "Invalid MCP token")
        }
        return .mcpKey(drives: key.driveIDs)
    }

    private func requireLegacy(token: String?, request: Request) throws -> Credential {
        guard let token else { throw Refusal(Reply.error(401, dialect: .legacy)) }
        if token == SeedData.mcpKey { return .mcpKey(drives: []) }  // MCP keys skip CSRF: they are not cookies.
        guard let csrf = state.withLock({ $0.legacyLogins[token] }) else {
            throw Refusal(Reply.error(401, dialect: .legacy))
        }
        if request.method != .get && request.method != .head {
            guard let sent = request.headers[HTTPField.Name("X-CSRF-Token")!] else {
                throw Refusal(status: .forbidden, error: "CSRF token missing", code: "CSRF_TOKEN_MISSING")
            }
            guard sent == csrf else {
                throw Refusal(status: .forbidden, error: "Invalid CSRF token", code: "CSRF_TOKEN_INVALID")
            }
        }
        return .legacyJWT(token: token)
    }

    /// getAllowedDriveIds (apps/web/src/lib/auth/index.ts:756-773): a scoped MCP key's drives;
    /// empty (every drive) for any other credential and for an unscoped key.
    static func allowedDrives(_ credential: Credential) -> [String] {
        if case .mcpKey(let drives) = credential { return drives }
        return []
    }

    /// Legacy password login: a fresh JWT-looking token with its CSRF and device tokens.
    func legacyLogin(email: String, password: String) -> JSON? {
        guard email.lowercased() == SeedData.email, password == SeedData.password else { return nil }
        let issued = Timestamp.now() / Timestamp.second
        let header: JSON = ["alg": "HS256", "typ": "JWT"]
        let payload: JSON = [
            "userId": .string(SeedData.userID), "tokenVersion": 0, "iat": .integer(issued),
            "exp": .integer(issued + 15 * 60), "jti": .string(Identifiers.randomHex(8)),
        ]
        let token = [header, payload].map { Identifiers.base64URL(Array($0.serialized().utf8)) }.joined(separator: ".")
            + "." + Identifiers.base64URL((0..<32).map { _ in UInt8.random(in: 0...255) })
        let csrf = Identifiers.randomHex(32)
        state.withLock { $0.legacyLogins[token] = csrf }
        return [
            "user": SeedData.user, "token": .string(token), "csrfToken": .string(csrf),
            "deviceToken": .string(Identifiers.random(prefix: "dev_", bytes: 16)),
        ]
    }

    func issueOAuthToken() -> String {
        let token = Identifiers.random(prefix: "ps_at_", bytes: 24)
        state.withLock { _ = $0.oauthTokens.insert(token) }
        return token
    }

    func issueMCPKey(name: String = "PageSpace CLI", driveIDs: [String] = []) -> String {
        mcpKeys.issue(name: name, driveIDs: driveIDs)
    }

    /// Ends access tokens (their grant was revoked).
    func revokeOAuthTokens(_ tokens: [String]) {
        state.withLock { state in tokens.forEach { state.oauthTokens.remove($0) } }
    }
}
