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
        let renameGone = try sandbox.run("ps-history", ["--rename", id, "--title", "Ghost"])
        #expect(renameGone.status == 6, "\(renameGone.stderrText)")
        #expect(renameGone.stdoutText.isEmpty)
        // The server itself still finds the deleted row for PATCH and DELETE ([id]/route.ts:50-130
        // at 458264c5b: no isActive filter there), and for nothing else.
        let bearer = ["Authorization": "Bearer \(try server.legacyLogin().token)", "Content-Type": "application/json"]
        let patched = try server.request("PATCH", "/api/ai_conversations/\(id)", headers: bearer, body: #"{"title":"Ghost"}"#)
        #expect(patched.status == 200, "\(patched.text)")
        #expect(try patched.jsonObject()["isActive"] as? Bool == false)
        #expect(try server.request("DELETE", "/api/ai_conversations/\(id)", headers: bearer).status == 200)
        #expect(try server.request("GET", "/api/ai_conversations/\(id)", headers: bearer).status == 404)
        #expect(try server.request("GET", "/api/ai_conversations/\(id)/messages", headers: bearer).status == 404)
        #expect(try server.request("GET", "/api/ai_conversations/conv_never/messages", headers: bearer).status == 404)
        #expect(try server.request("DELETE", "/api/ai_conversations/conv_never", headers: bearer).status == 404)
    }

    /// The legacy server names an untitled conversation after the message's first 50 UTF-16
    /// units (`slice(0, 50)`, ai_conversations/[id]/messages/route.ts:285-289 at 458264c5b).
    @Test func theLegacyServerTitlesAConversationWithTheFirstFiftyUTF16Units() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--quiet"])
        defer { server.stop() }
        let bearer = ["Authorization": "Bearer \(try server.legacyLogin().token)", "Content-Type": "application/json"]
        let created = try server.request("POST", "/api/ai_conversations", headers: bearer, body: "{}")
        let id = try #require(try created.jsonObject()["id"] as? String, "\(created.text)")
        #expect(try created.jsonObject()["title"] is NSNull)
        let text = String(repeating: "\u{1F30A}", count: 30)  // 30 characters, 60 UTF-16 units
        let sent = try server.request(
            "POST", "/api/ai_conversations/\(id)/messages", headers: bearer,
            body: #"{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"\#(text)"}]}]}"#)
        #expect(sent.status == 200, "\(sent.text)")
        let titled = try server.request("GET", "/api/ai_conversations/\(id)", headers: bearer).jsonObject()
        #expect(titled["title"] as? String == String(repeating: "\u{1F30A}", count: 25) + "...")
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
