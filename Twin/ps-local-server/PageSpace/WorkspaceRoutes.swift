import Foundation
import Hummingbird
import PSCore

/// Drives, pages, agent configuration and AI settings: the same in both dialects.
struct WorkspaceRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        let auth = state.authenticator

        // apps/web/src/app/api/drives/route.ts: reads allow session, MCP and OAuth tokens; a
        // scoped MCP key lists exactly its own drives (route.ts:83-95, listScopedDrivesWithMembership).
        // On the current server each is the whole drives row (packages/db/src/schema/core.ts:17-32)
        // with isOwned, role and lastAccessedAt (listAccessibleDrives,
        // packages/lib/src/services/drive-service.ts:142-155).
        router.get("/api/drives") { request, _ in
            let allowed = Authenticator.allowedDrives(try auth.require(request, scope: .anyToken))
            let drives = state.agents.drives.filter { allowed.isEmpty || allowed.contains($0.id) }
            return Reply.json(.array(drives.map { drive in
                guard state.dialect.isCurrent, var row = drive.json.objectValue else { return drive.json }
                row["kind"] = "STANDARD"
                for column in ["trashedAt", "drivePrompt", "publishSubdomain", "homePageId", "publishDefaultOgImageUrl",
                               "notFoundPageId", "publishFaviconUrl", "lastAccessedAt"] {
                    row[column] = .null
                }
                return .object(row)
            }))
        }
        // apps/web/src/app/api/drives/[driveId]/pages/route.ts (GET): the key's drive scope
        // first (:103-105), then the drive (:116-122).
        router.get("/api/drives/:driveId/pages") { request, context in
            let credential = try auth.require(request, scope: .sessionOrMCP)
            let driveID = context.parameters.get("driveId") ?? ""
            try DriveScope.checkDrive(credential, driveID)
            guard state.agents.drive(driveID) != nil else { throw Refusal(status: .notFound, error: "Drive not found") }
            return Reply.json(.array(state.agents.pages(inDrive: driveID).map(\.json)))
        }
        // apps/web/src/app/api/drives/[driveId]/agents/route.ts (GET): no access to a drive
        // (an unknown one included) is a 403; agents in position order, provider and model
        // "default" when unset, a system prompt preview unless includeSystemPrompt=true. The
        // key's drive scope comes first (:44-46).
        router.get("/api/drives/:driveId/agents") { request, context in
            let credential = try auth.require(request, scope: .sessionOrMCP)
            try DriveScope.checkDrive(credential, context.parameters.get("driveId") ?? "")
            guard let drive = state.agents.drive(context.parameters.get("driveId") ?? "") else {
                throw Refusal(status: .forbidden, error: "You don't have access to this drive")
            }
            let includeSystemPrompt = request.query("includeSystemPrompt") == "true"
            let includeTools = request.query("includeTools") != "false"
            let agents = state.agents.pages(inDrive: drive.id).filter { $0.type == "AI_CHAT" }
            // route.ts:145-165: the counts over what the caller may see (every agent here).
            let withTools = agents.filter { includeTools && !$0.config.enabledTools.isEmpty }.count
            return Reply.json([
                "success": true, "driveId": .string(drive.id), "driveName": .string(drive.name), "driveSlug": .string(drive.slug),
                "agents": .array(agents.map { Self.agentSummary($0, includeSystemPrompt: includeSystemPrompt, includeTools: includeTools) }),
                "count": .integer(Int64(agents.count)),
                "summary": .string("Found \(agents.count) accessible AI agent(s) in drive \"\(drive.name)\""),
                "stats": [
                    "totalInDrive": .integer(Int64(agents.count)), "accessible": .integer(Int64(agents.count)),
                    "withSystemPrompt": .integer(Int64(agents.filter { !$0.config.systemPrompt.isEmpty }.count)),
                    "withTools": .integer(Int64(withTools)),
                ],
                "nextSteps": [
                    .string(agents.isEmpty ? "No agents found - consider creating one" : "Use read_page to view full agent configurations"),
                    "Use update_agent_config to modify agent settings",
                    "Use spawn_session (with the agent id as `agent`) to delegate to specific agents",
                    .string("Drive: \(drive.name) (\(drive.id))"),
                ],
            ])
        }
        // apps/web/src/app/api/pages/route.ts (POST): a body that is not JSON is the catch-all
        // 500 (:39, 119-121); any other is zod-checked (createPageSchema, :17-48), tools checked
        // against the available ones, 201 with the page.
        router.post("/api/pages") { request, _ in
            let credential = try auth.require(request, scope: .sessionOrMCP)
            var request = request
            guard let body = try await request.jsonBodyIfValid() else {
                throw Refusal(status: .internalServerError, error: "Failed to create page")
            }
            return try createPage(body, credential: credential)
        }
        // apps/web/src/app/api/pages/[pageId]/agent-config/route.ts (GET): session or MCP key
        // (route.ts:15-16); JWT only on the legacy server (route.ts:8 at 458264c5b).
        let configScope: Authenticator.Scope = state.dialect.isCurrent ? .sessionOrMCP : .sessionOnly
        router.get("/api/pages/:pageId/agent-config") { request, context in
            let credential = try auth.require(request, scope: configScope)
            // The key's drive scope first (route.ts:32-34).
            try DriveScope.checkPage(credential, context.parameters.get("pageId") ?? "", in: state.agents)
            // canPrincipalEditPage is false for a page that does not exist: a 403, not a 404.
            guard let page = state.agents.page(context.parameters.get("pageId") ?? "") else {
                throw Refusal(status: .forbidden, error: "You do not have permission to view this page configuration")
            }
            return Reply.json(Self.configJSON(page, dialect: state.dialect))
        }
        // apps/web/src/app/api/pages/[pageId]/agent-config/route.ts (PATCH, and on the current
        // server PUT its alias; the legacy route.ts exports GET and PATCH only, 13 and 86)
        let patch: @Sendable (Request, ServerContext) async throws -> Response = { request, context in
            let credential = try auth.require(request, scope: configScope)
            var request = request
            // request.json() throwing, or .trim() of a non-string: the route's catch-all 500.
            guard let body = try await request.jsonBodyIfValid() else {
                throw Refusal(status: .internalServerError, error: "Failed to update agent configuration")
            }
            try DriveScope.checkPage(credential, context.parameters.get("pageId") ?? "", in: state.agents)  // route.ts:133-135
            guard let page = state.agents.page(context.parameters.get("pageId") ?? "") else {
                throw Refusal(status: .forbidden, error: "You do not have permission to edit this page configuration")
            }
            return try updateConfig(page, body)
        }
        router.patch("/api/pages/:pageId/agent-config", use: patch)
        if state.dialect.isCurrent { router.put("/api/pages/:pageId/agent-config", use: patch) }
    }

    /// getCreatablePageTypes (packages/lib/src/content/page-types.config.ts:306-308): every
    /// PageType (packages/lib/src/utils/enums.ts:1-11, FILE included), none experimental.
    static let creatableTypes = ["FOLDER", "DOCUMENT", "CHANNEL", "AI_CHAT", "CANVAS", "FILE", "SHEET", "TASK_LIST", "CODE"]

    /// createPageSchema.safeParse (pages/route.ts:17-28, zod 4): each field's issue in the
    /// schema's order, in zod's English words; nil when the body is not an object.
    static func createPageIssues(_ body: JSON) -> [String]? {
        guard body.objectValue != nil else { return nil }
        var issues: [String] = []
        func oneOf(_ values: [String]) -> String {
            "Invalid option: expected one of " + values.map { "\"\($0)\"" }.joined(separator: "|")
        }
        func string(_ key: String, required: String? = nil, nullable: Bool = false) {
            switch body[key] {
            case .string(let text)?: if text.isEmpty, let required { issues.append(required) }
            case nil where required == nil: break
            case .null? where nullable: break
            case let other: issues.append(AuthRoutes.expected("string", other))
            }
        }
        func choice(_ key: String, _ values: [String], optional: Bool) {
            guard let value = body[key] else { if !optional { issues.append(oneOf(values)) }; return }
            if !values.contains(value.stringValue ?? "\u{0}") { issues.append(oneOf(values)) }
        }
        string("title", required: "Title is required")
        choice("type", Self.creatableTypes, optional: false)
        string("driveId", required: "Drive ID is required")
        string("parentId", nullable: true)
        string("content")
        choice("contentMode", ["html", "markdown"], optional: true)
        string("systemPrompt")
        switch body["enabledTools"] {
        case nil: break
        case .array(let items)?: for item in items where item.stringValue == nil { issues.append(AuthRoutes.expected("string", item)) }
        case let other: issues.append(AuthRoutes.expected("array", other))
        }
        string("aiProvider")
        string("aiModel")
        return issues
    }

    private func createPage(_ body: JSON, credential: Authenticator.Credential) throws -> Response {
        guard let problems = Self.createPageIssues(body) else {
            throw Refusal.badRequest(AuthRoutes.expected("object", body))
        }
        let (title, type, driveID) = (body["title"]?.stringValue ?? "", body["type"]?.stringValue ?? "", body["driveId"]?.stringValue ?? "")
        let tools = body["enabledTools"]?.arrayValue?.compactMap(\.stringValue)
        guard problems.isEmpty else { throw Refusal.badRequest(problems.joined(separator: ". ")) }
        try DriveScope.checkCreate(credential, driveID: driveID)  // route.ts:53-56
        if let tools, let invalid = Self.invalidTools(tools) { throw Refusal.badRequest("Invalid tools: " + invalid) }
        guard state.agents.drive(driveID) != nil else { throw Refusal.notFound("Drive not found") }
        let config = AgentDirectory.Config(
            systemPrompt: body["systemPrompt"]?.stringValue ?? "", enabledTools: tools ?? [],
            aiProvider: body["aiProvider"]?.stringValue ?? "", aiModel: body["aiModel"]?.stringValue ?? "")
        let page = state.agents.create(title: title, type: type, driveID: driveID, config: config)
        return Reply.json(page.json, status: .created)
    }

    private func updateConfig(_ page: AgentDirectory.Page, _ body: JSON) throws -> Response {
        let failed = Refusal(status: .internalServerError, error: "Failed to update agent configuration")
        if let tools = body["enabledTools"]?.arrayValue {
            if let invalid = Self.invalidTools(tools.map { $0.stringValue ?? $0.serialized() }) {
                throw Refusal.badRequest("Invalid tools: " + invalid)
            }
        }
        func text(_ key: String) throws -> String? {
            guard let value = body[key] else { return nil }
            guard let string = value.stringValue else { throw failed }
            return string.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let provider = try text("aiProvider"), model = try text("aiModel")
        // The late-2025 route took any provider and model (route.ts:140-146 at 458264c5b).
        if state.dialect.isCurrent, provider != nil || model != nil,
            let reason = state.aiSettings.catalog.refusal(provider: provider ?? page.config.aiProvider, model: model ?? page.config.aiModel) {
            throw Refusal.badRequest(reason)
        }
        var config = page.config
        if let prompt = try text("systemPrompt") { config.systemPrompt = prompt }
        if let tools = body["enabledTools"] { config.enabledTools = tools.arrayValue?.compactMap(\.stringValue) ?? [] }
        if let provider { config.aiProvider = provider }
        if let model { config.aiModel = model }
        guard let updated = state.agents.setConfig(page.id, config) else { throw Refusal.notFound("Page not found") }
        if !state.dialect.isCurrent {
            // route.ts:171-179 at 458264c5b: only the fields sent, an empty one as null.
            var answer = JSONObject()
            answer["success"] = true
            answer["message"] = "Agent configuration updated successfully"
            func stored(_ text: String?) -> JSON? { text.map { $0.isEmpty ? .null : .string($0) } }
            answer["systemPrompt"] = stored(try text("systemPrompt"))
            if body["enabledTools"] != nil {
                answer["enabledTools"] = updated.config.enabledTools.isEmpty ? .null : .array(updated.config.enabledTools.map(JSON.string))
            }
            answer["aiProvider"] = stored(provider)
            answer["aiModel"] = stored(model)
            answer["includeDrivePrompt"] = body["includeDrivePrompt"].map { _ in .bool(body["includeDrivePrompt"]?.boolValue ?? false) }
            return Reply.json(.object(answer))
        }
        return Reply.json([
            "success": true, "message": "Agent configuration updated successfully",
            "systemPrompt": .string(updated.config.systemPrompt),
            "enabledTools": .array(updated.config.enabledTools.map(JSON.string)),
            "aiProvider": .string(updated.config.aiProvider), "aiModel": .string(updated.config.aiModel),
            "includeDrivePrompt": false, "agentDefinition": "", "visibleToGlobalAssistant": true,
            "includePageTree": false, "pageTreeScope": "children",
        ])
    }

    /// The names not among the available tools, comma-separated; nil when all are.
    static func invalidTools(_ names: [String]) -> String? {
        let available = Set(SeedData.availableTools.map(\.0))
        let invalid = names.filter { !available.contains($0) }
        return invalid.isEmpty ? nil : invalid.joined(separator: ", ")
    }

    /// The GET answer; the late-2025 route gave only its first eight fields (route.ts:64-73
    /// at 458264c5b).
    static func configJSON(_ page: AgentDirectory.Page, dialect: Dialect = .pagespace) -> JSON {
        let legacy: JSON = [
            "pageId": .string(page.id), "systemPrompt": .string(page.config.systemPrompt),
            "enabledTools": .array(page.config.enabledTools.map(JSON.string)),
            "availableTools": .array(SeedData.availableTools.map { ["name": .string($0.0), "description": .string($0.1)] }),
            "aiProvider": .string(page.config.aiProvider), "aiModel": .string(page.config.aiModel),
            "includeDrivePrompt": false, "drivePrompt": .null,
        ]
        guard dialect.isCurrent, var current = legacy.objectValue else { return legacy }
        let newer: JSON = [
            "agentDefinition": "", "visibleToGlobalAssistant": true,
            "includePageTree": false, "pageTreeScope": "children", "toolExposureMode": "upfront", "sandboxEnabled": false,
        ]
        for (key, value) in newer.objectValue ?? JSONObject() { current[key] = value }
        return .object(current)
    }

    static func agentSummary(_ page: AgentDirectory.Page, includeSystemPrompt: Bool, includeTools: Bool) -> JSON {
        var agent = JSONObject()
        agent["id"] = .string(page.id)
        agent["title"] = .string(page.title)
        agent["parentId"] = "root"
        agent["position"] = .integer(Int64(page.position))
        agent["aiProvider"] = .string(page.config.aiProvider.isEmpty ? "default" : page.config.aiProvider)
        agent["aiModel"] = .string(page.config.aiModel.isEmpty ? "default" : page.config.aiModel)
        agent["hasWelcomeMessage"] = false
        agent["createdAt"] = .string(Timestamp.iso8601(page.createdAt))
        agent["updatedAt"] = .string(Timestamp.iso8601(page.updatedAt))
        agent["hasSystemPrompt"] = .bool(!page.config.systemPrompt.isEmpty)
        let prompt = page.config.systemPrompt
        if includeSystemPrompt && !prompt.isEmpty {
            agent["systemPrompt"] = .string(prompt)
        } else if !prompt.isEmpty {
            agent["systemPromptPreview"] = .string(String(prompt.prefix(100)) + (prompt.count > 100 ? "..." : ""))
        }
        if includeTools {
            agent["enabledTools"] = .array(page.config.enabledTools.map(JSON.string))
            agent["enabledToolsCount"] = .integer(Int64(page.config.enabledTools.count))
        }
        return .object(agent)
    }
}
