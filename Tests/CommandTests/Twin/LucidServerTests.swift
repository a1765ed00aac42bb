import Foundation
import Testing
import TestSupport

/// The lucid dialect's routes as a client sees them: lucid-agent's answers (8cdb90b), its
/// `{"error"}` errors and zod's 400s.
@Suite struct LucidServerTests {
    static let nobody = "00000000-0000-4000-8000-000000000000"

    @Test func usersConversationsAndErrorsHaveLucidsShapes() throws {
        let server = try LocalServer.start(dialect: "lucid", extraArguments: ["--quiet"])
        defer { server.stop() }
        #expect(try server.request("GET", "/health").jsonObject()["status"] as? String == "ok")
        let created = try server.request("POST", "/v1/users", body: #"{"external_id":"ios-1","name":"Ada"}"#)
        #expect(created.status == 201)
        let user = try created.jsonObject()
        let userID = try #require(user["id"] as? String)
        #expect(user["external_id"] as? String == "ios-1")
        #expect(user["timezone"] as? String == "UTC")
        #expect(user["created_at"] != nil && user["last_active_at"] != nil)

        let missing = try server.request("POST", "/v1/users", body: #"{"name":"Ada"}"#)
        #expect(missing.status == 400)
        #expect(try missing.jsonObject()["error"] as? String == "Validation failed")
        let details = try #require(try missing.jsonObject()["details"] as? [[String: Any]])
        #expect(details.first?["field"] as? String == "external_id")
        #expect(details.first?["message"] as? String == "Required")
        let badID = try server.request("POST", "/v1/users", body: #"{"external_id":"a b"}"#)
        #expect((try badID.jsonObject()["details"] as? [[String: Any]])?.first?["message"] as? String
            == "external_id can only contain alphanumeric characters, hyphens, and underscores")
        let preferences = try server.request("POST", "/v1/users", body: #"{"external_id":"ios-1","preferences":"dark"}"#)
        #expect((try preferences.jsonObject()["details"] as? [[String: Any]])?.first?["message"] as? String
            == "Expected object, received string")
        #expect(try server.request("GET", "/v1/users/" + String(repeating: "x", count: 256)).status == 400)
        // Not sent as JSON: express.json leaves the body {}.
        let plain = try server.request("POST", "/v1/users", headers: ["Content-Type": "text/plain"], body: #"{"external_id":"ios-9"}"#)
        #expect(plain.status == 400)
        let malformed = try server.request("POST", "/v1/users", body: "{oops")
        #expect(malformed.status == 500)
        #expect(try malformed.jsonObject()["error"] as? String == "Internal server error")

        let conversation = try server.request(
            "POST", "/v1/conversations", body: #"{"user_id":"\#(userID)","title":"Chat about AI","user_timezone":"UTC"}"#)
        #expect(conversation.status == 201)
        let conversationID = try #require(try conversation.jsonObject()["id"] as? String)
        let noUser = try server.request("POST", "/v1/conversations", body: #"{"user_id":"\#(Self.nobody)"}"#)
        #expect(noUser.status == 404)
        #expect(try noUser.jsonObject()["error"] as? String == "User not found")
        let notUUID = try server.request("POST", "/v1/conversations", body: #"{"user_id":"nobody"}"#)
        #expect(notUUID.status == 400)
        #expect((try notUUID.jsonObject()["details"] as? [[String: Any]])?.first?["message"] as? String
            == "user_id must be a valid UUID")

        let list = try server.request("GET", "/v1/conversations/user/\(userID)?limit=50&offset=0").jsonObject()
        #expect(list["count"] as? Int == 1 && list["limit"] as? Int == 50 && list["offset"] as? Int == 0)
        // An unknown user is a user without conversations.
        let unknown = try server.request("GET", "/v1/conversations/user/\(Self.nobody)")
        #expect(unknown.status == 200)
        #expect(try unknown.jsonObject()["count"] as? Int == 0)
        #expect(try server.request("GET", "/v1/conversations/user/nobody").status == 400)

        let chat = try server.request(
            "POST", "/v1/chat", body: #"{"conversation_id":"\#(conversationID)","user_id":"\#(userID)","message":"Hello Lucid!"}"#)
        #expect(chat.status == 200)
        let answer = try chat.jsonObject()
        #expect((answer["user_message"] as? [String: Any])?["content"] as? String == "Hello Lucid!")
        #expect((answer["assistant_message"] as? [String: Any])?["role"] as? String == "assistant")
        #expect(answer["response"] as? String == (answer["assistant_message"] as? [String: Any])?["content"] as? String)
        #expect(answer["conversation_id"] as? String == conversationID)
        let long = String(repeating: "a", count: 10_001)
        let tooLong = try server.request(
            "POST", "/v1/chat", body: #"{"conversation_id":"\#(conversationID)","user_id":"\#(userID)","message":"\#(long)"}"#)
        #expect(tooLong.status == 400)
        #expect((try tooLong.jsonObject()["details"] as? [[String: Any]])?.first?["message"] as? String
            == "message must be less than 10000 characters")
        let noConversation = try server.request(
            "POST", "/v1/chat", body: #"{"conversation_id":"\#(Self.nobody)","user_id":"\#(userID)","message":"hi"}"#)
        #expect(noConversation.status == 404)

        let patched = try server.request("PATCH", "/v1/conversations/\(conversationID)", body: #"{"title":"New Title"}"#)
        #expect(try patched.jsonObject()["title"] as? String == "New Title")
        // Messages keep their conversation: no cascade, the route's 500.
        let refused = try server.request("DELETE", "/v1/conversations/\(conversationID)")
        #expect(refused.status == 500)
        #expect(try refused.jsonObject()["error"] as? String == "Failed to delete conversation")
        let empty = try server.request("POST", "/v1/conversations", body: #"{"user_id":"\#(userID)"}"#).jsonObject()
        let emptyID = try #require(empty["id"] as? String)
        #expect(try server.request("DELETE", "/v1/conversations/\(emptyID)").status == 204)
        let gone = try server.request("GET", "/v1/conversations/\(emptyID)")
        #expect(gone.status == 404)
        #expect(try gone.jsonObject()["error"] as? String == "Conversation not found")
        #expect(try server.request("GET", "/v1/conversations/not-a-uuid").status == 400)
        let nowhere = try server.request("GET", "/v1/nothing-here")
        #expect(nowhere.status == 404)
        #expect(try nowhere.jsonObject()["error"] as? String == "Not found")
        try server.armFault(#"{"status":503}"#)
        let unavailable = try server.request("GET", "/health")
        #expect(unavailable.status == 503)
        #expect(try unavailable.jsonObject()["error"] != nil)
    }

    @Test func listsLimitsAndTheFactRoutesAreLucids() throws {
        let server = try LocalServer.start(dialect: "lucid", extraArguments: ["--quiet"])
        defer { server.stop() }
        let user = try server.request("POST", "/v1/users", body: #"{"external_id":"ios-2","name":"Ada","email":"ada@example.com"}"#)
        let userID = try #require(try user.jsonObject()["id"] as? String)
        // A second login overwrites name, email and timezone; still 201.
        let again = try server.request("POST", "/v1/users", body: #"{"external_id":"ios-2","timezone":"Europe/Paris"}"#)
        #expect(again.status == 201)
        let overwritten = try again.jsonObject()
        #expect(overwritten["id"] as? String == userID)
        #expect(overwritten["name"] is NSNull && overwritten["email"] is NSNull)
        #expect(overwritten["timezone"] as? String == "Europe/Paris")
        #expect(try server.request("GET", "/v1/users/ios-2").jsonObject()["id"] as? String == userID)
        #expect(try server.request("GET", "/v1/users/ios-3").status == 404)

        // Newest created first, even when an older one was written to since.
        let first = try server.request("POST", "/v1/conversations", body: #"{"user_id":"\#(userID)","title":"first"}"#).jsonObject()
        let firstID = try #require(first["id"] as? String)
        Thread.sleep(forTimeInterval: 0.01)
        let second = try server.request("POST", "/v1/conversations", body: #"{"user_id":"\#(userID)","title":"second"}"#).jsonObject()
        _ = try server.request("POST", "/v1/chat", body: #"{"conversation_id":"\#(firstID)","user_id":"\#(userID)","message":"I live in Oslo."}"#)
        let list = try server.request("GET", "/v1/conversations/user/\(userID)").jsonObject()
        #expect((list["conversations"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["second", "first"])
        #expect(second["user_timezone"] as? String == "Europe/Paris")  // the user's

        let page = try server.request("GET", "/v1/conversations/\(firstID)/messages?limit=501")
        #expect(page.status == 400)
        #expect((try page.jsonObject()["details"] as? [[String: Any]])?.first?["message"] as? String == "limit must be between 1 and 500")
        #expect(try server.request("GET", "/v1/conversations/\(firstID)/messages?limit=500").status == 200)
        #expect(try server.request("GET", "/v1/conversations/\(Self.nobody)/messages").jsonObject()["count"] as? Int == 0)

        let extract = try server.request(
            "POST", "/v1/facts/extract", body: #"{"user_id":"\#(userID)","conversation_id":"\#(firstID)","limit":101}"#)
        #expect(extract.status == 400)
        let extracted = try server.request(
            "POST", "/v1/facts/extract", body: #"{"user_id":"\#(userID)","conversation_id":"\#(firstID)"}"#)
        #expect(extracted.status == 201)
        #expect(try extracted.jsonObject()["count"] as? Int == 1)
        // The guide's route is not there; the one that works is under /v1/facts.
        let documented = try server.request("GET", "/v1/users/\(userID)/facts")
        #expect(documented.status == 404)
        #expect(try documented.jsonObject()["error"] as? String == "Not found")
        #expect(try server.request("GET", "/v1/facts/users/\(userID)/facts?category=personal").jsonObject()["count"] as? Int == 1)
        #expect(try server.request("GET", "/v1/facts/users/\(userID)/facts?category=job").status == 400)
        #expect(try server.request("GET", "/v1/facts/users/\(userID)/facts?min_confidence=0.99").jsonObject()["count"] as? Int == 0)
        // parseFloat reads the number in front: "0.99abc" is 0.99, "abc" is NaN and refused.
        let trailing = try server.request("GET", "/v1/facts/users/\(userID)/facts?min_confidence=0.99abc")
        #expect(trailing.status == 200)
        #expect(try trailing.jsonObject()["count"] as? Int == 0)
        #expect(try server.request("GET", "/v1/facts/users/\(userID)/facts?min_confidence=abc").status == 400)
        let byMessage = try server.request(
            "POST", "/v1/facts/extract", body: #"{"user_id":"\#(userID)","message_ids":["\#(Self.nobody)"]}"#)
        #expect(try byMessage.jsonObject()["message"] as? String == "No messages found to process")
        #expect(try server.request("POST", "/v1/facts/extract", body: #"{"user_id":"\#(userID)","message_ids":[]}"#).status == 400)
        let facts = try server.request("GET", "/v1/facts/users/\(userID)/facts").jsonObject()
        #expect((facts["facts"] as? [[String: Any]])?.first?["category"] as? String == "personal")
        let search = try server.request("POST", "/v1/facts/search", body: #"{"query":"x","user_id":"\#(userID)","limit":101}"#)
        #expect(search.status == 400)
        // min_similarity defaults to 0.82: a fact 0.71 alike is left out unless asked for.
        let strict = try server.request("POST", "/v1/facts/search", body: #"{"query":"where do I live","user_id":"\#(userID)"}"#)
        #expect(try strict.jsonObject()["count"] as? Int == 0)
        let loose = try server.request(
            "POST", "/v1/facts/search", body: #"{"query":"where do I live","user_id":"\#(userID)","min_similarity":0.7}"#)
        #expect(try loose.jsonObject()["count"] as? Int == 1)
        let summary = try server.request(
            "POST", "/v1/summaries/generate",
            body: #"{"conversation_id":"\#(firstID)","user_id":"\#(userID)","message_count":101}"#)
        #expect((try summary.jsonObject()["details"] as? [[String: Any]])?.first?["message"] as? String
            == "message_count must be at most 100")
        let none = try server.request(
            "POST", "/v1/summaries/generate", body: #"{"conversation_id":"\#(Self.nobody)","user_id":"\#(userID)"}"#)
        #expect(none.status == 404)
        #expect(try none.jsonObject()["error"] as? String == "No messages found in conversation")
    }

    /// A change to a fact stores its fields and leaves it in its place: the list is ordered by
    /// confidence, then last_mentioned_at, which updateFact never touches (fact.service.ts:311-414
    /// at 8cdb90b); its confidence is a DECIMAL, a string in the row. A PATCH with nothing to
    /// change changes nothing, for a fact as for a conversation (conversation.service.ts:160-187).
    @Test func aChangedFactKeepsItsPlaceAndAnEmptyChangeTouchesNothing() throws {
        let server = try LocalServer.start(dialect: "lucid", extraArguments: ["--quiet"])
        defer { server.stop() }
        let userID = try #require(try server.request("POST", "/v1/users", body: #"{"external_id":"ios-4"}"#).jsonObject()["id"] as? String)
        let conversation = try server.request("POST", "/v1/conversations", body: #"{"user_id":"\#(userID)"}"#).jsonObject()
        let conversationID = try #require(conversation["id"] as? String)
        func said(_ text: String) throws -> String {
            let answer = try server.request(
                "POST", "/v1/chat", body: #"{"conversation_id":"\#(conversationID)","user_id":"\#(userID)","message":"\#(text)"}"#)
            return try #require((try answer.jsonObject()["user_message"] as? [String: Any])?["id"] as? String)
        }
        func extract(_ messageID: String) throws -> [String: Any] {
            let answer = try server.request(
                "POST", "/v1/facts/extract", body: #"{"user_id":"\#(userID)","message_ids":["\#(messageID)"]}"#)
            #expect(answer.status == 201, "\(answer.text)")
            return try #require((try answer.jsonObject()["created"] as? [[String: Any]])?.first)
        }
        func listed() throws -> [[String: Any]] {
            try #require(try server.request("GET", "/v1/facts/users/\(userID)/facts").jsonObject()["facts"] as? [[String: Any]])
        }
        let oslo = try extract(try said("I live in Oslo."))
        #expect(oslo["confidence"] as? String == "0.900", "\(oslo)")
        Thread.sleep(forTimeInterval: 0.01)
        let acme = try extract(try said("I work at Acme."))
        let osloID = try #require(oslo["id"] as? String), acmeID = try #require(acme["id"] as? String)
        #expect(try listed().compactMap { $0["id"] as? String } == [acmeID, osloID])

        Thread.sleep(forTimeInterval: 0.01)
        let changed = try server.request("PATCH", "/v1/facts/\(osloID)", body: #"{"content":"User lives in Bergen","confidence":0.9}"#)
        #expect(changed.status == 200, "\(changed.text)")
        let changedFact = try changed.jsonObject()
        #expect(changedFact["content"] as? String == "User lives in Bergen")
        #expect(changedFact["updated_at"] as? String != oslo["updated_at"] as? String)
        #expect(changedFact["last_mentioned_at"] as? String == oslo["last_mentioned_at"] as? String)
        #expect(try listed().compactMap { $0["id"] as? String } == [acmeID, osloID])
        #expect(try listed().last?["content"] as? String == "User lives in Bergen")

        Thread.sleep(forTimeInterval: 0.01)
        let untouched = try server.request("PATCH", "/v1/facts/\(osloID)", body: "{}").jsonObject()
        #expect(untouched["updated_at"] as? String == changedFact["updated_at"] as? String)
        let badCategory = try server.request("PATCH", "/v1/facts/\(osloID)", body: #"{"category":"job"}"#)
        #expect(badCategory.status == 400)
        #expect((try badCategory.jsonObject()["details"] as? [[String: Any]])?.first?["field"] as? String == "category")
        let recategorised = try server.request("PATCH", "/v1/facts/\(osloID)", body: #"{"category":"other"}"#).jsonObject()
        #expect(recategorised["category"] as? String == "other")
        let search = try server.request(
            "POST", "/v1/facts/search", body: #"{"query":"User lives in Bergen","user_id":"\#(userID)","category":"personal"}"#)
        #expect(try search.jsonObject()["count"] as? Int == 0, "\(search.text)")
        let found = try server.request(
            "POST", "/v1/facts/search", body: #"{"query":"User lives in Bergen","user_id":"\#(userID)","category":"other"}"#)
        let result = try #require((try found.jsonObject()["results"] as? [[String: Any]])?.first)
        #expect((result["fact"] as? [String: Any])?["confidence"] as? Double == 0.9)
        // Without a user_id, every user's facts (fact.service.ts:475-478).
        let anyone = try server.request("POST", "/v1/facts/search", body: #"{"query":"User lives in Bergen"}"#)
        #expect(try anyone.jsonObject()["count"] as? Int == 1, "\(anyone.text)")

        let before = try server.request("GET", "/v1/conversations/\(conversationID)").jsonObject()
        Thread.sleep(forTimeInterval: 0.01)
        let same = try server.request("PATCH", "/v1/conversations/\(conversationID)", body: "{}").jsonObject()
        #expect(same["updated_at"] as? String == before["updated_at"] as? String)
    }

    /// Extraction's samples are what the model was given: a chosen message as it is, a
    /// conversation's messages with their speaker (facts.ts:100-174 at 8cdb90b); a message
    /// list's query is checked whole, every wrong parameter named (messageListQuerySchema).
    @Test func extractionSamplesAndAWrongMessageQueryAreLucids() throws {
        let server = try LocalServer.start(dialect: "lucid", extraArguments: ["--quiet"])
        defer { server.stop() }
        let userID = try #require(try server.request("POST", "/v1/users", body: #"{"external_id":"ios-5"}"#).jsonObject()["id"] as? String)
        let conversationID = try #require(
            try server.request("POST", "/v1/conversations", body: #"{"user_id":"\#(userID)"}"#).jsonObject()["id"] as? String)
        let answer = try server.request(
            "POST", "/v1/chat", body: #"{"conversation_id":"\#(conversationID)","user_id":"\#(userID)","message":"I live in Oslo."}"#)
        let messageID = try #require((try answer.jsonObject()["user_message"] as? [String: Any])?["id"] as? String)
        func samples(_ body: String) throws -> [String] {
            let reply = try server.request("POST", "/v1/facts/extract", body: body)
            return try #require((try reply.jsonObject()["debug"] as? [String: Any])?["sample_messages"] as? [String], "\(reply.text)")
        }
        #expect(try samples(#"{"user_id":"\#(userID)","message_ids":["\#(messageID)"]}"#) == ["I live in Oslo...."])
        #expect(try samples(#"{"user_id":"\#(userID)","conversation_id":"\#(conversationID)"}"#).first == "User: I live in Oslo....")

        let wrong = try server.request("GET", "/v1/conversations/\(conversationID)/messages?limit=0&role=robot")
        #expect(wrong.status == 400)
        let fields = (try wrong.jsonObject()["details"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
        #expect(fields == ["limit", "role"], "\(wrong.text)")
    }

    /// A chat stores its messages as the user it names, who need not own the conversation
    /// (chat.service.ts:51-56, 151-156; message.service.ts:83-85, messages.user_id).
    @Test func aChatsMessagesBelongToTheUserItNames() throws {
        let server = try LocalServer.start(dialect: "lucid", extraArguments: ["--quiet"])
        defer { server.stop() }
        let owner = try #require(try server.request("POST", "/v1/users", body: #"{"external_id":"ios-6"}"#).jsonObject()["id"] as? String)
        let other = try #require(try server.request("POST", "/v1/users", body: #"{"external_id":"ios-7"}"#).jsonObject()["id"] as? String)
        let conversation = try server.request("POST", "/v1/conversations", body: #"{"user_id":"\#(owner)"}"#).jsonObject()
        let conversationID = try #require(conversation["id"] as? String)
        let chat = try server.request(
            "POST", "/v1/chat", body: #"{"conversation_id":"\#(conversationID)","user_id":"\#(other)","message":"Hello"}"#)
        #expect(chat.status == 200, "\(chat.text)")
        #expect((try chat.jsonObject()["user_message"] as? [String: Any])?["user_id"] as? String == other)
        let listed = try server.request("GET", "/v1/conversations/\(conversationID)/messages").jsonObject()["messages"] as? [[String: Any]]
        #expect(listed?.count == 2)
        #expect(listed?.allSatisfy { $0["user_id"] as? String == other } == true, "\(listed ?? [])")
    }
}
