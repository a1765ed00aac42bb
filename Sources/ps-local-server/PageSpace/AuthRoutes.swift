import Hummingbird
import PSCore

/// Login, who-am-I and logout. Legacy: password login returning a JWT and a CSRF token.
/// Current: no password login; `/api/auth/me` and `/api/auth/logout` with a token.
struct AuthRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        switch state.dialect {
        case .legacy:
            // apps/web/src/app/api/auth/login/route.ts:20-38 at 458264c5b: zod's field errors
            // (`{errors:{email:[…],password:[…]}}`) before any rate limit or lookup; the
            // client reads this answer to know a legacy server (PSNet GenerationProbe).
            router.post("/api/auth/login") { request, _ in
                var request = request
                let body = try await request.jsonBody()
                if let errors = Self.loginFieldErrors(body) {
                    return Reply.json(["errors": .object(errors)], status: .badRequest)
                }
                guard let email = body["email"]?.stringValue, let password = body["password"]?.stringValue else {
                    throw Refusal.badRequest("Email and password are required")
                }
                guard let login = state.authenticator.legacyLogins.login(email: email, password: password) else {
                    throw Refusal(status: .unauthorized, error: "Invalid email or password")
                }
                return Reply.json(login)
            }
            // middleware.ts:50-74 at 458264c5b: no route here, and the middleware, which
            // leaves only the auth, MCP and drive routes public, answers a request without
            // the session cookie before Next.js could say 404.
            router.get("/api/version") { _, _ in
                Reply.text("Authentication required", status: .unauthorized)
            }
        case .pagespace:
            // apps/web/src/app/api/version/route.ts: public, no credential.
            router.get("/api/version") { _, _ in
                Reply.json(["service": "pagespace-web", "apiVersion": "1.0.0"])
            }
            // apps/web/src/app/api/auth/me/route.ts: session or OAuth; MCP keys are refused.
            router.get("/api/auth/me") { request, _ in
                _ = try state.authenticator.require(request, scope: .sessionOrOAuth)
                return Reply.json(SeedData.user)
            }
            // apps/web/src/app/api/auth/logout/route.ts: ends the session of the browser's
            // cookie; a bearer token is left as it was (this server has no cookie sessions).
            router.post("/api/auth/logout") { request, _ in
                _ = try state.authenticator.require(request, scope: .sessionOnly)
                return Reply.json(["message": "Logged out successfully"])
            }
        case .openai, .lucid, .gemini:
            break  // No accounts here: an OpenAI-compatible server and Lucid ask for none; Firebase issues the Gemini API's.
        }
    }

    /// The legacy login schema's complaints, as `error.flatten().fieldErrors` words them
    /// (`email: z.email()`, `password: z.string().min(1, "Password is required")`); nil when valid.
    static func loginFieldErrors(_ body: JSON) -> JSONObject? {
        var errors = JSONObject()
        func expectedString(_ value: JSON?) -> String {
            let received: String
            switch value {
            case nil: received = "undefined"
            case .null?: received = "null"
            case .bool?: received = "boolean"
            case .integer?, .real?, .number?: received = "number"
            case .array?: received = "array"
            default: received = "object"
            }
            return "Invalid input: expected string, received " + received
        }
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
}
