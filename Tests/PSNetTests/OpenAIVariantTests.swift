import PSCore
import Testing
@testable import PSNet

/// The openai adapter's two variants, told apart by the base URL, and the reading of
/// PageSpace's OpenAI-style conversations back into UIMessages.
@Suite struct OpenAIVariantTests {
    @Test func theBaseURLSaysWhichVariant() {
        #expect(OpenAIAdapter.isPageSpace(baseURL: "https://pagespace.ai/api/v1"))
        #expect(OpenAIAdapter.isPageSpace(baseURL: "https://pagespace.ai/api/v1/"))
        #expect(OpenAIAdapter.isPageSpace(baseURL: "http://127.0.0.1:3000/api/v1?x=1"))
        #expect(!OpenAIAdapter.isPageSpace(baseURL: "http://127.0.0.1:11434/v1"))
        #expect(!OpenAIAdapter.isPageSpace(baseURL: "https://pagespace.ai"))
        #expect(!OpenAIAdapter.isPageSpace(baseURL: "https://example.com/api/v12"))
    }

    /// How servers say they do not know a model (each quoted from its users' reports): OpenAI and
    /// vLLM, Ollama (404), LiteLLM's proxy (400). A route's 404 is no such refusal.
    @Test func anUnknownModelIsToldInEachServersWords() {
        func response(_ status: Int, _ body: String) -> HTTPResponse {
            HTTPResponse(head: HTTPResponseHead(status: status, headers: []), body: Array(body.utf8))
        }
        #expect(OpenAIAdapter.isUnknownModel(response(404, #"{"error":{"message":"The model `gpt-9` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}"#)))
        #expect(OpenAIAdapter.isUnknownModel(response(404, #"{"error":{"message":"model \"llama3.2\" not found, try pulling it first","type":"api_error","param":null,"code":null}}"#)))
        #expect(OpenAIAdapter.isUnknownModel(response(400, #"{"error":{"message":"{'error': '/chat/completions: Invalid model name passed in model=llama3.2. Call `/v1/models` to view available models for your key.'}","type":"None","param":"None","code":"400"}}"#)))
        #expect(!OpenAIAdapter.isUnknownModel(response(404, "404 page not found")))
        #expect(!OpenAIAdapter.isUnknownModel(response(404, #"{"detail":"Not Found"}"#)))
        #expect(!OpenAIAdapter.isUnknownModel(response(500, #"{"error":{"message":"model \"x\" not found"}}"#)))
    }

    @Test func aLongListOfModelsIsCut() {
        #expect(OpenAIAdapter.names(["a", "b"]) == "a, b")
        #expect(OpenAIAdapter.names((1...11).map { "m\($0)" }) == "m1, m2, m3, m4, m5, m6, m7, m8 …and 3 more")
    }

    @Test func toolCallsArePairedWithTheirResultsWhereverTheyAre() throws {
        let conversation = try JSON.parse("""
            [{"id":"m1","role":"user","content":"Read it","created_at":1700000000},
             {"id":"m2","role":"assistant","content":"Done.","created_at":1700000001,
              "tool_calls":[{"id":"c1","type":"function","function":{"name":"read_page","arguments":"{\\"pageId\\":\\"p1\\"}"}},
                            {"id":"c2","type":"function","function":{"name":"search","arguments":"not json"}}]},
             {"id":"m2:c1","role":"tool","tool_call_id":"c1","content":"{\\"title\\":\\"Notes\\"}","created_at":1700000001},
             {"id":"m2:c2","role":"tool","tool_call_id":"c2","content":"plain text","created_at":1700000001},
             {"id":"x:c9","role":"tool","tool_call_id":"c9","content":"nobody asked","created_at":1700000002},
             {"id":"m3","role":"user","content":null,"created_at":1700000003}]
            """)
        let messages = ChatTranscript.uiMessages(conversation.arrayValue!)
        #expect(messages.count == 3)
        #expect(messages[0] == [
            "id": "m1", "role": "user", "parts": [["type": "text", "text": "Read it"]], "createdAt": "2023-11-14T22:13:20.000Z",
        ])
        let parts = try #require(messages[1]["parts"]?.arrayValue)
        #expect(parts.count == 3)
        #expect(parts[0] == [
            "type": "tool-read_page", "toolCallId": "c1", "state": "output-available", "input": ["pageId": "p1"],
            "output": ["title": "Notes"],
        ])
        #expect(parts[1]["input"] == "not json")
        #expect(parts[1]["output"] == "plain text")
        #expect(parts[2] == ["type": "text", "text": "Done."])
        #expect(messages[2]["parts"] == [])
    }

    @Test func modelRecordsLeaveOutWhatTheServerDidNotSay() throws {
        let full = try #require(ModelInfo(openAI: ["id": "m", "owned_by": "me", "created": 5, "object": "model"]))
        #expect(full.record == ["id": "m", "ownedBy": "me", "created": 5])
        #expect(ModelInfo(openAI: ["id": "bare"])?.record == ["id": "bare"])
        #expect(ModelInfo(openAI: ["owned_by": "me"]) == nil)
    }
}
