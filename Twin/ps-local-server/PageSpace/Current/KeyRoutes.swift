import Hummingbird
import PSCore

/// The current server's credentials management: MCP keys (listed and revoked with a session
/// or an OAuth token, never with an MCP key) and the OAuth grants on the account (session
/// only, revoking behind a step-up confirmation).
struct KeyRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        let auth = state.authenticator

        // apps/web/src/app/api/auth/mcp-tokens/route.ts (GET): a bare array, never the keys.
        router.get("/api/auth/mcp-tokens") { request, _ in
            _ = try auth.require(request, scope: .sessionOrOAuth)
            return Reply.json(.array(auth.mcpKeys.active.map(\.listing)))
        }
        // apps/web/src/app/api/auth/mcp-tokens/[tokenId]/route.ts (DELETE)
        router.delete("/api/auth/mcp-tokens/:tokenId") { request, context in
            _ = try auth.require(request, scope: .sessionOrOAuth)
            guard auth.mcpKeys.revoke(context.parameters.get("tokenId") ?? "") else {
                throw Refusal.notFound("Token not found")
            }
            return Reply.json(["message": "Token revoked successfully"])
        }
        // apps/web/src/app/api/account/oauth-grants/route.ts (GET): the live refresh-token rows
        // (listActiveOAuthGrantsForUser, oauth-repository.ts:898-909).
        router.get("/api/account/oauth-grants") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            return Reply.json(.array(state.grants.listed.map(\.listing)))
        }
        // apps/web/src/app/api/account/oauth-grants/[grantId]/route.ts (DELETE): the body
        // (one that is not JSON reads as {}, :25; one that is not an object, or a stepUpToken
        // that is not a string, is zod's 400 with its issues, :26,49-51), then the step-up
        // token (401 step_up_required when missing or not good), then the grant (a foreign
        // one is the same 404 as an unknown one); the grant's tokens end with it.
        router.delete("/api/account/oauth-grants/:grantId") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            var request = request
            let body = try await request.jsonBodyIfValid() ?? [:]
            func invalid(_ type: String, _ value: JSON?, path: [JSON]) -> Refusal {
                Refusal(Reply.json(["error": [[
                    "expected": .string(type), "code": "invalid_type", "path": .array(path),
                    "message": .string(AuthRoutes.expected(type, value)),
                ]]], status: .badRequest))
            }
            guard body.objectValue != nil else { throw invalid("object", body, path: []) }
            let stepUp = body["stepUpToken"]
            if let stepUp, stepUp.stringValue == nil { throw invalid("string", stepUp, path: ["stepUpToken"]) }
            let grantID = context.parameters.get("grantId") ?? ""
            let binding = OAuthGrants.ActionBinding(["op": "revoke_oauth_grant", "grantId": grantID])
            guard let token = stepUp?.stringValue, !token.isEmpty, state.grants.consumeStepUp(token, for: binding) else {
                throw Refusal(status: .unauthorized, error: "step_up_required")
            }
            guard let tokens = state.grants.revokeListed(grantID) else {
                throw Refusal.notFound("Grant not found")
            }
            auth.revokeOAuthTokens(tokens)
            return Reply.json(["message": "Grant revoked successfully"])
        }
    }
}
