import Foundation
import Testing
import TestSupport

/// A second reading of the lucid dialect's facts and summaries routes against lucid-agent's
/// src/routes/facts.ts and src/routes/summary.ts at the guide's commit (8cdb90b): what differed.
@Suite struct LucidMemoryReadingTests {
    static let nobody = "00000000-0000-4000-8000-000000000000"

    // summary.service.ts:115-129,160-186: the INSERT naming a user nobody has fails in
    // createSummary, whose error generateSummary wraps again; summary.ts:84-87 answers 500 with it.
    @Test func aSummaryForAUserNobodyHasIsA500WithBothWrappings() throws {
        let server = try LocalServer.start(dialect: "lucid", extraArguments: ["--quiet"])
        defer { server.stop() }
        let userID = try #require(try server.request("POST", "/v1/users", body: #"{"external_id":"ios-s"}"#).jsonObject()["id"] as? String)
        let conversationID = try #require(
            try server.request("POST", "/v1/conversations", body: #"{"user_id":"\#(userID)"}"#).jsonObject()["id"] as? String)
        #expect(try server.request("POST", "/_test/lucid/messages", body: #"{"conversation_id":"\#(conversationID)","count":2}"#).status == 200)
        let failed = try server.request(
            "POST", "/v1/summaries/generate", body: #"{"conversation_id":"\#(conversationID)","user_id":"\#(Self.nobody)"}"#)
        #expect(failed.status == 500)
        #expect(try failed.jsonObject()["error"] as? String == "Failed to generate summary")
        #expect(try failed.jsonObject()["details"] as? String == "Failed to generate summary: Failed to create summary: "
            + #"insert or update on table "summaries" violates foreign key constraint "summaries_user_id_fkey""#)
        let made = try server.request(
            "POST", "/v1/summaries/generate", body: #"{"conversation_id":"\#(conversationID)","user_id":"\#(userID)"}"#)
        #expect(made.status == 201, "\(made.text)")
    }
}
