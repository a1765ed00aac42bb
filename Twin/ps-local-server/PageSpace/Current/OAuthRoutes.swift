import Foundation
import Hummingbird
import PSCore

/// The OAuth device flow of the current server: the discovery document
/// (apps/web/src/app/api/well-known/oauth-authorization-server/route.ts, built by
/// packages/lib/src/auth/oauth/metadata.ts), the device authorization
/// (apps/web/src/app/api/oauth/device_authorization/route.ts) and the token endpoint's
/// device-code grant (apps/web/src/app/api/oauth/token/route.ts). A pure drive grant with a
/// name is answered with an MCP key, any other with an OAuth access token (and a refresh
/// token when `offline_access` was granted, which the refresh-token grant rotates). Errors are
/// `{error}`, no-store.
struct OAuthRoutes {
    let state: ServerState

    static let clientID = "pagespace-cli"
    /// DEVICE_CODE_TTL_SECONDS (packages/lib/src/auth/oauth/code-lifecycle.ts:28).
    static let deviceCodeSeconds = 1800
    /// ACCESS_TOKEN_TTL_SECONDS (packages/lib/src/auth/oauth/issue-tokens.ts:21).
    /// USER_CODE_ALPHABET (packages/lib/src/auth/oauth/user-code.ts).
    static let userCodeAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    func register(on router: Router<ServerContext>) {
        // metadata.ts:10-23,57-72; route.ts:12-21 (the issuer is the deployment's URL: here, this server).
        router.get("/.well-known/oauth-authorization-server") { request, _ in
            let issuer = "http://" + (request.head.authority ?? "127.0.0.1")
            return Reply.json([
                "issuer": .string(issuer),
                "authorization_endpoint": .string(issuer + "/api/oauth/authorize"),
                "token_endpoint": .string(issuer + "/api/oauth/token"),
                "device_authorization_endpoint": .string(issuer + "/api/oauth/device_authorization"),
                "revocation_endpoint": .string(issuer + "/api/oauth/revoke"),
                "grant_types_supported": ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
                "response_types_supported": ["code"],
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["none"],
                "scopes_supported": ["account", "offline_access", "manage_keys", "drive:*"],
            ], headers: [.cacheControl: "public, max-age=300, s-maxage=300"])
        }
        // device_authorization/route.ts:25-139.
        router.post("/api/oauth/device_authorization") { request, _ in
            guard Self.isForm(request) else { return Self.error("invalid_request") }
            var request = request
            let form = try await request.formBody()
            guard let client = form["client_id"], !client.isEmpty else { return Self.error("invalid_request") }
            guard client == Self.clientID else { return Self.error("invalid_client") }
            var scopes: [String] = []
            if let raw = form["scope"], !raw.isEmpty {  // route.ts:52-99
                guard case .success(let parsed) = ScopeList.parse(raw), !parsed.allDrives,
                      !(parsed.isPureDriveGrant && parsed.newKeyName == nil)
                else { return Self.error("invalid_scope") }
                scopes = parsed.formatted
            }
            let code = state.deviceGrants.start(scope: scopes)
            let userCode = Self.userCode()
            let issuer = "http://" + (request.head.authority ?? "127.0.0.1")
            return Reply.json([
                "device_code": .string(code), "user_code": .string(userCode),
                "verification_uri": .string(issuer + "/activate"),
                "verification_uri_complete": .string(issuer + "/activate?user_code=" + ScopeList.encodeURIComponent(userCode)),
                "expires_in": .integer(Int64(Self.deviceCodeSeconds)), "interval": .integer(Int64(state.deviceGrants.interval)),
            ], headers: [.cacheControl: "no-store"])
        }
        // token/route.ts:457-477 (POST), 419-455 (the device-code grant) and 287-322 (the
        // authorization-code grant).
        router.post("/api/oauth/token") { request, _ in
            guard Self.isForm(request) else { return Self.error("invalid_request") }
            var request = request
            let form = try await request.formBody()
            if form["grant_type"] == "refresh_token" { return refresh(form) }
            if form["grant_type"] == "authorization_code" { return exchangeCode(form) }
            guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code" else {
                return Self.error("unsupported_grant_type")
            }
            guard let code = form["device_code"], !code.isEmpty, let client = form["client_id"], !client.isEmpty else {
                return Self.error("invalid_request")
            }
            // resolveClient (route.ts:179-199): an unknown client is invalid_grant, a secret invalid_request.
            guard client == Self.clientID else { return Self.error("invalid_grant") }
            guard (form["client_secret"] ?? "").isEmpty else { return Self.error("invalid_request") }
            switch state.deviceGrants.poll(code) {
            case .pending: return Self.error("authorization_pending")
            case .slowDown: return Self.error("slow_down")
            case .denied: return Self.error("access_denied")
            case .expired: return Self.error("expired_token")
            case .invalid: return Self.error("invalid_grant")
            case .approved(let scopes): return redeem(scopes)
            }
        }
    }

    /// pollDeviceToken's approved branch (apps/web/src/lib/repositories/oauth-repository.ts:822-882):
    /// a pure drive grant mints an MCP key (applyKeyGrant, route.ts:75-81's body); any other
    /// grant, an empty one included, an access token (route.ts:56-64), with a refresh token
    /// only for offline_access (issue-tokens.ts:69-95).
    private func redeem(_ scopes: [String]) -> Response {
        let scopeText = JSON.string(scopes.joined(separator: " "))
        let parsed = try? ScopeList.parse(scopes.joined(separator: " ")).get()
        if parsed?.allDrives == true { return Self.error("invalid_grant") }  // all_drives_unsupported
        if let parsed, parsed.isPureDriveGrant {
            let name = parsed.newKeyName ?? "PageSpace CLI"
            let key = state.authenticator.issueMCPKey(name: name, driveIDs: parsed.drives)
            state.grants.add(scopes: scopes, token: nil)
            return Reply.json(["access_token": .string(key), "token_type": "mcp", "scope": scopeText],
                              headers: [.cacheControl: "no-store"])
        }
        let token = state.authenticator.issueOAuthToken(scopes: scopes)
        let grantID = state.grants.add(scopes: scopes, token: token)
        return Self.tokenPair(access: token, seconds: state.authenticator.oauthAccessSeconds, scopes: scopes, refresh: { state.refreshTokens.issue(grantID: grantID, scopes: scopes) })
    }

    /// handleAuthorizationCodeGrant (token/route.ts:287-322): the four fields, the client, then
    /// the exchange. This server runs no browser consent and issues no codes, so every
    /// exchange fails as one of an unknown code does: invalid_grant.
    private func exchangeCode(_ form: [String: String]) -> Response {
        for field in ["code", "redirect_uri", "client_id", "code_verifier"] where (form[field] ?? "").isEmpty {
            return Self.error("invalid_request")
        }
        guard form["client_id"] == Self.clientID else { return Self.error("invalid_grant") }
        guard (form["client_secret"] ?? "").isEmpty else { return Self.error("invalid_request") }
        return Self.error("invalid_grant")
    }

    /// handleRefreshTokenGrant (token/route.ts:333-379): both fields, the client, then the
    /// rotation; a refused token is invalid_grant whatever the reason, a wider scope invalid_scope.
    private func refresh(_ form: [String: String]) -> Response {
        guard let token = form["refresh_token"], !token.isEmpty, let client = form["client_id"], !client.isEmpty else {
            return Self.error("invalid_request")
        }
        guard client == Self.clientID else { return Self.error("invalid_grant") }
        guard (form["client_secret"] ?? "").isEmpty else { return Self.error("invalid_request") }
        switch state.refreshTokens.redeem(token, requestedScope: form["scope"], grantActive: state.grants.isActive) {
        case .invalidScope: return Self.error("invalid_scope")
        case .invalidGrant(let reused):
            // revokeTokenFamily on reuse: the grant and every access token under it end.
            if let reused, let tokens = state.grants.revokeFamily(reused) { state.authenticator.revokeOAuthTokens(tokens) }
            return Self.error("invalid_grant")
        case .rotate(let grantID, let scopes):
            let access = state.authenticator.issueOAuthToken(scopes: scopes)
            guard state.grants.rotated(grantID, token: access, scopes: scopes) else {
                state.authenticator.revokeOAuthTokens([access])
                return Self.error("invalid_grant")
            }
            return Self.tokenPair(access: access, seconds: state.authenticator.oauthAccessSeconds, scopes: scopes, refresh: { state.refreshTokens.issue(grantID: grantID, scopes: scopes) })
        }
    }

    /// tokenSuccessBody (token/route.ts:56-64): a refresh token only with offline_access
    /// (issue-tokens.ts:69-95); JSON.stringify drops an undefined one, so it is absent, not null.
    static func tokenPair(access: String, seconds: Int64, scopes: [String], refresh: () -> String) -> Response {
        var body = JSONObject()
        body["access_token"] = .string(access)
        body["token_type"] = "Bearer"
        body["expires_in"] = .integer(seconds)
        if scopes.contains("offline_access") { body["refresh_token"] = .string(refresh()) }
        body["scope"] = .string(scopes.joined(separator: " "))
        return Reply.json(.object(body), headers: [.cacheControl: "no-store"])
    }

    /// Both routes want a form body (device_authorization/route.ts:26-29, token/route.ts:458-461).
    static func isForm(_ request: Request) -> Bool {
        (request.headers[.contentType] ?? "").lowercased().contains("application/x-www-form-urlencoded")
    }

    /// generateUserCode (user-code.ts): 8 characters of the alphabet as XXXX-XXXX.
    static func userCode() -> String {
        let characters = (0..<8).map { _ in userCodeAlphabet[Int(UInt8.random(in: 0...255)) % userCodeAlphabet.count] }
        return String(characters[0..<4]) + "-" + String(characters[4...])
    }

    static func error(_ code: String) -> Response {
        Reply.json(["error": .string(code)], status: .badRequest, headers: [.cacheControl: "no-store"])
    }
}

extension Request {
    /// An `application/x-www-form-urlencoded` body as name → value (the first of each name).
    mutating func formBody() async throws -> [String: String] {
        let buffer = try await collectBody(upTo: 64 << 10)
        let text = String(decoding: buffer.readableBytesView, as: UTF8.self)
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if fields[parts[0]] == nil { fields[parts[0]] = parts.count > 1 ? parts[1] : "" }
        }
        return fields
    }
}
