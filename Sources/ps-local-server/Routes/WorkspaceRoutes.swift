import Hummingbird
import PSCore

/// Drives, pages, agent configuration and AI settings: the same in both dialects.
struct WorkspaceRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        let auth = state.authenticator

        // apps/web/src/app/api/drives/route.ts: reads allow session, MCP and OAuth tokens.
        router.get("/api/drives") { request, _ in
            _ = try auth.require(request, scope: .anyToken)
            return Reply.json([SeedData.drive])
        }
        router.get("/api/drives/:driveId/pages") { request, context in
            _ = try auth.require(request, scope: .sessionOrMCP)
            try requireDrive(context)
            return Reply.json(.array(SeedData.pages.map(SeedData.pageJSON)))
        }
        router.get("/api/drives/:driveId/agents") { request, context in
            _ = try auth.require(request, scope: .sessionOrMCP)
            try requireDrive(context)
            let agents: [JSON] = SeedData.pages.filter { $0.type == "AI_CHAT" }.compactMap { page in
                guard let config = state.agents.config(page.id) else { return nil }
                return [
                    "id": .string(page.id), "title": .string(page.title), "parentId": .null,
                    "position": .integer(Int64(page.position)), "aiProvider": .string(config.aiProvider),
                    "aiModel": .string(config.aiModel), "hasSystemPrompt": .bool(!config.systemPrompt.isEmpty),
                    "enabledToolsCount": .integer(Int64(config.enabledTools.count)),
                ]
            }
            return Reply.json([
                "agents": .array(agents), "count": .integer(Int64(agents.count)), "driveId": .string(SeedData.driveID),
            ])
        }
        router.get("/api/pages/:pageId/agent-config") { request, context in
            _ = try auth.require(request, scope: .sessionOrMCP)
            let pageID = context.parameters.get("pageId") ?? ""
            guard let config = state.agents.config(pageID) else { throw Refusal.notFound("Page not found") }
            return Reply.json(state.agents.json(pageID, config))
        }
        router.patch("/api/pages/:pageId/agent-config") { request, context in
            _ = try auth.require(request, scope: .sessionOrMCP)
            let pageID = context.parameters.get("pageId") ?? ""
            var request = request
            let body = try await request.jsonBody()
            guard let config = try state.agents.update(pageID, with: body) else { throw Refusal.notFound("Page not found") }
            return Reply.json(state.agents.json(pageID, config))
        }
        router.get("/api/ai/settings") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            return Reply.json([
                "currentProvider": "pagespace", "currentModel": "glm-4.5-air", "userSubscriptionTier": "free",
                "providers": [
                    "pagespace": ["isConfigured": true, "hasApiKey": true],
                    "openrouter": ["isConfigured": false, "hasApiKey": false],
                    "google": ["isConfigured": false, "hasApiKey": false],
                    "openai": ["isConfigured": false, "hasApiKey": false],
                    "anthropic": ["isConfigured": false, "hasApiKey": false],
                ],
                "isAnyProviderConfigured": true,
            ])
        }
    }

    private func requireDrive(_ context: ServerContext) throws {
        guard context.parameters.get("driveId") == SeedData.driveID else {
            throw Refusal(status: .notFound, error: "Drive not found")
        }
    }
}
