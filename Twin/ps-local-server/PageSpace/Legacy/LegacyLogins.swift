import Foundation
import HTTPTypes
import Hummingbird
import PSCore
import Synchronization

/// The late-2025 server's logins (458264c5b): a password login hands out a JWT (in a cookie
/// for the web login, in the body with its CSRF and device tokens for the mobile one), and authenticateRequestWithOptions (apps/web/src/lib/auth/index.ts:216-271) takes
/// the JWT from the Authorization header or, failing that, from the `accessToken` cookie.
/// Only a cookie is checked for CSRF (index.ts:260-268): a browser sends cookies by itself,
/// never a header.
/// No middleware stands in front: that server's apps/web/middleware.ts sat beside a src/app
/// tree, where Next.js never loads it (today's src/middleware.ts:38-39 says it "never ran").
final class LegacyLogins: Sendable {
    /// How long tokens live: the JWT 15 minutes (generateAccessToken,
    /// packages/lib/src/auth-utils.ts:120-128 at 458264c5b), a device token 90 days
    /// (TOKEN_LIFETIMES.DEVICE_TOKEN, packages/lib/src/device-auth-utils.ts:39). Shorter in tests.
    struct Lifetimes: Sendable {
        var accessSeconds: Int64 = 15 * 60
        var deviceSeconds: Int64 = 90 * 86_400
    }

    private struct Login { let csrf: String; let expires: Int64 }
    private struct Device { let deviceID: String; let platform: String; let expires: Int64 }

    let lifetimes: Lifetimes
    /// JWT → its CSRF token and when it expires (milliseconds).
    private let logins = Mutex<[String: Login]>([:])
    /// Device tokens not revoked → the device they were given to.
    private let devices = Mutex<[String: Device]>([:])
    /// The login and renewal routes' rate limits.
    let rateLimit = AuthRateLimit()

    init(lifetimes: Lifetimes = Lifetimes()) { self.lifetimes = lifetimes }

    /// Whether the password is the demo user's (the routes' bcrypt.compare).
    static func passwordMatches(email: String, password: String) -> Bool {
        email.lowercased() == SeedData.email && password == SeedData.password
    }

    /// generateAccessToken: a fresh JWT-looking token that expires after `lifetimes.accessSeconds`,
    /// with the CSRF token generateCSRFToken derives from its session.
    func issueAccessToken() -> (token: String, csrf: String) {
        let issued = Timestamp.now() / Timestamp.second
        let header: JSON = ["alg": "HS256", "typ": "JWT"]
        let payload: JSON = [
            "userId": .string(SeedData.userID), "tokenVersion": 0, "role": "user", "iat": .integer(issued),
            "exp": .integer(issued + lifetimes.accessSeconds), "jti": .string(Identifiers.randomHex(8)),
        ]
        let token = [header, payload].map { Identifiers.base64URL(Array($0.serialized().utf8)) }.joined(separator: ".")
            + "." + Identifiers.base64URL((0..<32).map { _ in UInt8.random(in: 0...255) })
        let csrf = Identifiers.randomHex(32)
        let expires = Timestamp.now() + lifetimes.accessSeconds * Timestamp.second
        logins.withLock { $0[token] = Login(csrf: csrf, expires: expires) }
        return (token, csrf)
    }

    /// validateOrCreateDeviceToken (device-auth-utils.ts:440-530): the device token given, when it
    /// is valid and was made for this device and platform; else the device's active one; else a new one.
    func deviceToken(provided: String?, deviceID: String, platform: String) -> String {
        let now = Timestamp.now()
        return devices.withLock { devices in
            if let provided, let device = devices[provided], device.expires > now,
               device.deviceID == deviceID, device.platform == platform {
                return provided
            }
            if let active = devices.first(where: { $0.value.deviceID == deviceID && $0.value.platform == platform && $0.value.expires > now }) {
                return active.key
            }
            let token = Identifiers.random(prefix: "dev_", bytes: 16)
            devices[token] = Device(deviceID: deviceID, platform: platform, expires: now + lifetimes.deviceSeconds * Timestamp.second)
            return token
        }
    }

    /// revokeDeviceTokenByValue / revokeDeviceTokensByDevice (device-auth-utils.ts at
    /// 458264c5b), as logout calls them: the token named, else every token of that device.
    func revokeDevice(token: String?, deviceID: String?, platform: String?) {
        devices.withLock { devices in
            if let token {
                devices[token] = nil
            } else if let deviceID, let platform {
                devices = devices.filter { !($0.value.deviceID == deviceID && $0.value.platform == platform) }
            }
        }
    }

    enum Renewal { case renewed(token: String, csrf: String, deviceToken: String), invalid, otherDevice }

    /// POST /api/auth/mobile/refresh (apps/web/src/app/api/auth/mobile/refresh/route.ts:57-130 at
    /// 458264c5b): a valid device token for this device gets a new JWT; the device token is
    /// rotated (the old one revoked) when it has less than seven days to live.
    func renew(deviceToken: String, deviceID: String) -> Renewal {
        let now = Timestamp.now()
        let outcome: Renewal? = devices.withLock { devices in
            guard let device = devices[deviceToken], device.expires > now else { return .invalid }
            guard device.deviceID == deviceID else { return .otherDevice }
            guard device.expires - now < 7 * Timestamp.day else { return nil }
            devices[deviceToken] = nil
            let rotated = Identifiers.random(prefix: "dev_", bytes: 16)
            devices[rotated] = Device(deviceID: device.deviceID, platform: device.platform,
                                      expires: now + lifetimes.deviceSeconds * Timestamp.second)
            let access = issueAccessToken()
            return .renewed(token: access.token, csrf: access.csrf, deviceToken: rotated)
        }
        if let outcome { return outcome }
        let access = issueAccessToken()
        return .renewed(token: access.token, csrf: access.csrf, deviceToken: deviceToken)
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
        // validateJWTToken (auth-utils.ts) fails for an expired token as for a forged one.
        guard let login = logins.withLock({ $0[jwt] }), login.expires > Timestamp.now() else {
            throw Refusal(status: .unauthorized, error: "Invalid or expired session")
        }
        let csrf = login.csrf
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
