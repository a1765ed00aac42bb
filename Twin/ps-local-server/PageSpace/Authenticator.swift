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

    let dialect: Dialect
    /// The user's MCP keys (a revoked one no longer passes).
    let mcpKeys = MCPKeys()
    /// The late-2025 server's password logins.
    let legacyLogins: LegacyLogins
    /// OAuth access tokens handed out by the device flow → the scopes granted with them and
    /// when they expire (ms since 1970).
    private let oauthTokens = Mutex<[String: (scopes: [String], expires: Int64)]>([:])
    /// ACCESS_TOKEN_TTL_SECONDS (packages/lib/src/auth/oauth/issue-tokens.ts:21, 36: 15 minutes).
    let oauthAccessSeconds: Int64

    init(dialect: Dialect, legacyLifetimes: LegacyLogins.Lifetimes = .init(), oauthAccessSeconds: Int64 = 15 * 60) {
        self.dialect = dialect
        legacyLogins = LegacyLogins(lifetimes: legacyLifetimes)
        self.oauthAccessSeconds = oauthAccessSeconds
    }

    func require(_ request: Request, scope: Scope) throws -> Credential {
        let token = Authenticator.bearerToken(request)
        switch dialect {
        case .pagespace: return try requireCurrent(token: token, scope: scope)
        case .legacy:
            return try legacyLogins.require(
                request, bearer: token, allowMCP: scope == .sessionOrMCP || scope == .anyToken, mcpKeys: mcpKeys)
        case .openai, .lucid: return .anonymous
        case .gemini:
            try GeminiAuth.require(request)
            return .anonymous
        }
    }

    /// `Authorization: Bearer TOKEN`, the prefix matched case-sensitively as getBearerToken
    /// does (apps/web/src/lib/auth/index.ts:127-133): "bearer x" is no bearer token at all.
    static func bearerToken(_ request: Request) -> String? {
        guard let value = request.headers[.authorization], value.hasPrefix("Bearer ") else { return nil }
        let token = String(value.dropFirst(7))
        return token.isEmpty ? nil : token
    }

    /// authenticateRequestWithOptions (apps/web/src/lib/auth/index.ts:539-622) and the
    /// functions it calls. No credential at all rarely gets here: the middleware answers it
    /// first, in plain text, except on its public paths (EdgeGate).
    private func requireCurrent(token: String?, scope: Scope) throws -> Credential {
        if scope == .mcpOnly { return try requireMCPOnly(token: token) }
        // authenticateSessionRequest with no bearer and no cookie (index.ts:491-495).
        guard let token else { throw Refusal(status: .unauthorized, error: "Authentication required") }
        if token.hasPrefix("mcp_") {
            guard scope == .sessionOrMCP || scope == .anyToken else {
                throw Refusal(status: .unauthorized, error: "MCP tokens are not permitted for this endpoint")
            }
            // authenticateMCPRequest (index.ts:411-431).
            guard let key = mcpKeys.key(token) else { throw Refusal(status: .unauthorized, error: "Invalid MCP token") }
            return .mcpKey(drives: key.driveIDs)
        }
        if token.hasPrefix("ps_at_") {
            guard scope != .sessionRequest else { throw Refusal(status: .unauthorized, error: "Invalid token format") }
            guard scope == .sessionOrOAuth || scope == .anyToken else {
                throw Refusal(status: .unauthorized, error: "OAuth tokens are not permitted for this endpoint")
            }
            // authenticateOAuthRequest (index.ts:433-453).
            guard validOAuthToken(token) else { throw Refusal(status: .unauthorized, error: "Invalid OAuth access token") }
            return .oauth
        }
        if token.hasPrefix("ps_sess_") {
            // index.ts:468-481.
            guard token == SeedData.sessionToken else {
                throw Refusal(status: .unauthorized, error: "Invalid or expired session")
            }
            return .session
        }
        throw Refusal(status: .unauthorized, error: "Invalid token format")  // index.ts:484
    }

    /// validateOAuthAccessToken (index.ts:279-372): a token this server issued, not expired
    /// (:310-312), whose stored scopes parse (an empty list is `empty_scope`) and carry no
    /// all_drives, update_key or activate_key. Anything else resolves to nobody.
    private func validOAuthToken(_ token: String) -> Bool {
        guard let issued = oauthTokens.withLock({ $0[token] }), issued.expires > Timestamp.now(),
              case .success(let parsed) = ScopeList.parse(issued.scopes.joined(separator: " "))
        else { return false }
        return parsed.updateKeyID == nil && parsed.activateKeyID == nil && !parsed.allDrives
    }

    /// authenticateRequestWithOptions with `allow: ['mcp']`: an OAuth token is named and
    /// refused, anything else that is not an MCP key (a session token) gets
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

    /// getAllowedDriveIds (apps/web/src/lib/auth/index.ts:756-773): a scoped MCP key's drives;
    /// empty (every drive) for any other credential and for an unscoped key.
    static func allowedDrives(_ credential: Credential) -> [String] {
        if case .mcpKey(let drives) = credential { return drives }
        return []
    }

    /// An access token for a device grant of `scopes` (oauth-repository.ts pollDeviceToken
    /// stores the grant's scopes with it).
    func issueOAuthToken(scopes: [String]) -> String {
        let token = Identifiers.random(prefix: "ps_at_", bytes: 24)
        oauthTokens.withLock { $0[token] = (scopes, Timestamp.now() + oauthAccessSeconds * 1000) }
        return token
    }

    func issueMCPKey(name: String = "PageSpace CLI", driveIDs: [String] = []) -> String {
        mcpKeys.issue(name: name, driveIDs: driveIDs)
    }

    /// Ends access tokens (their grant was revoked).
    func revokeOAuthTokens(_ tokens: [String]) {
        oauthTokens.withLock { all in tokens.forEach { all[$0] = nil } }
    }
}
