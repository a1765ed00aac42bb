import Foundation
import Testing
import TestSupport

/// The workspace from the shell, end to end against the local server: ps-agents (drives,
/// agents, configuration, create, ask), ps-keys (MCP keys, OAuth grants), ps-send --agent and
/// ps-history --rename/--delete, with a session token and with an MCP key.
@Suite struct WorkspaceCommandTests {
    static func start(_ dialect: String = "pagespace") throws -> LocalServer {
        try LocalServer.start(dialect: dialect, extraArguments: ["--quiet"])
    }

    static func mcp(_ server: LocalServer) throws -> NetworkSandbox {
        try NetworkSandbox(server: server, token: LocalServer.mcpKey)
    }

    /// The requests the server saw for `path` with `method`.
    static func requests(_ server: LocalServer, _ method: String, _ path: String) throws -> [[String: Any]] {
        try server.requestLog().filter { $0["method"] as? String == method && $0["path"] as? String == path }
    }

    @Test func drivesAndAgentsWithASessionAndAnMCPKey() throws {
        let server = try Self.start()
        defer { server.stop() }
        for sandbox in [try NetworkSandbox(server: server), try Self.mcp(server)] {
            let drives = try sandbox.run("ps-agents", ["drives"])
            #expect(drives.status == 0, "\(drives.stderrText)")
            // The seeded second drive too.
            #expect(Records.ids(try Records.parse(drives.stdoutText)) == ["drivedemo", "driveteam"])
            let agents = try sandbox.run("ps-agents", [])
            #expect(agents.status == 0, "\(agents.stderrText)")
            let records = try Records.parse(agents.stdoutText)
            #expect(Records.ids(records) == ["page_agent_demo", "page_agent_team"])
            #expect(records.first?["title"] as? String == "Research Assistant")
            #expect(records.first?["driveName"] as? String == "Demo Drive")
            // The seeded agent has today's default pair (packages/lib/src/ai/model-defaults.ts:6-7).
            #expect(records.first?["aiProvider"] as? String == "openai")
        }
        let sandbox = try NetworkSandbox(server: server)
        let byDrive = try sandbox.run("ps-agents", ["list", "--drive", "Demo Drive"])
        #expect(Records.ids(try Records.parse(byDrive.stdoutText)) == ["page_agent_demo"])
        let noDrive = try sandbox.run("ps-agents", ["list", "--drive", "nowhere"])
        #expect(noDrive.status == 6)
        #expect(noDrive.stderrText.contains("no drive nowhere"))
        let mistyped = try sandbox.run("ps-agents", ["lst"])
        #expect(mistyped.status == 2)
        #expect(mistyped.stderrText.contains("unknown subcommand 'lst'"))
    }

    @Test func anAgentIsFoundByIdOrTitleAndANameMustBeUnique() throws {
        let server = try Self.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let byTitle = try sandbox.run("ps-agents", ["show", "RESEARCH assistant"])
        #expect(byTitle.status == 0, "\(byTitle.stderrText)")
        #expect(try Records.parse(byTitle.stdoutText).first?["pageId"] as? String == "page_agent_demo")
        let unknown = try sandbox.run("ps-agents", ["show", "Nobody"])
        #expect(unknown.status == 6)
        #expect(unknown.stderrText == "ps-agents: no agent Nobody in your drives (ps-agents list shows them)\n")
        let created = try sandbox.run("ps-agents", ["create", "--drive", "drivedemo", "--title", "Research Assistant"])
        #expect(created.status == 0, "\(created.stderrText)")
        let newID = try #require(try Records.parse(created.stdoutText).first?["id"] as? String)
        let ambiguous = try sandbox.run("ps-agents", ["show", "research assistant"])
        #expect(ambiguous.status == 2)
        #expect(ambiguous.stderrText.contains("2 agents are called research assistant"))
        #expect(ambiguous.stderrText.contains("page_agent_demo (in Demo Drive)"))
        #expect(ambiguous.stderrText.contains(newID))
        let byID = try sandbox.run("ps-agents", ["show", newID])
        #expect(byID.status == 0)
        #expect(try Records.parse(byID.stdoutText).first?["pageId"] as? String == newID)
        // ps-send --agent resolves the same way, then sends as --page would.
        let sent = try sandbox.shell("ps-send --agent page_agent_demo 'Hello agent' | ps-sse | ps-parts --final")
        #expect(sent.status == 0, "\(sent.stderrText)")
        #expect(try Records.parse(sent.stdoutText).last?["role"] as? String == "assistant")
        let chat = try Self.requests(server, "POST", "/api/ai/chat")
        #expect((chat.last?["body"] as? [String: Any])?["chatId"] as? String == "page_agent_demo")
        let sendAmbiguous = try sandbox.run("ps-send", ["--agent", "Research Assistant", "hi"])
        #expect(sendAmbiguous.status == 2)
        let sendUnknown = try sandbox.run("ps-send", ["--agent", "Nobody", "hi"])
        #expect(sendUnknown.status == 6)
        let both = try sandbox.run("ps-send", ["--agent", "x", "--page", "y", "hi"])
        #expect(both.status == 2)
        #expect(try Self.requests(server, "POST", "/api/ai/chat").count == 1)
    }

