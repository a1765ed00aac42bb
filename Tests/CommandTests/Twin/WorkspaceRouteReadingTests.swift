import Foundation
import Testing
import TestSupport

/// The current server's workspace routes as the real handlers answer them, where the local
/// server used to answer otherwise (issue 16, "Also wrong in the local server"): the agents
/// list, consult, bodies that are not JSON, page types, step-up tokens, the agent models,
/// search and the free tier. Each test cites the real file and line it checks.
@Suite struct WorkspaceRouteReadingTests {
    static let session = ["Authorization": "Bearer \(LocalServer.sessionToken)"]
    static let mcp = ["Authorization": "Bearer \(LocalServer.mcpKey)"]

    static func start() throws -> LocalServer { try LocalServer.start(extraArguments: ["--quiet"]) }

    static func error(_ reply: HTTPReply) throws -> String? { try reply.jsonObject()["error"] as? String }

    static func createPage(_ server: LocalServer, title: String, type: String) throws -> String {
        let reply = try server.request(
            "POST", "/api/pages", headers: session, body: #"{"title":"\#(title)","type":"\#(type)","driveId":"drivedemo"}"#)
        #expect(reply.status == 201, "\(reply.text)")
        return try #require(try reply.jsonObject()["id"] as? String)
    }

    // apps/web/src/app/api/drives/[driveId]/agents/route.ts:145-165
    @Test func theAgentsListHasStatsAndNextSteps() throws {
        let server = try Self.start()
        defer { server.stop() }
        _ = try Self.createPage(server, title: "Plain Agent", type: "AI_CHAT")
        let listed = try server.request("GET", "/api/drives/drivedemo/agents", headers: Self.mcp).jsonObject()
        let stats = try #require(listed["stats"] as? [String: Int])
        // The seeded agent has a prompt and tools; the new one neither.
        #expect(stats == ["totalInDrive": 2, "accessible": 2, "withSystemPrompt": 1, "withTools": 1])
        #expect(listed["nextSteps"] as? [String] == [
            "Use read_page to view full agent configurations",
            "Use update_agent_config to modify agent settings",
            "Use spawn_session (with the agent id as `agent`) to delegate to specific agents",
            "Drive: Demo Drive (drivedemo)",
        ])
        // Without the tools in the summaries, none counts as having tools (route.ts:126-129,157).
        let noTools = try server.request("GET", "/api/drives/drivedemo/agents?includeTools=false", headers: Self.mcp)
        #expect((try noTools.jsonObject()["stats"] as? [String: Int])?["withTools"] == 0)
        // The client reads the agents all the same.
        let sandbox = try NetworkSandbox(server: server)
        let agents = try sandbox.run("ps-agents", ["list"])
        #expect(agents.status == 0, "\(agents.stderrText)")
        // Both here and the seeded second drive's.
        #expect(try Records.parse(agents.stdoutText).count == 3)
    }

    // apps/web/src/app/api/ai/page-agents/consult/route.ts:211-212 (the body), 715-720
    // (nextSteps), 723-728 (the catch-all 500)
    @Test func consultHasNextStepsAndABodyThatIsNotJSONIsA500() throws {
        let server = try Self.start()
        defer { server.stop() }
        let answer = try server.request(
            "POST", "/api/ai/page-agents/consult", headers: Self.mcp, body: #"{"agentId":"page_agent_demo","question":"Hello?"}"#)
        #expect(answer.status == 200, "\(answer.text)")
        let steps = try #require(try answer.jsonObject()["nextSteps"] as? [String])
        #expect(steps.count == 4)
        #expect(steps.first == "Review the agent's response for insights")
        #expect(steps.last == "Agent: Research Assistant (page_agent_demo)")
        let cases: [(String, String)] = [
            ("not json", #"Failed to consult agent: Unexpected token 'o', "not json" is not valid JSON"#),
            ("", "Failed to consult agent: Unexpected end of JSON input"),
            ("null", "Failed to consult agent: Cannot destructure property 'agentId' of 'body' as it is null."),
        ]
        for (body, message) in cases {
            let reply = try server.request("POST", "/api/ai/page-agents/consult", headers: Self.mcp, body: body)
            #expect(reply.status == 500, "\(body): \(reply.text)")
            #expect(try Self.error(reply) == message)
        }
    }

    // apps/web/src/app/api/ai/chat/messages/[messageId]/route.ts:56,180-185;
    // apps/web/src/app/api/ai/global/[id]/messages/[messageId]/route.ts:35,141-146;
    // apps/web/src/app/api/ai/chat/messages/[messageId]/undo/route.ts:218,382-389
    @Test func editAndUndoBodiesThatAreNotJSONAreA500() throws {
        let server = try Self.start()
        defer { server.stop() }
        let edits = [
            ("PATCH", "/api/ai/chat/messages/any_message", "Failed to edit message"),
            ("PATCH", "/api/ai/global/demoglobalconversation/messages/any_message", "Failed to edit message"),
            ("POST", "/api/ai/chat/messages/any_message/undo", "Internal server error"),
        ]
        for (method, path, message) in edits {
            let reply = try server.request(method, path, headers: Self.session, body: "{oops")
            #expect(reply.status == 500, "\(path): \(reply.text)")
            #expect(try Self.error(reply) == message)
        }
        // JSON without the fields stays the 400 it was.
        let noContent = try server.request("PATCH", "/api/ai/chat/messages/any_message", headers: Self.session, body: "{}")
        #expect(noContent.status == 400)
        let noMode = try server.request("POST", "/api/ai/chat/messages/any_message/undo", headers: Self.session, body: "null")
        #expect(noMode.status == 400)
    }

    // packages/lib/src/utils/enums.ts:1-11; packages/lib/src/content/page-types.config.ts:306-308
    @Test func aFilePageCanBeMade() throws {
        let server = try Self.start()
        defer { server.stop() }
        _ = try Self.createPage(server, title: "Scan", type: "FILE")
        let refused = try server.request(
            "POST", "/api/pages", headers: Self.session, body: #"{"title":"X","type":"MACHINE","driveId":"drivedemo"}"#)
        #expect(refused.status == 400)
        #expect(try Self.error(refused)?.contains(#""CANVAS"|"FILE"|"SHEET""#) == true)
    }

    // apps/web/src/app/api/pages/route.ts:17-48 (createPageSchema, zod 4's English words,
    // joined with ". "): a missing field is its invalid_type, an empty one its own message, a
    // body that is JSON but no object a 400 too; only a body that is not JSON is the 500.
    @Test func aPageBodyIsCheckedAsZodChecksIt() throws {
        let server = try Self.start()
        defer { server.stop() }
        let types = #"Invalid option: expected one of "FOLDER"|"DOCUMENT"|"CHANNEL"|"AI_CHAT"|"CANVAS"|"FILE"|"SHEET"|"TASK_LIST"|"CODE""#
        let missing = "Invalid input: expected string, received undefined"
        let cases: [(body: String, status: Int, error: String)] = [
            ("{}", 400, "\(missing). \(types). \(missing)"),
            (#"{"title":"","type":"AI_CHAT","driveId":""}"#, 400, "Title is required. Drive ID is required"),
            (#"{"title":5,"type":"AI_CHAT","driveId":"drivedemo","parentId":null}"#, 400, "Invalid input: expected string, received number"),
            (#"{"title":"T","type":"AI_CHAT","driveId":"drivedemo","contentMode":"rtf","enabledTools":[1]}"#, 400,
             #"Invalid option: expected one of "html"|"markdown". Invalid input: expected string, received number"#),
            ("[]", 400, "Invalid input: expected object, received array"),
            ("not json", 500, "Failed to create page"),
        ]
        for (body, status, error) in cases {
            let answer = try server.request("POST", "/api/pages", headers: Self.session, body: body)
            #expect(answer.status == status, "\(body): \(answer.text)")
            #expect(try Self.error(answer) == error, "\(body)")
        }
    }

    // apps/web/src/app/api/account/oauth-grants/[grantId]/route.ts:43-50;
    // packages/lib/src/auth/step-up-service.ts:252-279 (a binding mismatch does not use it up)
    @Test func aStepUpTokenIsGoodOnlyForTheActionItIsBoundTo() throws {
        let server = try Self.start()
        defer { server.stop() }
        let body = #"{"stepUpToken":"ps_stepup_demo"}"#
        // The seeded token confirms revoking grant_demo: shown for another grant, it is refused
        // as no token at all would be, and stays good.
        let elsewhere = try server.request("DELETE", "/api/account/oauth-grants/grant_other", headers: Self.session, body: body)
        #expect(elsewhere.status == 401)
        #expect(try Self.error(elsewhere) == "step_up_required")
        // One minted for another action does not revoke grant_demo either.
        let minted = try server.request(
            "POST", "/_test/step-up", body: #"{"actionBinding":{"op":"revoke_oauth_grant","grantId":"grant_other"}}"#)
        let other = try #require(try minted.jsonObject()["stepUpToken"] as? String)
        let sandbox = try NetworkSandbox(server: server)
        let wrong = try sandbox.run("ps-keys", ["revoke-grant", "grant_demo", "--step-up-token-stdin"], stdin: other + "\n")
        #expect(wrong.status == 4)
        #expect(wrong.stderrText.contains("did not accept the step-up token"))
        #expect(wrong.stderrText.contains("revoking grant grant_demo"), "\(wrong.stderrText)")
        let revoked = try sandbox.run("ps-keys", ["revoke-grant", "grant_demo", "--step-up-token-stdin"], stdin: "ps_stepup_demo\n")
        #expect(revoked.status == 0, "\(revoked.stderrText)")
        // The minted one is good for its own grant (which does not exist: the 404 comes after it).
        let own = try server.request(
            "DELETE", "/api/account/oauth-grants/grant_other", headers: Self.session, body: #"{"stepUpToken":"\#(other)"}"#)
        #expect(own.status == 404)
        #expect(try Self.error(own) == "Grant not found")
    }

    // apps/web/src/app/api/v1/models/route.ts:23-41; v1/chat/completions/route.ts:106-109
    @Test func theAgentModelsAreEveryAIChatPageMadeSinceToo() throws {
        let server = try Self.start()
        defer { server.stop() }
        let id = try Self.createPage(server, title: "Made Later", type: "AI_CHAT")
        _ = try Self.createPage(server, title: "Not An Agent", type: "DOCUMENT")
        let models = try server.request("GET", "/api/v1/models", headers: Self.mcp).jsonObject()
        let data = try #require(models["data"] as? [[String: Any]])
        #expect(data.map { $0["id"] as? String } == ["ps-agent://page_agent_demo", "ps-agent://page_agent_team", "ps-agent://\(id)"])
        let created = try #require(data.last?["created"] as? Int)
        #expect(abs(Double(created) - Date().timeIntervalSince1970) < 600)
        let sandbox = try NetworkSandbox(extra: [
            "PAGESPACE_TOKEN": LocalServer.mcpKey, "PAGESPACE_API_URL": server.baseURL + "/api/v1", "PAGESPACE_API_KIND": "openai",
        ])
        let listed = try sandbox.run("ps-models", [])
        #expect(listed.status == 0, "\(listed.stderrText)")
        #expect(Records.ids(try Records.parse(listed.stdoutText)).contains("ps-agent://\(id)"))
        let asked = try server.request(
            "POST", "/api/v1/chat/completions", headers: Self.mcp,
            body: #"{"model":"ps-agent://\#(id)","messages":[{"role":"user","content":"Hi"}]}"#)
        #expect(asked.status == 200, "\(asked.text)")
    }

    // apps/web/src/app/api/search/route.ts:294-317: the WHERE, then .limit(50)
    @Test func searchFiltersBeforeItTakesFifty() throws {
        let server = try Self.start()
        defer { server.stop() }
        for number in 1...50 { _ = try Self.createPage(server, title: "Filler \(number)", type: "DOCUMENT") }
        let zebra = try Self.createPage(server, title: "Zebra Plans", type: "DOCUMENT")
        let reply = try server.request("GET", "/api/search?q=zebra", headers: Self.session)
        let results = try #require(try reply.jsonObject()["results"] as? [[String: Any]])
        #expect(results.map { $0["id"] as? String } == [zebra])
        let sandbox = try NetworkSandbox(server: server)
        let found = try sandbox.run("ps-search", ["zebra"])
        #expect(found.status == 0, "\(found.stderrText)")
        #expect(Records.ids(try Records.parse(found.stdoutText)) == [zebra])
    }

    // apps/web/src/app/api/ai/settings/route.ts:157-166; lib/subscription/rate-limit-middleware.ts:17-21;
    // lib/ai/core/ai-providers-config.ts:66-88 (isModelAllowedForTier looks at the model only)
    @Test func theFreeTierCheckAppliesToOllamaAndLMStudioToo() throws {
        let server = try Self.start()
        defer { server.stop() }
        for body in [#"{"provider":"ollama","model":"llama3.2:latest"}"#, #"{"provider":"lmstudio"}"#] {
            let reply = try server.request("PATCH", "/api/ai/settings", headers: Self.session, body: body)
            #expect(reply.status == 403, "\(body): \(reply.text)")
            #expect(try Self.error(reply) == "Subscription required")
        }
        let sandbox = try NetworkSandbox(server: server)
        let refused = try sandbox.run("ps-settings", ["--set", "provider=ollama", "--set", "model=llama3.2:latest"])
        #expect(refused.status == 5, "\(refused.stderrText)")
        #expect(refused.stderrText.contains("paid plans"), "\(refused.stderrText)")
        let settings = try server.request("GET", "/api/ai/settings", headers: Self.session).jsonObject()
        #expect(settings["currentProvider"] as? String != "ollama")
    }
}
