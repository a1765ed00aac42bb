import PSCore

// PageSpace's workspace routes. Both generations have an agent's configuration
// (`GET|PATCH /api/pages/{id}/agent-config`) and the drives' agents; only the current one has the rest.

/// `GET|PATCH /api/pages/{pageId}/agent-config` (apps/web/src/app/api/pages/[pageId]/agent-config/route.ts):
/// session or MCP key; an unknown page is a 403 there (no permission on what does not exist).
enum AgentConfigRoute {
    static func get(_ client: APIClient, _ agentID: String) throws -> AgentConfig {
        AgentConfig(record: try client.get(path(agentID)))
    }

    static func patch(_ client: APIClient, _ agentID: String, _ change: AgentConfigChange) throws -> JSON {
        try client.json(client.request("PATCH", path(agentID), body: change.body))
    }

    private static func path(_ agentID: String) -> String {
        "/api/pages/\(URLText.encodeComponent(agentID))/agent-config"
    }
}

/// `GET /api/drives` and `GET /api/drives/{id}/agents`: the same in both generations (JWT or
/// MCP key at 458264c5b, apps/web/src/app/api/drives/[driveId]/agents/route.ts:33).
enum DriveRoutes {
    /// A bare array (an MCP key sees its own drives).
    static func drives(_ client: APIClient) throws -> [JSON] {
        let answer = try client.get("/api/drives")
        return answer.arrayValue ?? answer["drives"]?.arrayValue ?? []
    }

    /// `{agents:[…], driveName, …}`.
    static func agents(_ client: APIClient, inDrive driveID: String) throws -> [JSON] {
        try client.get("/api/drives/\(URLText.encodeComponent(driveID))/agents")["agents"]?.arrayValue ?? []
    }
}

extension PageSpaceLegacyAdapter: AgentConfiguring, AgentDirectory {
    public func drives() throws -> [JSON] { try DriveRoutes.drives(client) }
    public func agents(inDrive driveID: String) throws -> [JSON] { try DriveRoutes.agents(client, inDrive: driveID) }
    public func agentConfig(_ agentID: String) throws -> AgentConfig { try AgentConfigRoute.get(client, agentID) }
    public func updateAgentConfig(_ agentID: String, _ change: AgentConfigChange) throws -> JSON {
        try AgentConfigRoute.patch(client, agentID, change)
    }
}

extension PageSpaceAdapter: AgentDirectory, AgentConfiguring, AgentCreating, AgentConsulting, KeyManagement, GrantManagement {
    public func drives() throws -> [JSON] { try DriveRoutes.drives(client) }
    public func agents(inDrive driveID: String) throws -> [JSON] { try DriveRoutes.agents(client, inDrive: driveID) }

    public func agentConfig(_ agentID: String) throws -> AgentConfig { try AgentConfigRoute.get(client, agentID) }

    public func updateAgentConfig(_ agentID: String, _ change: AgentConfigChange) throws -> JSON {
        try AgentConfigRoute.patch(client, agentID, change)
    }

    /// `POST /api/pages {title, type:"AI_CHAT", driveId, systemPrompt?}` → 201 with the page
    /// (apps/web/src/app/api/pages/route.ts).
    public func createAgent(_ new: NewAgent) throws -> JSON {
        var body = JSONObject()
        body["title"] = .string(new.title)
        body["type"] = "AI_CHAT"
        body["driveId"] = .string(new.driveID)
        body["systemPrompt"] = new.systemPrompt.map(JSON.string)
        return try client.post("/api/pages", body: .object(body))
    }

    /// `POST /api/ai/page-agents/consult {agentId, question, conversationId?}` →
    /// `{success, response, conversationId, …}` (apps/web/src/app/api/ai/page-agents/consult/route.ts).
    /// Never retried (a POST): a second try would ask the agent twice.
    public func consult(agentID: String, question: String, conversationID: String?) throws -> ConsultAnswer {
        var body = JSONObject()
        body["agentId"] = .string(agentID)
        body["question"] = .string(question)
        body["conversationId"] = conversationID.map(JSON.string)
        let answer = try client.post("/api/ai/page-agents/consult", body: .object(body))
        guard let text = answer["response"]?.stringValue else {
            throw ToolError(.serverError, "the server's consult answer has no response text")
        }
        return ConsultAnswer(text: text, conversationID: answer["conversationId"]?.stringValue, record: answer)
    }

    /// `GET /api/auth/mcp-tokens`: a bare array; session or OAuth token, never an MCP key
    /// (apps/web/src/app/api/auth/mcp-tokens/route.ts).
    public func keys() throws -> [JSON] {
        try refusingMCPKeys(.keys) { try client.get("/api/auth/mcp-tokens").arrayValue ?? [] }
    }

    /// `DELETE /api/auth/mcp-tokens/{id}` → `{message}`; 404 `Token not found`.
    public func revokeKey(_ id: String) throws {
        _ = try refusingMCPKeys(.keys) { try client.json(client.request("DELETE", "/api/auth/mcp-tokens/\(URLText.encodeComponent(id))")) }
    }

    private enum AccountRoute { case keys, grants }

    /// The account routes refuse MCP keys: say what does reach them.
    private func refusingMCPKeys<T>(_ route: AccountRoute, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ToolError where error.status == .authenticationNeeded && error.message.contains("MCP tokens are not permitted") {
            switch route {
            case .keys:
                throw ToolError(.authenticationNeeded, "an MCP key cannot list or revoke keys (the server refuses it): use a "
                    + "browser session token (ps-auth login --with-token) or an OAuth access token (ps_at_..., in PAGESPACE_TOKEN)")
            case .grants:
                throw ToolError(.authenticationNeeded, "an MCP key cannot see or revoke OAuth grants (the server refuses it): "
                    + "use a browser session token (ps-auth login --with-token)")
            }
        }
    }

    /// `GET /api/account/oauth-grants`: a bare array; session only
    /// (apps/web/src/app/api/account/oauth-grants/route.ts).
    public func grants() throws -> [JSON] {
        try refusingMCPKeys(.grants) { try client.get("/api/account/oauth-grants").arrayValue ?? [] }
    }

    /// `DELETE /api/account/oauth-grants/{id} {stepUpToken}`: the server wants a fresh step-up
    /// confirmation (passkey or e-mail link) first, 401 `step_up_required` without one
    /// (apps/web/src/app/api/account/oauth-grants/[grantId]/route.ts).
    public func revokeGrant(_ id: String, stepUpToken: String?) throws {
        var body = JSONObject()
        body["stepUpToken"] = stepUpToken.map(JSON.string)
        let request = client.request("DELETE", "/api/account/oauth-grants/\(URLText.encodeComponent(id))", body: .object(body))
        let response = try client.response(request)
        if response.status == 401, ErrorBody(response.body).error?.contains("MCP tokens are not permitted") == true {
            return try refusingMCPKeys(.grants) { throw APIErrors.toolError(response, request: request) }
        }
        if response.status == 401, (try? JSON.parse(bytes: response.body))?["error"]?.stringValue == "step_up_required" {
            throw ToolError(.authenticationNeeded, stepUpToken == nil
                ? "the server wants a fresh confirmation (passkey or e-mail link) to revoke a grant: revoke it in the browser "
                    + "(Settings, Account, Connected apps), or give a step-up token with --step-up-token-stdin"
                : "the server did not accept the step-up token: each is good once, and only for the action it was "
                    + "confirmed for (here: revoking grant \(TerminalSafeText.quoted(id))))")
        }
        guard response.head.isSuccess else { throw APIErrors.toolError(response, request: request) }
    }
}
