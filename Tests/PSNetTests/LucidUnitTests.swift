import PSCore
import Testing
@testable import PSNet

@Suite struct LucidUnitTests {
    @Test func sha256MatchesTheStandardVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(String(repeating: "a", count: 1000)).count == 64)
    }

    @Test func theExternalIDIsStableAndHidesTheMachineID() {
        let id = LucidIdentity.externalID(profile: "work")
        #expect(id == LucidIdentity.externalID(profile: "work"))
        #expect(id != LucidIdentity.externalID(profile: "home"))
        #expect(id.hasPrefix("ps-tools-") && id.hasSuffix("-work"))
        #expect(id.count == "ps-tools-".count + 16 + "-work".count)
    }

    /// Lucid takes external ids of letters, digits, `_` and `-` only (user.validation.ts:30-34).
    @Test func aProfileNameWithOtherCharactersStillMakesAValidExternalID() {
        for profile in ["my work", "é", "a.b", "a/b", String(repeating: "x", count: 300)] {
            let id = LucidIdentity.externalID(profile: profile)
            #expect(id.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 95 || $0 == 45 },
                    "\(id)")
            #expect(id.count < 255 && id == LucidIdentity.externalID(profile: profile))
        }
        #expect(LucidIdentity.externalID(profile: "a.b") != LucidIdentity.externalID(profile: "a_b"))
        #expect(LucidIdentity.isUUID("0f8e2a9c-1b2d-4e3f-8a9b-0c1d2e3f4a5b"))
        #expect(!LucidIdentity.isUUID("nope") && !LucidIdentity.isUUID("0f8e2a9c-1b2d-4e3f-8a9b-0c1d2e3f4a5"))
    }

    /// lucid-agent's zod refusals: 400 {"error":"Validation failed","details":[{field,message}]}.
    @Test func theServersFieldMessagesReachTheMessage() {
        let request = HTTPRequest(method: "POST", url: "http://127.0.0.1:9/v1/chat", headers: [])
        let body = #"{"error":"Validation failed","details":[{"field":"message","message":"message must be less than 10000 characters"}]}"#
        let error = APIErrors.toolError(HTTPResponse(head: HTTPResponseHead(status: 400, headers: []), body: Array(body.utf8)),
                                        request: request, wording: LucidErrorWording())
        #expect(error.message.contains("Validation failed: message: message must be less than 10000 characters"), "\(error.message)")
        let failed = #"{"error":"Chat completion failed","details":"Chat completion failed: boom"}"#
        let server = APIErrors.toolError(HTTPResponse(head: HTTPResponseHead(status: 500, headers: []), body: Array(failed.utf8)),
                                         request: request, wording: LucidErrorWording())
        #expect(server.status == .serverError && server.message.contains("Chat completion failed: boom"), "\(server.message)")
    }

    @Test func aChatAnswerBecomesTheStreamRecords() throws {
        let answer = try JSON.parse(bytes: Array("""
            {"user_message":{"id":"u1","role":"user","content":"Hi","created_at":"2024-01-15T10:30:00Z"},
             "assistant_message":{"id":"a1","role":"assistant","content":"Hello!","created_at":"2024-01-15T10:30:01Z"},
             "response":"Hello!","conversation_id":"c1"}
            """.utf8))
        let whole = try LucidRecords.chatAnswer(answer)
        #expect(whole.conversationID == "c1")
        #expect(whole.userMessageID == "u1")
        let text = String(decoding: whole.streamBytes, as: UTF8.self)
        #expect(text == """
            data: {"type":"start","messageId":"a1","messageMetadata":{"conversationId":"c1","createdAt":"2024-01-15T10:30:01Z"}}

            data: {"type":"text-start","id":"text-1"}

            data: {"type":"text-delta","id":"text-1","delta":"Hello!"}

            data: {"type":"text-end","id":"text-1"}

            data: {"type":"finish","finishReason":"stop"}

            data: [DONE]


            """)
        #expect(throws: ToolError.self) { try LucidRecords.chatAnswer(["response": "no message"]) }
    }

    @Test func messagesAndConversationsTakeTheToolkitsShapes() throws {
        let message = LucidRecords.message(["id": "m1", "role": "user", "content": "Hi", "created_at": "2024-01-15T10:30:00Z",
                                            "conversation_id": "c1"])
        #expect(message == ["id": "m1", "role": "user", "parts": [["type": "text", "text": "Hi"]],
                            "createdAt": "2024-01-15T10:30:00Z"])
        let conversation = LucidRecords.conversation(["id": "c1", "user_id": "u1", "title": .null,
                                                      "created_at": "2024-01-15T10:30:00Z"])
        #expect(conversation == ["id": "c1", "title": "", "createdAt": "2024-01-15T10:30:00Z"])
    }

    @Test func fastAPIErrorsAndLucidsWordsReachTheMessage() {
        let request = HTTPRequest(method: "POST", url: "http://127.0.0.1:9/v1/chat", headers: [])
        func error(_ status: Int, _ body: String, wording: APIErrorWording? = nil) -> ToolError {
            APIErrors.toolError(HTTPResponse(head: HTTPResponseHead(status: status, headers: []), body: Array(body.utf8)),
                                request: request, wording: wording)
        }
        let notFound = error(404, #"{"detail":"Conversation not found"}"#)
        #expect(notFound.status == .notFound)
        #expect(notFound.message.contains("Conversation not found"))
        let invalid = error(422, #"{"detail":[{"type":"missing","loc":["body","user_id"],"msg":"Field required"}]}"#)
        #expect(invalid.message.contains("body.user_id: Field required"))
        let unavailable = error(503, #"{"detail":"Service temporarily unavailable"}"#, wording: LucidErrorWording())
        #expect(unavailable.status == .serverError)
        #expect(unavailable.message.hasPrefix("Lucid is temporarily unavailable; try again"))
        let gateway = error(504, "", wording: LucidErrorWording())
        #expect(gateway.status == .networkError)
        #expect(gateway.message.hasPrefix("the request timed out"))
        #expect(error(500, "", wording: LucidErrorWording()).status == .serverError)
        let idle = APIErrors.toolError(
            .network(message: "nothing received for 1 seconds (see --idle-timeout)", afterHead: false), request: request,
            wording: LucidErrorWording())
        #expect(idle.status == .networkError && idle.message.hasPrefix("the request timed out"))
        let refused = APIErrors.toolError(.network(message: "Connection refused", afterHead: false), request: request,
                                          wording: LucidErrorWording())
        #expect(refused.message.hasPrefix("cannot reach"))
    }
}