    @Test func aConfigurationChangeShowsLaterAndAToolNotAvailableIsRefusedBeforeSending() throws {
        let server = try Self.start()
        defer { server.stop() }
        for sandbox in [try NetworkSandbox(server: server), try Self.mcp(server)] {
            let prompt = "You answer in haiku.\nAlways three lines."
            let set = try sandbox.run(
                "ps-agents",
                ["set", "Research Assistant", "--system-prompt-file", "-", "--enable-tool", "create_page", "--disable-tool", "list_pages"],
                stdin: prompt)
            #expect(set.status == 0, "\(set.stderrText)")
            let answer = try #require(try Records.parse(set.stdoutText).first)
            #expect(answer["success"] as? Bool == true)
            let shown = try #require(try Records.parse(try sandbox.run("ps-agents", ["show", "page_agent_demo"]).stdoutText).first)
            #expect(shown["systemPrompt"] as? String == prompt)
            #expect(shown["enabledTools"] as? [String] == ["read_page", "create_page"])
            // Put it back for the next credential.
            let reset = try sandbox.run("ps-agents", ["set", "page_agent_demo", "--enable-tool", "list_pages", "--disable-tool", "create_page"])
            #expect(reset.status == 0)
        }
        let sandbox = try NetworkSandbox(server: server)
        try server.clearRequestLog()
        let refused = try sandbox.run("ps-agents", ["set", "page_agent_demo", "--enable-tool", "launch_rockets"])
        #expect(refused.status == 2)
        #expect(refused.stderrText.contains("cannot have the tool launch_rockets; its available tools: read_page, list_pages, create_page, replace_lines"))
        #expect(try Self.requests(server, "PATCH", "/api/pages/page_agent_demo/agent-config").isEmpty)
        // validateAgentModelSelection (ai-providers-config.ts:460-486) against today's ids:
        // the legacy "gpt-4o" is no model of "openai" any more, "openai/gpt-4o" is.
        let legacyID = try sandbox.run("ps-agents", ["set", "page_agent_demo", "--provider", "openai", "--model", "gpt-4o"])
        #expect(legacyID.status == 1)
        #expect(legacyID.stderrText.contains("Model \"gpt-4o\" is not a valid model for provider \"openai\""))
        let model = try sandbox.run("ps-agents", ["set", "page_agent_demo", "--provider", "openai", "--model", "openai/gpt-4o"])
        #expect(model.status == 0, "\(model.stderrText)")
        let listed = try Records.parse(try sandbox.run("ps-agents", ["list"]).stdoutText)
        #expect(listed.first?["aiModel"] as? String == "openai/gpt-4o")
        // Azure OpenAI's models are deployment names: any is accepted (isDynamicModelProvider).
        let azure = try sandbox.run("ps-agents", ["set", "page_agent_demo", "--provider", "azure_openai", "--model", "my-deployment"])
        #expect(azure.status == 0, "\(azure.stderrText)")
        #expect(try sandbox.run("ps-agents", ["set", "page_agent_demo", "--provider", "openai", "--model", "openai/gpt-4o"]).status == 0)
        let badModel = try sandbox.run("ps-agents", ["set", "page_agent_demo", "--model", "no-such-model"])
        #expect(badModel.status == 1)
        #expect(badModel.stderrText.contains("Model \"no-such-model\" is not a valid model for provider \"openai\""))
        let badProvider = try sandbox.run("ps-agents", ["set", "page_agent_demo", "--provider", "acme"])
        #expect(badProvider.stderrText.contains("Unknown or unavailable AI provider \"acme\""))
        let nothing = try sandbox.run("ps-agents", ["set", "page_agent_demo"])
        #expect(nothing.status == 2)
        #expect(nothing.stderrText.contains("nothing to change"))
    }

