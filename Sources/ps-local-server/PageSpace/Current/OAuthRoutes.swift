import Foundation
import Hummingbird
import PSCore

/// The OAuth device flow of the current server: the discovery document
/// (apps/web/src/app/api/well-known/oauth-authorization-server/route.ts), the device
/// authorization (apps/web/src/app/api/oauth/device_authorization/route.ts) and the token
/// endpoint's device-code grant (apps/web/src/app/api/oauth/token/route.ts). A drive-scoped
/// grant is answered with an MCP key, any other with an OAuth access token. Errors are
/// `{error}` with status 400, no-store.
struct OAuthRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        router.get("/.well-known/oauth-authorization-server") { request, _ in
            let issuer = "http://" + (request.head.authority ?? "127.0.0.1")
            return Reply.json([
                "issuer": .string(issuer),
                "authorization_endpoint": .string(issuer + "/api/oauth/authorize"),
                "token_endpoint": .string(issuer + "/api/oauth/token"),
                "device_authorization_endpoint": .string(issuer + "/api/oauth/device_authorization"),
                "revocation_endpoint": .string(issuer + "/api/oauth/revoke"),
                "grant_types_supported": ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
            ])
        }
        router.post("/api/oauth/device_authorization") { request, _ in
            var request = request
            let form = try await request.formBody()
            guard form["client_id"] == "pagespace-cli" else { return Self.error("invalid_client") }
            let scopes = (form["scope"] ?? "").split(separator: " ").map(String.init)
            let drives = scopes.filter { $0.hasPrefix("drive:") }
            if scopes.contains("all_drives") { return Self.error("invalid_scope") }
            if !drives.isEmpty && !scopes.contains(where: { $0.hasPrefix("name:") && $0.count > 5 }) {
                return Self.error("invalid_scope")
            }
            if !drives.isEmpty && scopes.contains(where: { ["account", "manage_keys", "offline_access"].contains($0) }) {
                return Self.error("invalid_scope")
            }
            let code = state.deviceGrants.start(scope: scopes)
            let userCode = String(Identifiers.randomHex(4).uppercased().prefix(4)) + "-"
                + String(Identifiers.randomHex(4).uppercased().prefix(4))
            let issuer = "http://" + (request.head.authority ?? "127.0.0.1")
            return Reply.json([
                "device_code": .string(code), "user_code": .string(userCode),
                "verification_uri": .string(issuer + "/activate"),
                "verification_uri_complete": .string(issuer + "/activate?user_code=" + userCode),
                "expires_in": 900, "interval": .integer(Int64(state.deviceGrants.interval)),
            ])
        }
        router.post("/api/oauth/token") { request, _ in
            var request = request
            let form = try await request.formBody()
            guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code" else {
                return Self.error("unsupported_grant_type")
            }
            guard form["client_id"] == "pagespace-cli" else { return Self.error("invalid_client") }
            switch state.deviceGrants.poll(form["device_code"] ?? "") {
            case .pending: return Self.error("authorization_pending")
            case .slowDown: return Self.error("slow_down")
            case .denied: return Self.error("access_denied")
            case .expired: return Self.error("expired_token")
            case .invalid: return Self.error("invalid_grant")
            case .approved(let scope):
                let scopeText = JSON.string(scope.joined(separator: " "))
                let drives = scope.filter { $0.hasPrefix("drive:") }
                    .compactMap { $0.dropFirst(6).split(separator: ":").first.map(String.init) }
                if !drives.isEmpty {
                    let name = scope.first { $0.hasPrefix("name:") }.map { String($0.dropFirst(5)) }
                    let key = state.authenticator.issueMCPKey(
                        name: name.flatMap { $0.removingPercentEncoding } ?? "PageSpace CLI", driveIDs: drives)
                    state.grants.add(scopes: scope, token: nil)
                    return Reply.json(["access_token": .string(key), "token_type": "mcp", "scope": scopeText])
                }
                let token = state.authenticator.issueOAuthToken()
                state.grants.add(scopes: scope, token: token)
                return Reply.json([
                    "access_token": .string(token), "token_type": "Bearer", "expires_in": 900, "scope": scopeText,
                ])
            }
        }
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
