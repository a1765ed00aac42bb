import Foundation
import Testing
import TestSupport

/// Today's server writes a reply's 'streaming' placeholder row when its stream starts; editing or
/// deleting that message meanwhile is 409, not 404 (global/[id]/messages/[messageId]/route.ts:60-67,
/// 184-191; chat/messages/[messageId]/route.ts:100-108, 243-250).
@Suite struct StreamingReplyEditTests {
    @Test func aReplyStillBeingGeneratedIsAConflict() throws {
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "200"])
        defer { server.stop() }
        let path = LocalServerTests.historyPath(server)
        let stream = try server.startRequest(
            "POST", path, headers: LocalServerTests.session, body: LocalServerTests.sendBody("tell me about the launch"))
        #expect(stream.waitFor(#""type":"start-step""#))
        // The start chunk names the reply: {"type":"start","messageId":"…"}.
        let start = try #require(stream.received.range(of: #""type":"start","messageId":""#))
        let messageID = String(stream.received[start.upperBound...].prefix { $0 != "\"" })
        #expect(!messageID.isEmpty)
        let edit = try server.request(
            "PATCH", path + "/" + messageID, headers: LocalServerTests.session, body: #"{"content":"changed"}"#)
        #expect(edit.status == 409, "\(edit.text)")
        #expect(try edit.jsonObject()["error"] as? String == "This message is still generating and cannot be edited yet")
        let delete = try server.request("DELETE", path + "/" + messageID, headers: LocalServerTests.session)
        #expect(delete.status == 409, "\(delete.text)")
        #expect(try delete.jsonObject()["error"] as? String == "This message is still generating and cannot be deleted yet")
        // A message that is nowhere stays 404.
        let unknown = try server.request("DELETE", path + "/msg_nowhere", headers: LocalServerTests.session)
        #expect(unknown.status == 404)
        // Page AI's route alike.
        let pageEdit = try server.request(
            "PATCH", "/api/ai/chat/messages/" + messageID, headers: LocalServerTests.session, body: #"{"content":"changed"}"#)
        #expect(pageEdit.status == 404, "a Global reply is no Page AI message")
        _ = try server.request("POST", "/api/ai/abort", headers: LocalServerTests.session, body: #"{"messageId":"\#(messageID)"}"#)
        _ = stream.finish()
    }
}
