import Testing
@testable import PSCore

/// The Gemini mobile API's named events rebuilt into the message ps-parts --final gives.
@Suite struct GeminiEventFormatTests {
    static func reply(_ events: [(String, String)]) throws -> (JSON?, MessageStatus?) {
        let collector = ReplyCollector()
        let body = ": keepalive\n\n" + events.map { "event: \($0.0)\ndata: \($0.1)\n\n" }.joined()
        try Array(body.utf8).withUnsafeBytes { try collector.feed($0) }
        collector.finish()
        return (collector.reply, collector.status)
    }

    @Test func thoughtsToolsTextAndUsage() throws {
        let (reply, status) = try Self.reply([
            ("thought", #"{"text":"Plan."}"#),
            ("tool-call", #"{"toolName":"read_file","args":{"path":"a"},"status":"running"}"#),
            ("tool-result", #"{"toolName":"read_file","result":"contents","status":"completed"}"#),
            ("token", #"{"text":"It "}"#),
            ("token", #"{"text":"says hi."}"#),
            ("done", #"{"fullResponse":"It says hi.","usage":{"inputTokens":12,"outputTokens":5}}"#),
        ])
        #expect(status == .complete)
        let parts = try #require(reply?["parts"]?.arrayValue)
        #expect(parts.map { $0["type"]?.stringValue } == ["reasoning", "tool-read_file", "text"])
        #expect(parts[0]["text"] == "Plan.")
        #expect(parts[1]["input"]?["path"] == "a")
        #expect(parts[1]["output"] == "contents")
        #expect(parts[1]["state"] == "output-available")
        #expect(parts[2]["text"] == "It says hi.")
        #expect(reply?["metadata"]?["usage"]?["inputTokens"] == .integer(12))
        #expect(reply?["metadata"]?["usage"]?["outputTokens"] == .integer(5))
    }

    @Test func withoutDoneTheReplyIsIncomplete() throws {
        let (reply, status) = try Self.reply([("token", #"{"text":"Half"}"#)])
        guard case .incomplete(.noFinish, _, _)? = status else {
            Issue.record("expected an incomplete reply, got \(String(describing: status))")
            return
        }
        #expect(reply?["parts"]?.arrayValue?.first?["text"] == "Half")
    }

    @Test func anErrorEventEndsTheReplyWithItsCodeAndMessage() throws {
        let (reply, status) = try Self.reply([
            ("token", #"{"text":"Partial"}"#),
            ("error", #"{"code":"RATE_LIMITED","message":"Quota exceeded"}"#),
        ])
        guard case .incomplete(.error, let detail, _)? = status else {
            Issue.record("expected an error, got \(String(describing: status))")
            return
        }
        #expect(detail == "Quota exceeded (RATE_LIMITED)")
        #expect(reply?["parts"]?.arrayValue?.first?["text"] == "Partial")
    }

    /// The route's own failures carry no code (`{message: err.message}`); a null code is none.
    @Test func anErrorWithoutACode() throws {
        for data in [#"{"message":"Session not found"}"#, #"{"code":null,"message":"Session not found"}"#] {
            let (_, status) = try Self.reply([("error", data)])
            guard case .incomplete(.error, let detail, _)? = status else {
                Issue.record("expected an error, got \(String(describing: status))")
                return
            }
            #expect(detail == "Session not found")
        }
    }

    /// Results go to the oldest unanswered call of their tool; a failed one is an output error;
    /// a call without args has an empty input; a result without a call opens its own.
    @Test func pairsResultsWithCalls() throws {
        let (reply, status) = try Self.reply([
            ("tool-call", #"{"toolName":"shell","args":{"cmd":"ls"}}"#),
            ("tool-call", #"{"toolName":"shell"}"#),
            ("tool-result", #"{"toolName":"shell","result":"a b","status":"completed"}"#),
            ("tool-result", #"{"toolName":"shell","result":"denied","status":"failed"}"#),
            ("tool-result", #"{"toolName":"web_fetch","result":"page"}"#),
            ("done", #"{"fullResponse":""}"#),
        ])
        #expect(status == .complete)
        let parts = try #require(reply?["parts"]?.arrayValue)
        #expect(parts.count == 3)
        #expect(parts[0]["input"]?["cmd"] == "ls")
        #expect(parts[0]["output"] == "a b")
        #expect(parts[1]["input"] == .object(JSONObject()))
        #expect(parts[1]["state"] == "output-error")
        #expect(parts[1]["errorText"] == "denied")
        #expect(parts[2]["type"] == "tool-web_fetch")
        #expect(parts[2]["output"] == "page")
    }

    /// gemini-cli's ThoughtSummary, the app's ToolCallInfo names, and a done that alone carries the text.
    @Test func acceptsOtherShapesOfTheSameEvents() throws {
        let (reply, status) = try Self.reply([
            ("thought", #"{"subject":"Reading","description":"the file first"}"#),
            ("tool-call", #"{"name":"read_file","arguments":{"path":"b"},"status":"running"}"#),
            ("tool-result", #"{"name":"read_file","result":"B","status":"completed"}"#),
            ("done", #"{"fullResponse":"All of it at once."}"#),
        ])
        #expect(status == .complete)
        let parts = try #require(reply?["parts"]?.arrayValue)
        #expect(parts[0]["text"] == "**Reading** the file first")
        #expect(parts[1]["type"] == "tool-read_file")
        #expect(parts[1]["input"]?["path"] == "b")
        #expect(parts[2]["text"] == "All of it at once.")
    }

    /// The real server's thought: gemini-cli's ThoughtSummary under `text` (sessionManager.ts:262-267);
    /// thinking models send one on most replies. Shown as reasoning: the subject, then the description.
    @Test func aThoughtWhoseTextIsASubjectAndDescription() throws {
        let (reply, status) = try Self.reply([
            ("thought", #"{"text":{"subject":"Planning the trip","description":"Lisbon in two days."}}"#),
            ("thought", #"{"text":{"subject":"","description":"Only a description."}}"#),
            ("token", #"{"text":"Go."}"#),
            ("done", #"{"fullResponse":"Go.","usage":{"inputTokens":3,"outputTokens":1}}"#),
        ])
        #expect(status == .complete)
        let parts = try #require(reply?["parts"]?.arrayValue)
        #expect(parts.map { $0["type"]?.stringValue } == ["reasoning", "text"])
        #expect(parts[0]["text"] == "**Planning the trip** Lisbon in two days.\n\nOnly a description.")
        #expect(parts[1]["text"] == "Go.")
    }

    /// Every error ends the turn with `done` after it on the real server; the error still ends
    /// the reply, in words that say what it means.
    @Test func errorsFollowedByDoneAreNamed() throws {
        let (_, modelStatus) = try Self.reply([
            ("error", #"{"code":"MODEL_ERROR","message":"[object Object]"}"#),
            ("done", #"{"fullResponse":"","usage":{"inputTokens":0,"outputTokens":0}}"#),
        ])
        guard case .incomplete(.error, let detail, _)? = modelStatus else {
            Issue.record("expected an error, got \(String(describing: modelStatus))")
            return
        }
        #expect(detail == "the server gave no reason (MODEL_ERROR)")
        let (reply, toolStatus) = try Self.reply([
            ("tool-call", #"{"toolName":"read_file","args":{"path":"a"},"status":"running"}"#),
            ("error", #"{"code":"STREAM_ERROR","message":"Cannot read properties of undefined (reading 'getTool')"}"#),
            ("done", #"{"fullResponse":"","usage":{"inputTokens":9,"outputTokens":4}}"#),
        ])
        guard case .incomplete(.error, let toolDetail, _)? = toolStatus else {
            Issue.record("expected an error, got \(String(describing: toolStatus))")
            return
        }
        #expect(toolDetail.hasPrefix("the Gemini server cannot run tools"), "\(toolDetail)")
        #expect(reply?["parts"]?.arrayValue?.first?["type"] == "tool-read_file")
    }

    @Test func errorEventsBecomeExitStatuses() {
        let tool = GeminiStreamError.toolError(code: "STREAM_ERROR", message: "Cannot read properties of undefined (reading 'getTool')")
        #expect(tool.status == .serverError && tool.message.contains("cannot run tools"))
        let model = GeminiStreamError.toolError(code: "MODEL_ERROR", message: "[object Object]")
        #expect(model.status == .serverError && model.message.contains("the server gave no reason") && !model.message.contains("[object"))
        let forgotten = GeminiStreamError.toolError(code: "INTERNAL_ERROR", message: "Conversation 1b2c not found")
        #expect(forgotten.status == .notFound && forgotten.message.contains("30 minutes") && forgotten.message.contains("--new-conversation"))
        #expect(GeminiStreamError.toolError(code: "INTERNAL_ERROR", message: "Access denied").status == .forbidden)
        #expect(GeminiStreamError.toolError(code: nil, message: "odd").status == .incomplete)
    }
}
