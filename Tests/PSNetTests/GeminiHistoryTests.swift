import PSCore
import Testing
@testable import PSNet

/// A Gemini mobile API conversation (the app's Message model) as UIMessages.
@Suite struct GeminiHistoryTests {
    @Test func thoughtsAndToolCallsJoinTheReply() throws {
        let stored = try JSON.parse(#"""
            [{"id":"u1","role":"user","content":"Read a","createdAt":"2026-01-01T00:00:00.000Z"},
             {"id":"t1","role":"thought","content":"Plan."},
             {"id":"a1","role":"assistant","content":"Done.","createdAt":"2026-01-01T00:00:01.000Z",
              "toolCalls":[{"name":"read_file","arguments":{"path":"a"},"status":"completed","result":"A"},
                           {"name":"shell","arguments":{"cmd":"rm"},"status":"failed","result":"denied"},
                           {"name":"web_fetch","arguments":{},"status":"running","result":null}],
              "tokenUsage":{"inputTokens":3,"outputTokens":4}}]
            """#).arrayValue!
        let messages = GeminiHistory.messages(stored)
        #expect(messages.count == 2)
        #expect(messages[0].serialized() == #"{"id":"u1","role":"user","parts":[{"type":"text","text":"Read a"}],"createdAt":"2026-01-01T00:00:00.000Z"}"#)
        #expect(messages[1].serialized() == #"{"id":"a1","role":"assistant","parts":[{"type":"reasoning","text":"Plan."},{"type":"tool-read_file","toolCallId":"gemini-call-1","input":{"path":"a"},"state":"output-available","output":"A"},{"type":"tool-shell","toolCallId":"gemini-call-2","input":{"cmd":"rm"},"state":"output-error","errorText":"denied"},{"type":"tool-web_fetch","toolCallId":"gemini-call-3","input":{},"state":"input-available"},{"type":"text","text":"Done."}],"createdAt":"2026-01-01T00:00:01.000Z","metadata":{"usage":{"inputTokens":3,"outputTokens":4}}}"#)
    }

    /// Thoughts of a turn cancelled before any text are kept as a reply of their own.
    @Test func thoughtsWithoutAReplyAreKept() {
        let stored: [JSON] = [
            ["id": "u1", "role": "user", "content": "Q"], ["id": "t1", "role": "thought", "content": "Hmm."],
            ["id": "u2", "role": "user", "content": "Q2"],
        ]
        let messages = GeminiHistory.messages(stored)
        #expect(messages.map { $0["role"]?.stringValue } == ["user", "assistant", "user"])
        #expect(messages[1]["parts"] == [["type": "reasoning", "text": "Hmm."]])
    }

    @Test func firebaseTokensNameTheirUser() {
        let token = "eyJhbGciOiJSUzI1NiJ9."
            + "eyJ1c2VyX2lkIjoidTEiLCJuYW1lIjoiQWRhIiwiZW1haWwiOiJhZGFAZXhhbXBsZS5jb20ifQ.c2ln"
        #expect(FirebaseIDToken.user(token) == ["id": "u1", "name": "Ada", "email": "ada@example.com"])
        #expect(FirebaseIDToken.user("not-a-jwt") == nil)
        #expect(FirebaseIDToken.user("a.!!!.c") == nil)
    }
}
