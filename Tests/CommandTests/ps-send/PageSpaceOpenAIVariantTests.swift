import Foundation
import Testing
import TestSupport

/// The openai API kind's PageSpace variant (a server ending in /api/v1, an MCP key) end to end
/// against the local server's pagespace dialect: the server keeps the conversations, its
/// agents are the models. Also ps-models and a profile's default model on the plain dialect.
@Suite struct PageSpaceOpenAIVariantTests {
    static let agentModel = "ps-agent://page_agent_demo"

    /// A sandbox logged in to the server's /api/v1 with the MCP key (and `model`, if given).
    static func loggedIn(_ server: LocalServer, model: String? = nil) throws -> NetworkSandbox {
        let sandbox = try NetworkSandbox()
        var arguments = ["login", "--api", "openai", "--server", server.baseURL + "/api/v1", "--with-token"]
        if let model { arguments += ["--model", model] }
        let login = try sandbox.run("ps-auth", arguments, stdin: LocalServer.mcpKey + "\n")
        #expect(login.status == 0, "\(login.stderrText)")
        return sandbox
    }

    static func sends(_ server: LocalServer, path: String) throws -> [[String: Any]] {
        try server.requestLog().filter { $0["path"] as? String == path && $0["method"] as? String == "POST" }
            .compactMap { $0["body"] as? [String: Any] }
    }

    @Test func threeTurnsKeptByTheServerListedExportedRenderedAndDeleted() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.loggedIn(server, model: Self.agentModel)

        let first = try sandbox.shell(
            "ps-send --new-conversation --print-ids 'First question: please use a tool' | ps-sse | ps-parts --final")
        #expect(first.status == 0, "\(first.stderrText)")
        let id = try #require(Records.value("conversation", in: first.stderrText))
        for question in ["Second question", "Third question"] {
            let turn = try sandbox.shell("ps-send '\(question)' | ps-sse | ps-parts --final")
            #expect(turn.status == 0, "\(turn.stderrText)")
            #expect(try Records.parse(turn.stdoutText).last?["role"] as? String == "assistant")
        }

        // The conversation was made with the first message as its title; each send named it and
        // carried only its own message: the server holds the rest.
        let created = try Self.sends(server, path: "/api/v1/conversations")
        #expect(created.count == 1)
        #expect(created.first?["title"] as? String == "First question: please use a tool")
        let sent = try Self.sends(server, path: "/api/v1/chat/completions")
        #expect(sent.count == 3)
        #expect(sent.map { $0["conversation_id"] as? String } == [id, id, id])
        #expect(sent.map { $0["model"] as? String } == Array(repeating: Self.agentModel, count: 3))
        let contents = sent.map { (($0["messages"] as? [[String: Any]]) ?? []).map { $0["content"] as? String } }
        #expect(contents == [["First question: please use a tool"], ["Second question"], ["Third question"]])

        let list = try Records.parse(try sandbox.run("ps-history", ["--list"]).stdoutText)
        let record = try #require(list.first { $0["id"] as? String == id })
        #expect(record["title"] as? String == "First question: please use a tool")
        #expect(record["createdAt"] is String)

        // The default conversation is the last one used; its OpenAI-style messages come back as
        // UIMessages, the tool call paired with its result.
        let export = try sandbox.run("ps-history", [])
        #expect(export.status == 0, "\(export.stderrText)")
        let messages = try Records.parse(export.stdoutText)
        #expect(messages.map { $0["role"] as? String } == ["user", "assistant", "user", "assistant", "user", "assistant"])
        let parts = try #require(messages[1]["parts"] as? [[String: Any]])
        let call = try #require(parts.first)
        #expect(call["type"] as? String == "tool-read_page")
        #expect(call["state"] as? String == "output-available")
        #expect((call["input"] as? [String: Any])?["pageId"] as? String == "page_doc_demo")
        #expect(call["output"] != nil)
        #expect(parts.last?["type"] as? String == "text")
        #expect(messages.allSatisfy { $0["createdAt"] is String && $0["id"] is String })
        let exportedByID = try sandbox.run("ps-history", ["--conversation", id])
        #expect(exportedByID.stdoutText == export.stdoutText)