    @Test func aCreatedAgentIsListedAndConfigured() throws {
        let server = try Self.start()
        defer { server.stop() }
        let sandbox = try Self.mcp(server)
        let created = try sandbox.run(
            "ps-agents", ["create", "--drive", "demo-drive", "--title", "Release Notes", "--system-prompt", "Be brief."])
        #expect(created.status == 0, "\(created.stderrText)")
        let page = try #require(try Records.parse(created.stdoutText).first)
        #expect(page["type"] as? String == "AI_CHAT")
        let id = try #require(page["id"] as? String)
        let body = try #require(try Self.requests(server, "POST", "/api/pages").last?["body"] as? [String: Any])
        #expect(body["driveId"] as? String == "drivedemo")
        #expect(body["systemPrompt"] as? String == "Be brief.")
        let listed = try Records.parse(try sandbox.run("ps-agents", ["list"]).stdoutText)
        #expect(Records.ids(listed) == ["page_agent_demo", id, "page_agent_team"])
        #expect(listed.first { $0["id"] as? String == id }?["aiProvider"] as? String == "default")
        let shown = try #require(try Records.parse(try sandbox.run("ps-agents", ["show", "release notes"]).stdoutText).first)
        #expect(shown["systemPrompt"] as? String == "Be brief.")
        let noDrive = try sandbox.run("ps-agents", ["create", "--drive", "elsewhere", "--title", "X"])
        #expect(noDrive.status == 6)
        let blank = try sandbox.run("ps-agents", ["create", "--drive", "demo-drive", "--title", "  "])
        #expect(blank.status == 2)
    }

    @Test func askWritesTheWholeAnswerAsAStreamThePipelineReads() throws {
        let server = try Self.start()
        defer { server.stop() }
        for sandbox in [try NetworkSandbox(server: server), try Self.mcp(server)] {
            let first = try sandbox.shell(
                "ps-agents ask --print-ids 'Research Assistant' 'What changed this week?' | ps-sse | ps-parts --final")
            #expect(first.status == 0, "\(first.stderrText)")
            let message = try #require(try Records.parse(first.stdoutText).last)
            #expect(message["role"] as? String == "assistant")
            #expect(Records.text(of: message).contains("What changed this week?"))
            let conversation = try #require(Records.value("conversation", in: first.stderrText))
            #expect((message["metadata"] as? [String: Any])?["conversationId"] as? String == conversation)
            let again = try sandbox.shell(
                "echo 'And next week?' | ps-agents ask page_agent_demo --conversation \(conversation) | ps-sse | ps-parts --final")
            #expect(again.status == 0, "\(again.stderrText)")
            let reply = try #require(try Records.parse(again.stdoutText).last)
            #expect((reply["metadata"] as? [String: Any])?["conversationId"] as? String == conversation)
            let consult = try #require(try Self.requests(server, "POST", "/api/ai/page-agents/consult").last?["body"] as? [String: Any])
            #expect(consult["conversationId"] as? String == conversation)
            #expect(consult["question"] as? String == "And next week?")
            let history = try sandbox.run("ps-history", ["--page", "page_agent_demo", "--conversation", conversation])
            #expect(try Records.parse(history.stdoutText).count == 4, "\(history.stdoutText)")
        }
        let sandbox = try NetworkSandbox(server: server)
        let rendered = try sandbox.shell("ps-agents ask page_agent_demo 'Hello' | ps-sse | ps-parts | ps-render --format plain --width 60")
        #expect(rendered.status == 0, "\(rendered.stderrText)")
        #expect(rendered.stdoutText.contains("About your question"))
        let unknown = try sandbox.run("ps-agents", ["ask", "page_agent_demo", "--conversation", "nosuchconversation", "Hi"])
        #expect(unknown.status == 6)
        #expect(unknown.stderrText.contains("Conversation not found"))
        #expect(unknown.stdoutText.isEmpty)
    }

    @Test func keysAreListedAndARevokedKeyStopsWorking() throws {
        let server = try Self.start()
        defer { server.stop() }
        let session = try NetworkSandbox(server: server)
        let key = try Self.mcp(server)
        let list = try session.run("ps-keys", [])
        #expect(list.status == 0, "\(list.stderrText)")
        let keys = try Records.parse(list.stdoutText)
        #expect(Records.ids(keys) == ["key_demo"])
        #expect(!list.stdoutText.contains(LocalServer.mcpKey))
        let byKey = try key.run("ps-keys", ["list"])
        #expect(byKey.status == 4)
        #expect(byKey.stderrText.contains("an MCP key cannot list or revoke keys"))
        let secret = try session.run("ps-keys", ["revoke", LocalServer.mcpKey])
        #expect(secret.status == 2)
        #expect(!secret.stderrText.contains(LocalServer.mcpKey))
        #expect(try key.run("ps-agents", ["drives"]).status == 0)
        let revoked = try session.run("ps-keys", ["revoke", "key_demo"])
        #expect(revoked.status == 0, "\(revoked.stderrText)")
        #expect(try Records.parse(revoked.stdoutText).first?["revoked"] as? Bool == true)
        let after = try key.run("ps-agents", ["drives"])
        #expect(after.status == 4)
        #expect(try Records.parse(try session.run("ps-keys", []).stdoutText).isEmpty)
        let twice = try session.run("ps-keys", ["revoke", "key_demo"])
        #expect(twice.status == 6)
        #expect(twice.stderrText.contains("Token not found"))
    }

