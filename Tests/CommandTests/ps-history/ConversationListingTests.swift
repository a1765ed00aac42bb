import Foundation
import Testing
import TestSupport

/// Today's server lists only Global conversations that hold a message (hasMessages,
/// apps/web/src/lib/repositories/global-conversation-repository.ts:198-206, 234-285).
@Suite struct ConversationListingTests {
    @Test func anEmptyConversationIsNotListedUntilItHasAMessage() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let created = try server.request("POST", "/api/ai/global", headers: LocalServerTests.session, body: #"{"title":"Scratch"}"#)
        let id = try #require(try created.jsonObject()["id"] as? String)

        let before = try sandbox.run("ps-history", ["--list"])
        #expect(before.status == 0, "\(before.stderrText)")
        #expect(!before.stdoutText.contains(id))
        #expect(before.stdoutText.contains(LocalServer.globalConversationID))
        let paginated = try server.request("GET", "/api/ai/global?paginated=true", headers: LocalServerTests.session)
        #expect(!paginated.text.contains(id))

        #expect(try sandbox.run("ps-send", ["--conversation", id, "hello"]).status == 0)
        let after = try sandbox.run("ps-history", ["--list"])
        #expect(after.stdoutText.contains(id), "\(after.stdoutText)")
    }
}
