import HTTPTypes
import Hummingbird
import PSCore

/// Login, who-am-I and logout. Legacy: password login returning a JWT and a CSRF token.
/// Current: no password login; `/api/auth/me` and `/api/auth/logout` with a token.
struct AuthRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        switch state.dialect {
        case .legacy:
            // apps/web/src/app/api/auth/login/route.ts at 458264c5b, the web login: zod's field
            // errors (`{errors:{email:[…],password:[…]}}`, lines 20-38) before any rate limit or
            // lookup (the client reads this answer to know a legacy server: PSNet GenerationProbe);
            // then the JWT goes in an httpOnly cookie, never in the body, which holds only
            // `{id, name, email}` and, for a `deviceId`, a web device token (lines 94-178).
            router.post("/api/auth/login") { request, _ in
                var request = request
                let body = try await Self.legacyAuthBody(&request)
                var errors = Self.loginFieldErrors(body) ?? JSONObject()
                for field in ["deviceId", "deviceName", "deviceToken"] where Self.isPresent(body[field]) && body[field]?.stringValue == nil {
                    errors[field] = [.string(Self.expectedString(body[field]))]
                }
                if !errors.isEmpty { return Reply.json(["errors": .object(errors)], status: .badRequest) }
                let logins = state.authenticator.legacyLogins
                try Self.checkLogin(body, request.headers, logins) {
                    LegacyLogins.passwordMatches(email: body["email"]!.stringValue!, password: body["password"]!.stringValue!)
                }
                let access = logins.issueAccessToken()
                var answer = JSONObject()
                answer["id"] = .string(SeedData.userID)
                answer["name"] = .string(SeedData.userName)
                answer["email"] = .string(SeedData.email)
                if let deviceID = body["deviceId"]?.stringValue, !deviceID.isEmpty {
                    answer["deviceToken"] = .string(logins.deviceToken(
                        provided: body["deviceToken"]?.stringValue, deviceID: deviceID, platform: "web"))
                }
                var headers = HTTPFields()
                headers.append(HTTPField(name: .setCookie, value: "accessToken=\(access.token); Max-Age=900; Path=/; HttpOnly; SameSite=Strict"))
                headers.append(HTTPField(name: .setCookie, value:
                    "refreshToken=\(Identifiers.randomHex(32)); Max-Age=2592000; Path=/; HttpOnly; SameSite=Strict"))
                return Reply.json(.object(answer), headers: headers)
            }
            // apps/web/src/app/api/auth/mobile/login/route.ts:17-150 at 458264c5b: the login a
            // program can use. It needs a `deviceId` (and a platform, `ios` by default) and answers
            // `{user:{id,email,name,image}, token, csrfToken, deviceToken}`.
            router.post("/api/auth/mobile/login") { request, _ in
                var request = request
                let body = try await Self.legacyAuthBody(&request)
                var errors = Self.loginFieldErrors(body) ?? JSONObject()
                Self.checkDevice(body, into: &errors)
                for field in ["deviceName", "appVersion", "deviceToken"] where Self.isPresent(body[field]) && body[field]?.stringValue == nil {
                    errors[field] = [.string(Self.expectedString(body[field]))]
                }
                if !errors.isEmpty { return Reply.json(["errors": .object(errors)], status: .badRequest) }
                let logins = state.authenticator.legacyLogins
                try Self.checkLogin(body, request.headers, logins) {
                    LegacyLogins.passwordMatches(email: body["email"]!.stringValue!, password: body["password"]!.stringValue!)
                }
                let access = logins.issueAccessToken()
                let deviceToken = logins.deviceToken(
                    provided: body["deviceToken"]?.stringValue, deviceID: body["deviceId"]!.stringValue!,
                    platform: body["platform"]?.stringValue ?? "ios")
                let user: JSON = ["id": .string(SeedData.userID), "email": .string(SeedData.email),
                                  "name": .string(SeedData.userName), "image": .null]
                return Reply.json(["user": user, "token": .string(access.token), "csrfToken": .string(access.csrf),
                                   "deviceToken": .string(deviceToken)])
            }
            // apps/web/src/app/api/auth/mobile/refresh/route.ts:17-130 at 458264c5b: a device token
            // for this device gets a new JWT and CSRF token, and the device token back (rotated
            // when it has less than seven days to live).
            router.post("/api/auth/mobile/refresh") { request, _ in
                var request = request
                let body = try await Self.legacyAuthBody(&request)
                var errors = JSONObject()
                switch body["deviceToken"] {
                case .string(let token)? where token.isEmpty: errors["deviceToken"] = ["Device token is required"]
                case .string?: break
                case let other: errors["deviceToken"] = [.string(Self.expectedString(other))]
                }
                Self.checkDevice(body, into: &errors)
                if !errors.isEmpty { return Reply.json(["errors": .object(errors)], status: .badRequest) }
                // Every renewal counts, per client address, never reset (:34-55).
                let ip = AuthRateLimit.clientIP(request.headers)
                if let wait = state.authenticator.legacyLogins.rateLimit.check("refresh:device:" + ip, AuthRateLimit.refresh) {
                    throw Self.tooMany("Too many refresh attempts. Please try again later.", wait: wait)
                }
                switch state.authenticator.legacyLogins.renew(
                    deviceToken: body["deviceToken"]!.stringValue!, deviceID: body["deviceId"]!.stringValue!) {
                case .invalid: throw Refusal(status: .unauthorized, error: "Invalid or expired device token.")
                case .otherDevice: throw Refusal(status: .unauthorized, error: "Device token does not match this device.")
                case .renewed(let token, let csrf, let deviceToken):
                    return Reply.json(["token": .string(token), "csrfToken": .string(csrf), "deviceToken": .string(deviceToken)])
                }
            }
            // apps/web/src/app/api/auth/logout/route.ts at 458264c5b: a JWT only, CSRF checked
            // for a cookie (:9-13); the device token named by X-Device-Token is revoked, or
            // without one every token of the body's deviceId and platform (:22-65); the
            // cookies are cleared and the JWT itself lives on until it expires (:93-115).
            router.post("/api/auth/logout") { request, _ in
                _ = try state.authenticator.require(request, scope: .sessionOnly)
                var request = request
                let body = try? await request.jsonBody()
                state.authenticator.legacyLogins.revokeDevice(
                    token: request.headers[HTTPField.Name("X-Device-Token")!],
                    deviceID: body?["deviceId"]?.stringValue, platform: body?["platform"]?.stringValue)
                var headers = HTTPFields()
                for name in ["accessToken", "refreshToken"] {
                    headers.append(HTTPField(name: .setCookie, value:
                        "\(name)=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict"))
                }
                return Reply.json(["message": "Logged out successfully"], headers: headers)
            }
            // No /api/version at 458264c5b: Next.js says 404, with or without a credential.
            // (Its apps/web/middleware.ts, which would have answered 401 first, was never
            // loaded: it sat beside src/app; d57701900 "middleware.ts has never been
            // registered in any build" moved it.)
        case .pagespace:
            // apps/web/src/app/api/version/route.ts: public, no credential.
            router.get("/api/version") { _, _ in
                Reply.json(["service": "pagespace-web", "apiVersion": "1.0.0"])
            }
            // apps/web/src/app/api/auth/me/route.ts: session or OAuth; MCP keys are refused.
            router.get("/api/auth/me") { request, _ in
                _ = try state.authenticator.require(request, scope: .sessionOrOAuth)
                var user = SeedData.user.objectValue ?? JSONObject()
                user["subscriptionTier"] = .string(state.subscriptionTier)
                return Reply.json(.object(user))
            }
            // apps/web/src/app/api/auth/logout/route.ts: ends the session of the browser's
            // cookie, if any, and answers 200 whatever the credential (a public path:
            // EdgeGate), clearing both cookies (:113-120; cookie-config.ts:112-131); a bearer
            // token is left as it was (this server has no cookie sessions).
            router.post("/api/auth/logout") { _, _ in
                var headers = HTTPFields()
                headers.append(HTTPField(name: .setCookie, value:
                    "session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict"))
                headers.append(HTTPField(name: .setCookie, value:
                    "ps_logged_in=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Strict"))
                return Reply.json(["message": "Logged out successfully"], headers: headers)
            }
        case .openai, .lucid, .gemini:
            break  // No accounts here: an OpenAI-compatible server and Lucid ask for none; Firebase issues the Gemini API's.
        }
    }

    /// The legacy login schema's complaints, as `error.flatten().fieldErrors` words them
    /// (`email: z.email()`, `password: z.string().min(1, "Password is required")`); nil when valid.
    /// The body of a late-2025 login or renewal: `await req.json()` runs inside the route's
    /// try, so a body that is not JSON (or none) ends in its catch-all, 500 (458264c5b:
    /// auth/login/route.ts:33,178-181; auth/mobile/login/route.ts:31,152-155;
    /// auth/mobile/refresh/route.ts:25,132-135).
    static func legacyAuthBody(_ request: inout Request) async throws -> JSON {
        guard let body = try await request.jsonBodyIfValid() else {
            throw Refusal(status: .internalServerError, error: "An unexpected error occurred.")
        }
        return body
    }

    static func loginFieldErrors(_ body: JSON) -> JSONObject? {
        var errors = JSONObject()
        switch body["email"] {
        case .string(let email)?:
            let parts = email.split(separator: "@", omittingEmptySubsequences: false)
            if parts.count != 2 || parts[0].isEmpty || !parts[1].contains(".") { errors["email"] = ["Invalid email address"] }
        case let other:
            errors["email"] = [.string(expectedString(other))]
        }
        switch body["password"] {
        case .string(let password)?:
            if password.isEmpty { errors["password"] = ["Password is required"] }
        case let other:
            errors["password"] = [.string(expectedString(other))]
        }
        return errors.isEmpty ? nil : errors
    }

    /// zod's words for a value that should have been a string.
    static func expectedString(_ value: JSON?) -> String { expected("string", value) }

    /// zod's words for a value that is not of the `type` expected (zod 4's English
    /// invalid_type message: "Invalid input: expected X, received Y").
    static func expected(_ type: String, _ value: JSON?) -> String {
        let received: String
        switch value {
        case nil: received = "undefined"
        case .null?: received = "null"
        case .bool?: received = "boolean"
        case .integer?, .real?, .number?: received = "number"
        case .string?: received = "string"
        case .array?: received = "array"
        case .object?: received = "object"
        }
        return "Invalid input: expected \(type), received " + received
    }

    /// Both password logins after their field checks (auth/login/route.ts:42-94,135-137 and
    /// auth/mobile/login/route.ts:40-92,108-110 at 458264c5b): an attempt counts against the
    /// client's address and the email, and either over its limit is a 429 before the
    /// password is looked at; a wrong password is a 401; a right one forgets both counts.
    static func checkLogin(_ body: JSON, _ headers: HTTPFields, _ logins: LegacyLogins, passwordMatches: () -> Bool) throws {
        let ip = AuthRateLimit.clientIP(headers)
        let email = body["email"]?.stringValue?.lowercased() ?? ""
        let ipWait = logins.rateLimit.check(ip, AuthRateLimit.login)
        let emailWait = logins.rateLimit.check(email, AuthRateLimit.login)
        if let wait = ipWait { throw tooMany("Too many login attempts from this IP address. Please try again later.", wait: wait) }
        if let wait = emailWait { throw tooMany("Too many login attempts for this email. Please try again later.", wait: wait) }
        guard passwordMatches() else { throw Refusal(status: .unauthorized, error: "Invalid email or password") }
        logins.rateLimit.reset(ip)
        logins.rateLimit.reset(email)
    }

    /// The limiter's 429: `{error, retryAfter}` and the Retry-After header, in seconds.
    static func tooMany(_ message: String, wait: Int64) -> Refusal {
        Refusal(Reply.json(["error": .string(message), "retryAfter": .integer(wait)], status: .tooManyRequests,
                           headers: [.retryAfter: String(wait)]))
    }

    /// An optional field is absent when missing (zod's `.optional()` passes undefined only).
    static func isPresent(_ value: JSON?) -> Bool { value != nil }

    /// The mobile routes' `deviceId: z.string().min(1, 'Device identifier is required')` and
    /// `platform: z.enum(['ios', 'android', 'desktop']).default('ios')`.
    static func checkDevice(_ body: JSON, into errors: inout JSONObject) {
        switch body["deviceId"] {
        case .string(let id)? where id.isEmpty: errors["deviceId"] = ["Device identifier is required"]
        case .string?: break
        case let other: errors["deviceId"] = [.string(expectedString(other))]
        }
        if let platform = body["platform"], !["ios", "android", "desktop"].contains(platform.stringValue ?? "") {
            errors["platform"] = [#"Invalid option: expected one of "ios"|"android"|"desktop""#]
        }
    }
}
