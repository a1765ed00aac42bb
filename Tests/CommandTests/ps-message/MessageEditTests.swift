import Foundation
import Testing
import TestSupport

/// ps-message edit / delete / undo and ps-send --regenerate against the current API.
@Suite struct MessageEditTests {
    /// A new Global conversation with `question` sent to it; its id.
    static func newConversation(_ sandbox: NetworkSandbox, _ question: String) throws -> String {
        let sent = try sandbox.run("ps-send", ["--new-conversation", "--print-ids", question])
        #expect(sent.status == 0, "\(sent.stderrText)")
        return try #require(Records.value("conversation", in: sent.stderrText))
    }

    static func history(_ sandbox: NetworkSandbox, _ arguments: [String] = []) throws -> [[String: Any]] {
        try Records.parse(try sandbox.run("ps-history", arguments).stdoutText)
    }

    @Test func globalMessagesAreEditedDeletedAndUndone() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let id = try Self.newConversation(sandbox, "First")
        for question in ["Second", "Third"] {
            #expect(try sandbox.run("ps-send", ["--conversation", id, question]).status == 0)
        }
        let args = ["--conversation", id]
        var messages = try Self.history(sandbox, args)
        try #require(messages.count == 6)
        let firstID = try #require(messages[0]["id"] as? String)
        let edited = try sandbox.run("ps-message", ["edit", firstID, "--conversation", id, "First, reworded"])
        #expect(edited.status == 0, "\(edited.stderrText)")
        messages = try Self.history(sandbox, args)
        try #require(messages.count == 6)
        #expect(Records.text(of: messages[0]) == "First, reworded")

        let secondReply = try #require(messages[3]["id"] as? String)
        #expect(try sandbox.run("ps-message", ["delete", secondReply, "--conversation", id]).status == 0)
        messages = try Self.history(sandbox, args)
        try #require(messages.count == 5)
        #expect(!Records.ids(messages).contains(secondReply))

        // Undo from the second question: a preview changes nothing, then it and all after go.
        let secondQuestion = try #require(messages[2]["id"] as? String)
        let preview = try sandbox.run("ps-message", ["undo", secondQuestion, "--dry-run"])
        #expect(try Records.parse(preview.stdoutText).first?["messagesAffected"] as? Int == 3)
        #expect(try Self.history(sandbox, args).count == 5)
        let undone = try sandbox.run("ps-message", ["undo", secondQuestion])
        #expect(try Records.parse(undone.stdoutText).first?["messagesDeleted"] as? Int == 3, "\(undone.stderrText)")
        #expect(try Self.history(sandbox, args).count == 2)

        let missing = try sandbox.run("ps-message", ["delete", "msg_nosuch", "--conversation", id])
        #expect(missing.status == 6)
        #expect(missing.stderrText.contains("Message not found"))
        let empty = try sandbox.run("ps-message", ["edit", firstID, "--conversation", id], stdin: "")
        #expect(empty.status == 2)
    }

    @Test func regenerateReplacesTheLastReply() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let id = try Self.newConversation(sandbox, "Tell me a story")
        let before = try Self.history(sandbox, ["--conversation", id])
        let again = try sandbox.shell("ps-send --regenerate --conversation \(id) | ps-sse | ps-parts --final")
        #expect(again.status == 0, "\(again.stderrText)")
        let after = try Self.history(sandbox, ["--conversation", id])
        #expect(after.count == 2)
        #expect(after.first?["id"] as? String == before.first?["id"] as? String)
        #expect(after.last?["id"] as? String != before.last?["id"] as? String)
        #expect(after.last?["id"] as? String == (try Records.parse(again.stdoutText).last?["id"] as? String))

        // Page AI, with an MCP key: the same verbs through the page routes.
        let agent = try NetworkSandbox(server: server, token: LocalServer.mcpKey)
        #expect(try agent.run("ps-send", ["--page", "page_agent_demo", "--conversation", "pageregen1", "Hello agent"]).status == 0)
        let page = ["--page", "page_agent_demo", "--conversation", "pageregen1"]
        #expect(try agent.run("ps-send", ["--regenerate"] + page).status == 0)
        let pageHistory = try Self.history(agent, page)
        #expect(pageHistory.map { $0["role"] as? String } == ["user", "assistant"])
        let reply = try #require(pageHistory.last?["id"] as? String)
        #expect(try agent.run("ps-message", ["delete", reply] + page).status == 0)
        #expect(try Self.history(agent, page).count == 1)
        // A session-only route refuses the key, with the server's words.
        let refused = try agent.run("ps-message", ["delete", "x", "--conversation", id])
        #expect(refused.status == 4 || refused.status == 5, "\(refused.stderrText)")
        let usage = try agent.run("ps-send", ["--regenerate", "--page", "page_agent_demo"])
        #expect(usage.status == 2)
    }

    @Test func anAPIWithoutThemSaysSo() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let result = try sandbox.run("ps-message", ["undo", "m1"])
        #expect(result.status == 2)
        #expect(result.stderrText.contains("the pagespace-legacy API cannot undo messages"))
    }
}
