import Hummingbird
import PSCore

/// Login, who-am-I and logout. Legacy: password login returning a JWT and a CSRF token.
/// Current: no password login; `/api/auth/me` and `/api/auth/logout` with a token.
struct AuthRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        switch state.dialect {
        case .legacy:
            router.post("/api/auth/login") { request, _ in
                var request = request
                let body = try await request.jsonBody()
                guard let email = body["email"]?.stringValue, let password = body["password"]?.stringValue,
                    !email.isEmpty, !password.isEmpty
                else { throw Refusal.badRequest("Email and password are required") }
                guard let login = state.authenticator.legacyLogins.login(email: email, password: password) else {
                    throw Refusal(status: .unauthorized, error: "Invalid email or password")
                }
                return Reply.json(login)
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
}
