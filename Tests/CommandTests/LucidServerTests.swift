import Foundation
import Testing
import TestSupport

/// The lucid dialect's routes as a client sees them: the guide's answers, FastAPI's errors.
@Suite struct LucidServerTests {
    @Test func usersConversationsAndErrorsHaveLucidsShapes() throws {
        let server = try LocalServer.start(dialect: "lucid", extraArguments: ["--quiet"])
        defer { server.stop() }
        #expect(try server.request("GET", "/health").jsonObject()["status"] as? String == "healthy")
        let created = try server.request("POST", "/v1/users", body: #"{"external_id":"ios-1","name":"Ada"}"#)
        #expect(created.status == 201)
        let user = try created.jsonObject()
        let userID = try #require(user["id"] as? String)
        #expect(user["external_id"] as? String == "ios-1")
        #expect(user["created_at"] != nil && user["updated_at"] != nil)

        let missing = try server.request("POST", "/v1/users", body: #"{"name":"Ada"}"#)
        #expect(missing.status == 422)
        let detail = try #require(try missing.jsonObject()["detail"] as? [[String: Any]])
        #expect(detail.first?["loc"] as? [String] == ["body", "external_id"])
        #expect(detail.first?["msg"] as? String == "Field required")
        #expect(detail.first?["type"] as? String == "missing")
        #expect(try server.request("POST", "/v1/users", body: "{oops").status == 422)

        let conversation = try server.request(
            "POST", "/v1/conversations", body: #"{"user_id":"\#(userID)","title":"Chat about AI","user_timezone":"UTC"}"#)
        #expect(conversation.status == 201)
        let conversationID = try #require(try conversation.jsonObject()["id"] as? String)
        let noUser = try server.request("POST", "/v1/conversations", body: #"{"user_id":"nobody"}"#)
        #expect(noUser.status == 404)
        #expect(try noUser.jsonObject()["detail"] as? String == "User not found")

        let list = try server.request("GET", "/v1/conversations/user/\(userID)?limit=50&offset=0").jsonObject()
        #expect(list["count"] as? Int == 1 && list["limit"] as? Int == 50 && list["offset"] as? Int == 0)
        let badLimit = try server.request("GET", "/v1/conversations/user/\(userID)?limit=abc")
        #expect(badLimit.status == 422)
        #expect((try badLimit.jsonObject()["detail"] as? [[String: Any]])?.first?["loc"] as? [String] == ["query", "limit"])

        let chat = try server.request(
            "POST", "/v1/chat", body: #"{"conversation_id":"\#(conversationID)","user_id":"\#(userID)","message":"Hello Lucid!"}"#)
        #expect(chat.status == 200)
        let answer = try chat.jsonObject()
        #expect((answer["user_message"] as? [String: Any])?["content"] as? String == "Hello Lucid!")
        #expect((answer["assistant_message"] as? [String: Any])?["role"] as? String == "assistant")
        #expect(answer["response"] as? String == (answer["assistant_message"] as? [String: Any])?["content"] as? String)
        #expect(answer["conversation_id"] as? String == conversationID)
        let empty = try server.request(
            "POST", "/v1/chat", body: #"{"conversation_id":"\#(conversationID)","user_id":"\#(userID)","message":""}"#)
        #expect(empty.status == 422)

        let patched = try server.request("PATCH", "/v1/conversations/\(conversationID)", body: #"{"title":"New Title"}"#)
        #expect(try patched.jsonObject()["title"] as? String == "New Title")
        #expect(try server.request("DELETE", "/v1/conversations/\(conversationID)").status == 204)
        let gone = try server.request("GET", "/v1/conversations/\(conversationID)")
        #expect(gone.status == 404)
        #expect(try gone.jsonObject()["detail"] as? String == "Conversation not found")
        let unknown = try server.request("GET", "/v1/nothing-here")
        #expect(unknown.status == 404)
        #expect(try unknown.jsonObject()["detail"] as? String == "Not Found")
        try server.armFault(#"{"status":503}"#)
        let unavailable = try server.request("GET", "/health")
        #expect(unavailable.status == 503)
        #expect(try unavailable.jsonObject()["detail"] != nil)
    }
}
