import Foundation
import HTTPTypes
import Hummingbird
import PSCore
import Synchronization

/// The late-2025 server's logins (458264c5b): a password login hands out a JWT with its CSRF
/// token, and authenticateRequestWithOptions (apps/web/src/lib/auth/index.ts:216-271) takes
/// the JWT from the Authorization header or, failing that, from the `accessToken` cookie.
/// Only a cookie is checked for CSRF (index.ts:260-268): a browser sends cookies by itself,
/// never a header.
/// No middleware stands in front: that server's apps/web/middleware.ts sat beside a src/app
/// tree, where Next.js never loads it (today's src/middleware.ts:38-39 says it "never ran").
final class LegacyLogins: Sendable {
    /// JWT → its CSRF token.
    private let logins = Mutex<[String: String]>([:])

    /// Password login: a fresh JWT-looking token with its CSRF and device tokens.
    func login(email: String, password: String) -> JSON? {
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
        logins.withLock { $0[token] = csrf }
        return [
            "user": SeedData.user, "token": .string(token), "csrfToken": .string(csrf),
            "deviceToken": .string(Identifiers.random(prefix: "dev_", bytes: 16)),
        ]
    }

    /// authenticateRequestWithOptions at 458264c5b. `allowMCP` is the route's `allow` list
    /// holding 'mcp' besides 'jwt'.
    func require(_ request: Request, bearer: String?, allowMCP: Bool, mcpKeys: MCPKeys) throws -> Authenticator.Credential {
        if let bearer, bearer.hasPrefix("mcp_") {
            // index.ts:234-241; authenticateMCPRequest, index.ts:147-167.
            guard allowMCP else { throw Refusal(status: .unauthorized, error: "MCP tokens are not permitted for this endpoint") }
            guard let key = mcpKeys.key(bearer) else { throw Refusal(status: .unauthorized, error: "Invalid MCP token") }
            return .mcpKey(drives: key.driveIDs)
        }
        // authenticateWebRequest, index.ts:169-198: the header's token, else the cookie's.
        let cookie = Self.cookie("accessToken", in: request)
        guard let jwt = bearer ?? cookie else { throw Refusal(status: .unauthorized, error: "Authentication required") }
        guard let csrf = logins.withLock({ $0[jwt] }) else {
            throw Refusal(status: .unauthorized, error: "Invalid or expired session")
        }
        if bearer == nil { try Self.checkCSRF(request, expected: csrf) }
        return .legacyJWT(token: jwt)
    }

    /// validateCSRF (apps/web/src/lib/auth/csrf-validation.ts:66-153 at 458264c5b), for a
    /// cookie login: safe methods pass; otherwise the header must hold the login's token.
    private static func checkCSRF(_ request: Request, expected: String) throws {
        guard ![.get, .head, .options].contains(request.method) else { return }
        guard let sent = request.headers[HTTPField.Name("X-CSRF-Token")!] else {
            throw Refusal(Reply.json([
                "error": "CSRF token required", "code": "CSRF_TOKEN_MISSING",
                "details": "Include X-CSRF-Token header with your request",
            ], status: .forbidden))
        }
        guard sent == expected else {
            throw Refusal(Reply.json([
                "error": "Invalid or expired CSRF token", "code": "CSRF_TOKEN_INVALID",
                "details": "Your CSRF token is invalid or has expired. Refresh and try again.",
            ], status: .forbidden))
        }
    }

    /// A cookie's value from the Cookie header (the `cookie` package's parse: `;`-separated
    /// name=value pairs, the first of each name).
    static func cookie(_ name: String, in request: Request) -> String? {
        guard let header = request.headers[.cookie] else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            return value.removingPercentEncoding ?? value
        }
        return nil
    }
}
