import PSCore
import Testing
@testable import PSNet

@Suite struct StoredEnvelopeTests {
    @Test func envelopeBecomesPartsInOrder() throws {
        let envelope = #"{"textParts":["Let me read that page.","","Based on it, yes."],"partsOrder":[{"index":0,"type":"text"},{"index":1,"type":"step-start"},{"index":2,"type":"tool-read_page","toolCallId":"call_1"},{"index":3,"type":"text"},{"index":4,"type":"text"}],"originalContent":"x"}"#
        let stored: JSON = [
            "id": "m1", "role": "assistant", "createdAt": "2025-11-01T10:00:05Z", "content": .string(envelope),
            "toolCalls": [["toolCallId": "call_1", "toolName": "read_page", "args": ["pageId": "p1"]]],
            "toolResults": [["toolCallId": "call_1", "toolName": "read_page", "result": ["title": "Plan"]]],
        ]
        #expect(StoredEnvelope.normalise(stored) == [
            "id": "m1", "role": "assistant", "createdAt": "2025-11-01T10:00:05Z",
            "parts": [
                ["type": "text", "text": "Let me read that page."],
                ["type": "tool-read_page", "toolCallId": "call_1", "input": ["pageId": "p1"], "state": "output-available",
                 "output": ["title": "Plan"]],
                ["type": "text", "text": "Based on it, yes."],
            ],
        ])
    }

    @Test func plainContentBecomesOneTextPart() {
        #expect(StoredEnvelope.normalise(["id": "m", "role": "user", "content": "Hello"])
            == ["id": "m", "role": "user", "parts": [["type": "text", "text": "Hello"]]])
        // JSON that is not an envelope is text too.
        #expect(StoredEnvelope.normalise(["id": "m", "role": "user", "content": "[1,2]"])["parts"]
            == [["type": "text", "text": "[1,2]"]])
    }

    @Test func toolWithoutResultAndMessagesWithPartsPassAsTheyAre() {
        let envelope = #"{"textParts":[],"partsOrder":[{"index":0,"type":"tool-search","toolCallId":"c9"}]}"#
        let stored: JSON = ["id": "m", "role": "assistant", "content": .string(envelope),
                            "toolCalls": [["toolCallId": "c9", "toolName": "search", "input": ["q": "x"]]]]
        #expect(StoredEnvelope.normalise(stored)["parts"] == [
            ["type": "tool-search", "toolCallId": "c9", "input": ["q": "x"], "state": "input-available"],
        ])
        let modern: JSON = ["id": "m", "role": "assistant", "parts": [["type": "text", "text": "x"]], "content": "x"]
        #expect(StoredEnvelope.normalise(modern) == modern)
    }
}