    @Test func grantsNeedASessionAndAStepUpToRevoke() throws {
        let server = try Self.start()
        defer { server.stop() }
        let session = try NetworkSandbox(server: server)
        let grants = try Records.parse(try session.run("ps-keys", ["grants"]).stdoutText)
        #expect(Records.ids(grants) == ["grant_demo"])
        #expect(grants.first?["clientName"] as? String == "PageSpace CLI")
        let byKey = try Self.mcp(server).run("ps-keys", ["grants"])
        #expect(byKey.status == 4)
        let noStepUp = try session.run("ps-keys", ["revoke-grant", "grant_demo"])
        #expect(noStepUp.status == 4)
        #expect(noStepUp.stderrText.contains("wants a fresh confirmation"))
        let revoked = try session.run("ps-keys", ["revoke-grant", "grant_demo", "--step-up-token-stdin"], stdin: "ps_stepup_demo\n")
        #expect(revoked.status == 0, "\(revoked.stderrText)")
        #expect(try Records.parse(try session.run("ps-keys", ["grants"]).stdoutText).isEmpty)
        let reused = try session.run("ps-keys", ["revoke-grant", "grant_demo", "--step-up-token-stdin"], stdin: "ps_stepup_demo\n")
        #expect(reused.status == 4)
        #expect(reused.stderrText.contains("did not accept the step-up token"))
    }

    @Test func globalConversationsAreRenamedAndDeleted() throws {
        let server = try Self.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let renamed = try sandbox.run("ps-history", ["--rename", LocalServer.globalConversationID, "--title", "Trip planning"])
        #expect(renamed.status == 0, "\(renamed.stderrText)")
        #expect(try Records.parse(renamed.stdoutText).first?["title"] as? String == "Trip planning")
        let body = try #require(try Self.requests(server, "PATCH", "/api/ai/global/demoglobalconversation").last?["body"] as? [String: Any])
        #expect(body["title"] as? String == "Trip planning")
        let listed = try Records.parse(try sandbox.run("ps-history", ["--list"]).stdoutText)
        #expect(listed.first?["title"] as? String == "Trip planning")
        let byKey = try Self.mcp(server).run("ps-history", ["--delete", LocalServer.globalConversationID])
        #expect(byKey.status == 4)
        let deleted = try sandbox.run("ps-history", ["--delete", LocalServer.globalConversationID])
        #expect(deleted.status == 0, "\(deleted.stderrText)")
        #expect(try Records.parse(deleted.stdoutText).first?["deleted"] as? Bool == true)
        #expect(try Records.parse(try sandbox.run("ps-history", ["--list"]).stdoutText).isEmpty)
        let again = try sandbox.run("ps-history", ["--delete", LocalServer.globalConversationID])
        #expect(again.status == 6)
        #expect(again.stderrText.contains("there is no global conversation demoglobalconversation"))
        let renameGone = try sandbox.run("ps-history", ["--rename", "nosuchconversation", "--title", "x"])
        #expect(renameGone.status == 6)
    }

    @Test func theLegacyAPIListsAgentsAndHasTheirConfiguration() throws {
        let server = try Self.start("pagespace-legacy")
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let shown = try sandbox.run("ps-agents", ["show", "page_agent_demo"])
        #expect(shown.status == 0, "\(shown.stderrText)")
        #expect(try Records.parse(shown.stdoutText).first?["enabledTools"] as? [String] == ["read_page", "list_pages"])
        let set = try sandbox.run("ps-agents", ["set", "page_agent_demo", "--enable-tool", "replace_lines"])
        #expect(set.status == 0, "\(set.stderrText)")
        let patch = try #require(try Self.requests(server, "PATCH", "/api/pages/page_agent_demo/agent-config").last)
        #expect((patch["body"] as? [String: Any])?["enabledTools"] as? [String] == ["read_page", "list_pages", "replace_lines"])
        // apps/web/src/app/api/drives/[driveId]/agents/route.ts:33,133-140 at 458264c5b: the
        // drive's agents, found by title too.
        let listed = try sandbox.run("ps-agents", ["list"])
        #expect(listed.status == 0, "\(listed.stderrText)")
        #expect(try Records.parse(listed.stdoutText).contains { $0["id"] as? String == "page_agent_demo" })
        for (command, arguments, what) in [
            ("ps-agents", ["ask", "page_agent_demo", "hi"], "ask an agent"),
            ("ps-keys", ["list"], "manage MCP keys"),
        ] {
            let refused = try sandbox.run(command, arguments)
            #expect(refused.status == 2, "\(command) \(arguments)")
            #expect(refused.stderrText.contains("the pagespace-legacy API cannot \(what)"), "\(refused.stderrText)")
        }
    }
}