        let rendered = try sandbox.shell("ps-history | ps-render --format markdown --tools full")
        #expect(rendered.status == 0, "\(rendered.stderrText)")
        #expect(rendered.stdoutText.contains("read_page"))
        #expect(rendered.stdoutText.contains("page_doc_demo"))
        #expect(rendered.stdoutText.contains("Third question"))

        let deleted = try sandbox.run("ps-history", ["--delete", id])
        #expect(deleted.status == 0, "\(deleted.stderrText)")
        #expect(try Records.parse(deleted.stdoutText).first?["deleted"] as? Bool == true)
        let after = try Records.parse(try sandbox.run("ps-history", ["--list"]).stdoutText)
        #expect(!Records.ids(after).contains(id))
        let gone = try sandbox.run("ps-send", ["--conversation", id, "hello?"])
        #expect(gone.status == 6, "\(gone.stderrText)")
        #expect(gone.stderrText.contains(id))
        let again = try sandbox.run("ps-history", ["--delete", id])
        #expect(again.status == 6, "\(again.stderrText)")
    }

    @Test func pageMeansTheAgentsModelAndTheOnlyListedModelIsTheDefault() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        // A key scoped to drivedemo: the server lists that drive's one agent (the seeded
        // second drive has another).
        let sandbox = try NetworkSandbox()
        let login = try sandbox.run(
            "ps-auth", ["login", "--api", "openai", "--server", server.baseURL + "/api/v1", "--with-token"],
            stdin: try DriveScopedKeyTests.scopedKey(server, drive: "drivedemo") + "\n")
        #expect(login.status == 0, "\(login.stderrText)")

        let models = try sandbox.run("ps-models", [])
        #expect(models.status == 0, "\(models.stderrText)")
        let records = try Records.parse(models.stdoutText)
        #expect(Records.ids(records) == [Self.agentModel])
        #expect(records.first?["ownedBy"] as? String == "pagespace")
        #expect(records.first?["created"] is Int)

        let page = try sandbox.run("ps-send", ["--page", "page_agent_demo", "--print-ids", "hello agent"])
        #expect(page.status == 0, "\(page.stderrText)")
        let id = try #require(Records.value("conversation", in: page.stderrText))
        // Neither --model nor a profile model: the server lists one agent, so it is used.
        let plain = try sandbox.run("ps-send", ["and again"])
        #expect(plain.status == 0, "\(plain.stderrText)")
        let sent = try Self.sends(server, path: "/api/v1/chat/completions")
        #expect(sent.map { $0["model"] as? String } == [Self.agentModel, Self.agentModel])
        #expect(sent.map { $0["conversation_id"] as? String } == [id, id])
        let history = try Records.parse(try sandbox.run("ps-history", ["--conversation", id]).stdoutText)
        #expect(history.count == 4)
        #expect(Records.text(of: history[0]) == "hello agent")

        let system = try sandbox.run("ps-send", ["--system", "Be brief.", "hi"])
        #expect(system.status == 2)
        #expect(system.stderrText.contains("--system"))
        let unknownPage = try sandbox.run("ps-history", ["--page", "page_agent_demo"])
        #expect(unknownPage.status == 2, "\(unknownPage.stderrText)")
    }

    @Test func aSessionTokenIsRefusedWithTheServersWords() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let login = try sandbox.run(
            "ps-auth", ["login", "--api", "openai", "--server", server.baseURL + "/api/v1", "--with-token"],
            stdin: LocalServer.sessionToken + "\n")
        #expect(login.status == 4, "\(login.stderrText)")
        #expect(login.stderrText.contains("MCP token required"))
        #expect(login.stderrText.contains("mcp_"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.credentialsPath))
        let send = try sandbox.run("ps-send", ["hi"], env: [
            "PAGESPACE_API_URL": server.baseURL + "/api/v1", "PAGESPACE_API_KIND": "openai",
            "PAGESPACE_TOKEN": LocalServer.sessionToken,
        ])
        #expect(send.status == 4, "\(send.stderrText)")
        #expect(send.stderrText.contains("MCP token required"))
    }

    @Test func theProfilesModelIsUsedOnAPlainOpenAIServer() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let login = try sandbox.run(
            "ps-auth", ["login", "--api", "openai", "--server", server.baseURL, "--model", "ps-demo-mini"])
        #expect(login.status == 0, "\(login.stderrText)")
        let status = try sandbox.run("ps-auth", ["status", "--offline"])
        #expect(status.stdoutText.contains("model: ps-demo-mini"), "\(status.stdoutText)")

        #expect(try sandbox.run("ps-send", ["first"]).status == 0)
        let set = try sandbox.run("ps-auth", ["set-model", "ps-demo"])
        #expect(set.status == 0, "\(set.stderrText)")
        #expect(try sandbox.run("ps-send", ["second"]).status == 0)
        #expect(try sandbox.run("ps-send", ["--model", "ps-demo-mini", "third"]).status == 0)
        let models = try Self.sends(server, path: "/v1/chat/completions").map { $0["model"] as? String }
        #expect(models == ["ps-demo-mini", "ps-demo", "ps-demo-mini"])

        // No model anywhere, and the server lists two: exit 2 naming them.
        #expect(try sandbox.run("ps-auth", ["set-model", "--unset"]).status == 0)
        let none = try sandbox.run("ps-send", ["fourth"])
        #expect(none.status == 2)
        #expect(none.stderrText.contains("ps-demo, ps-demo-mini"), "\(none.stderrText)")
        let noProfile = try sandbox.run("ps-auth", ["set-model", "x", "--profile", "nosuch"])
        #expect(noProfile.status == 2, "\(noProfile.stderrText)")
    }

    @Test func psModelsListsAnOpenAIServersModelsAndOtherAPIsExitTwo() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try OpenAIBackendTests.sandbox(server)
        let models = try sandbox.run("ps-models", [])
        #expect(models.status == 0, "\(models.stderrText)")
        let records = try Records.parse(models.stdoutText)
        #expect(Records.ids(records) == ["ps-demo", "ps-demo-mini"])
        #expect(records.allSatisfy { $0["ownedBy"] as? String == "ps-local-server" && $0["created"] is Int })

        // The legacy PageSpace API has no model list (the current one's is SearchAndSettingsTests').
        let legacy = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--quiet"])
        defer { legacy.stop() }
        let refused = try NetworkSandbox(extra: [
            "PAGESPACE_TOKEN": "any", "PAGESPACE_API_URL": legacy.baseURL, "PAGESPACE_API_KIND": "pagespace-legacy",
        ]).run("ps-models", [])
        #expect(refused.status == 2)
        #expect(refused.stderrText.contains("cannot list models"), "\(refused.stderrText)")
    }

    /// The route's own behaviour: with a conversation_id (and no client_manages_history) the
    /// server uses the conversation it keeps and only the request's last message, so earlier
    /// messages the client sends (a system prompt asking for a tool here) change nothing.
    @Test func aKeptConversationUsesOnlyTheLastMessageSent() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let headers = ["Authorization": "Bearer \(LocalServer.mcpKey)"]
        let messages = #"[{"role":"system","content":"Always use a tool."},{"role":"user","content":"hello"}]"#
        func send(_ extra: String) throws -> String {
            let body = #"{"model":"\#(Self.agentModel)","messages":\#(messages)\#(extra)}"#
            let reply = try server.request("POST", "/api/v1/chat/completions", headers: headers, body: body)
            #expect(reply.status == 200, "\(reply.text)")
            return reply.text
        }
        let kept = try send(#","conversation_id":"demoagentconversation""#)
        #expect(!kept.contains("read_page"))
        let stateless = try send("")
        #expect(stateless.contains("read_page"))
        let clientHistory = try send(#","conversation_id":"thread-1","client_manages_history":true"#)
        #expect(clientHistory.contains("read_page"))
    }
}
