import Foundation
import Testing
import TestSupport

/// ps-history --rename / --delete, and what an API without them says.
@Suite struct ConversationEditingTests {
    @Test func theLegacyAPIRenamesAndDeletesConversations() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let sent = try sandbox.shell("ps-send --new-conversation --print-ids 'Tides and moons' 2>&1 >/dev/null")
        #expect(sent.status == 0, "\(sent.stdoutText)")
        let id = try #require(Records.value("conversation", in: sent.stdoutText))
        // The server named it after the first message; it is the newest, so the default now.
        let listed = try Records.parse(try sandbox.run("ps-history", ["--list"]).stdoutText)
        #expect(listed.first { $0["id"] as? String == id }?["title"] as? String == "Tides and moons")
        #expect(try Records.parse(try sandbox.run("ps-history", []).stdoutText).count == 2)

        let renamed = try sandbox.run("ps-history", ["--rename", id, "--title", "Sea levels"])
        #expect(renamed.status == 0, "\(renamed.stderrText)")
        #expect(try Records.parse(renamed.stdoutText).first?["title"] as? String == "Sea levels")
        let deleted = try sandbox.run("ps-history", ["--delete", id])
        #expect(try Records.parse(deleted.stdoutText).first?["deleted"] as? Bool == true)
        let gone = try sandbox.run("ps-history", ["--conversation", id])
        #expect(gone.status == 6)
        #expect(gone.stderrText.contains("no conversation"))
        let again = try sandbox.run("ps-history", ["--delete", id])
        #expect(again.status == 6, "\(again.stderrText)")
    }

    @Test func anAPIThatCannotSaysSo() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "openai"])
        let result = try sandbox.run("ps-history", ["--rename", "abc", "--title", "x"])
        #expect(result.status == 2)
        #expect(result.stderrText.contains("the openai API cannot rename conversations"))
        let usage = try sandbox.run("ps-history", ["--rename", "abc"])
        #expect(usage.status == 2)
        #expect(usage.stderrText.contains("--title"))
    }
}
