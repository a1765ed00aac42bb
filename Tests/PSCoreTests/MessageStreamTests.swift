import Testing
@testable import PSCore

/// Runs input lines through MessageStream and PartRecords, as ps-parts does.
func records(_ lines: [String], final: Bool = false) throws -> (lines: [String], malformed: MalformedRecord?) {
    var out: [UInt8] = []
    let writer = PartRecords(final: final)
    let stream = MessageStream { writer.write($0, to: &out) }
    do {
        for (index, line) in lines.enumerated() { try stream.consume(try JSON.parse(line), line: index + 1) }
        try stream.finish()
    } catch let error as MalformedRecord {
        return (String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init), error)
    }
    return (String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init), nil)
}

/// An event record as ps-sse writes it.
func event(_ data: String, name: String = "message") -> String {
    #"{"event":"\#(name)","id":"","data":\#(data)}"#
}
let done = #"{"event":"message","id":"","data":"[DONE]","done":true}"#

@Suite struct MessageStreamTests {
    @Test func writesPartRecordsInStreamOrder() throws {
        let result = try records([
            event(#"{"type":"start","messageId":"m1","messageMetadata":{"model":"x"}}"#),
            event(#"{"type":"start-step"}"#),
            event(#"{"type":"text-start","id":"t"}"#),
            event(#"{"type":"text-delta","id":"t","delta":"**Hi**\n"}"#),
            event(#"{"type":"text-end","id":"t"}"#),
            event(#"{"type":"finish-step"}"#),
            event(#"{"type":"start-step"}"#),
            event(#"{"type":"text-start","id":"u"}"#),
            event(#"{"type":"reset-step"}"#),
            event(#"{"type":"finish"}"#),
            done,
        ])
        #expect(result.malformed == nil)
        #expect(result.lines == [
            #"{"type":"message-start","messageId":"m1","role":"assistant"}"#,
            #"{"type":"metadata","metadata":{"model":"x"}}"#,
            #"{"type":"part-start","index":0,"part":{"type":"step-start"}}"#,
            #"{"type":"part-start","index":1,"part":{"type":"text","text":"","state":"streaming"}}"#,
            #"{"type":"part-delta","index":1,"delta":"**Hi**\n"}"#,
            #"{"type":"part-update","index":1,"part":{"type":"text","text":"**Hi**\n","state":"done"}}"#,
            #"{"type":"part-start","index":2,"part":{"type":"step-start"}}"#,
            #"{"type":"part-start","index":3,"part":{"type":"text","text":"","state":"streaming"}}"#,
            #"{"type":"parts-reset","index":3}"#,
            #"{"type":"message-end","message":{"id":"m1","metadata":{"model":"x"},"role":"assistant","parts":[{"type":"step-start"},{"type":"text","text":"**Hi**\n","state":"done"},{"type":"step-start"}]},"status":"complete"}"#,
        ])
    }

    @Test func anErrorEndsTheMessageAndTheRestOfThatStreamIsSkipped() throws {
        let result = try records([
            event(#"{"type":"text-start","id":"t"}"#),
            event(#"{"type":"error","errorText":"Rate limit exceeded"}"#),
            event(#"{"type":"text-delta","id":"t","delta":"ignored"}"#),
            done,
            event(#"{"type":"start","messageId":"next"}"#),
            event(#"{"type":"finish"}"#),
        ], final: true)
        #expect(result.lines == [
            #"{"id":"","role":"assistant","parts":[{"type":"text","text":"","state":"streaming"}],"incomplete":{"reason":"error","detail":"Rate limit exceeded"}}"#,
            #"{"id":"next","role":"assistant","parts":[]}"#,
        ])
        let incremental = try records([event(#"{"type":"error","errorText":"boom"}"#)])
        #expect(incremental.lines == [
            #"{"type":"message-start","messageId":"","role":"assistant"}"#,
            #"{"type":"stream-error","errorText":"boom"}"#,
            #"{"type":"message-end","message":{"id":"","role":"assistant","parts":[]},"status":"incomplete","reason":"error","detail":"boom"}"#,
        ])
    }

    @Test func abortAndAMissingEndMakeTheMessageIncomplete() throws {
        let aborted = try records([
            event(#"{"type":"text-start","id":"t"}"#), event(#"{"type":"abort","reason":"user cancelled"}"#),
            event(#"{"type":"text-delta","id":"t","delta":"late"}"#), done,
        ], final: true)
        #expect(aborted.lines == [#"{"id":"","role":"assistant","parts":[{"type":"text","text":"late","state":"streaming"}],"incomplete":{"reason":"abort","detail":"user cancelled"}}"#])
        let cut = try records([event(#"{"type":"text-start","id":"t"}"#)], final: true)
        #expect(cut.lines == [#"{"id":"","role":"assistant","parts":[{"type":"text","text":"","state":"streaming"}],"incomplete":{"reason":"no-finish","detail":"the stream ended without finish or [DONE]"}}"#])
        let finishedWithoutDone = try records([event(#"{"type":"finish"}"#)], final: true)
        #expect(finishedWithoutDone.lines == [#"{"id":"","role":"assistant","parts":[]}"#])
    }

    @Test func aMalformedRecordEndsTheMessageAndIsReported() throws {
        let result = try records([
            event(#"{"type":"text-start","id":"t"}"#),
            event(#"{"type":"text-delta","id":"t","delta":"kept"}"#),
            event(#"{"no":"type"}"#),
            event(#"{"type":"text-delta","id":"t","delta":"never"}"#),
        ], final: true)
        #expect(result.malformed?.line == 3)
        #expect(result.malformed?.message == #"message event whose data is not a chunk (no "type")"#)
        #expect(result.lines == [#"{"id":"","role":"assistant","parts":[{"type":"text","text":"kept","state":"streaming"}],"incomplete":{"reason":"malformed","detail":"line 3: message event whose data is not a chunk (no \"type\")"}}"#])
        #expect(try records([#"{"neither":1}"#]).malformed?.message == "not an event record, a chunk or a message")
        #expect(try records([event("42")]).malformed != nil)
    }

    @Test func readsRawDataStringsAndBareChunks() throws {
        let result = try records([
            event(#""{\"type\":\"text-start\",\"id\":\"t\"}""#),
            #"{"type":"text-delta","id":"t","delta":"bare"}"#,
            event(#""[DONE]""#),
        ], final: true)
        #expect(result.lines == [#"{"id":"","role":"assistant","parts":[{"type":"text","text":"bare","state":"streaming"}],"incomplete":{"reason":"no-finish","detail":"the stream closed with [DONE] but no finish: the server stopped the reply before its end"}}"#])
    }

    @Test func mapsTheSeedsSimplifiedChunks() throws {
        let result = try records([
            event(#"{"type":"text","text":"Let me "}"#),
            event(#"{"type":"text","text":"help you "}"#),
            event(#"{"type":"tool-call","toolCallId":"call_abc123","toolName":"read_page","args":{"pageId":"xyz789"}}"#),
            event(#"{"type":"tool-result","toolCallId":"call_abc123","result":{"content":"..."}}"#),
            event(#"{"type":"text-delta","textDelta":"Based on "}"#),
            event(#"{"type":"data","data":{"progress":1}}"#),
            event(#"{"type":"finish","usage":{"inputTokens":150,"outputTokens":75}}"#),
        ], final: true)
        #expect(result.lines == [
            #"{"id":"","metadata":{"usage":{"inputTokens":150,"outputTokens":75}},"role":"assistant","parts":[{"type":"text","text":"Let me help you ","state":"done"},{"type":"tool-read_page","toolCallId":"call_abc123","state":"output-available","input":{"pageId":"xyz789"},"output":{"content":"..."}},{"type":"text","text":"Based on ","state":"done"},{"type":"data-legacy","data":{"progress":1}}]}"#,
        ])
    }

    @Test func mapsTheV4DataStream() throws {
        func line(_ code: String, _ value: String) -> String { event(#"{"code":"\#(code)","value":\#(value)}"#, name: "data-stream") }
        let result = try records([
            line("f", #"{"messageId":"msg-v4"}"#),
            line("g", #""Thinking""#),
            line("0", #""Hello""#),
            line("0", #"" world""#),
            line("b", #"{"toolCallId":"c1","toolName":"search"}"#),
            line("c", #"{"toolCallId":"c1","argsTextDelta":"{\"q\":\"sw"}"#),
            line("9", #"{"toolCallId":"c1","toolName":"search","args":{"q":"swift"}}"#),
            line("a", #"{"toolCallId":"c1","result":["a","b"]}"#),
            line("8", #"[{"note":1}]"#),
            line("e", #"{"finishReason":"tool-calls","isContinued":false}"#),
            line("f", #"{"messageId":"msg-v4"}"#),
            line("h", #"{"sourceType":"url","id":"s1","url":"https://swift.org","title":"Swift"}"#),
            line("2", #"[{"x":1}]"#),
            line("0", #""Done.""#),
            line("e", #"{"finishReason":"stop"}"#),
            line("d", #"{"finishReason":"stop","usage":{"promptTokens":5,"completionTokens":7}}"#),
        ], final: true)
        #expect(result.malformed == nil)
        #expect(result.lines == [
            #"{"id":"msg-v4","metadata":{"annotations":[{"note":1}],"usage":{"promptTokens":5,"completionTokens":7}},"role":"assistant","parts":[{"type":"step-start"},{"type":"reasoning","id":"reasoning-1","text":"Thinking","state":"done"},{"type":"text","text":"Hello world","state":"done"},{"type":"tool-search","toolCallId":"c1","state":"output-available","input":{"q":"swift"},"output":["a","b"]},{"type":"step-start"},{"type":"source-url","sourceId":"s1","url":"https://swift.org","title":"Swift"},{"type":"data-legacy","data":{"x":1}},{"type":"text","text":"Done.","state":"done"}]}"#,
        ])
        let streamedInput = try records([line("b", #"{"toolCallId":"c1","toolName":"search"}"#), line("c", #"{"toolCallId":"c1","argsTextDelta":"{\"q\":\"sw"}"#)])
        #expect(streamedInput.lines.contains(#"{"type":"part-update","index":0,"part":{"type":"tool-search","toolCallId":"c1","state":"input-streaming","input":{"q":"sw"}}}"#))
        #expect(try records([line("3", #""overloaded""#)], final: true).lines == [#"{"id":"","role":"assistant","parts":[],"incomplete":{"reason":"error","detail":"overloaded"}}"#])
        #expect(try records([line("z", "1")]).malformed != nil)
    }

    @Test func mapsGeminiNamedEventsPairingResultsInOrder() throws {
        let result = try records([
            event(#"{"text":"Plan first."}"#, name: "thought"),
            event(#"{"text":"Hi "}"#, name: "token"),
            event(#"{"text":"there"}"#, name: "token"),
            event(#"{"toolName":"read-file","args":{"path":"a"},"status":"running"}"#, name: "tool-call"),
            event(#"{"toolName":"read-file","args":{"path":"b"},"status":"running"}"#, name: "tool-call"),
            event(#"{"toolName":"read-file","result":"A","status":"completed"}"#, name: "tool-result"),
            event(#"{"toolName":"read-file","result":"no such file","status":"error"}"#, name: "tool-result"),
            event(#"{"text":"Done"}"#, name: "token"),
            event(#"{"fullResponse":"Hi thereDone","usage":{"inputTokens":1,"outputTokens":2}}"#, name: "done"),
        ], final: true)
        #expect(result.lines == [
            #"{"id":"","metadata":{"usage":{"inputTokens":1,"outputTokens":2}},"role":"assistant","parts":[{"type":"reasoning","id":"reasoning-1","text":"Plan first.","state":"done"},{"type":"text","text":"Hi there","state":"done"},{"type":"tool-read-file","toolCallId":"gemini-call-1","state":"output-available","input":{"path":"a"},"output":"A"},{"type":"tool-read-file","toolCallId":"gemini-call-2","state":"output-error","input":{"path":"b"},"errorText":"no such file"},{"type":"text","text":"Done","state":"done"}]}"#,
        ])
        // A result with no call before it opens its own call (GeminiEventFormatTests has more).
        let orphan = try records([event(#"{"toolName":"x","result":1}"#, name: "tool-result")], final: true)
        #expect(orphan.malformed == nil)
        let failed = try records([event(#"{"code":"RATE_LIMITED","message":"slow down"}"#, name: "error")], final: true)
        #expect(failed.lines == [#"{"id":"","role":"assistant","parts":[],"incomplete":{"reason":"error","detail":"slow down (RATE_LIMITED)"}}"#])
    }

    @Test func passesWholeMessagesThroughNormalised() throws {
        let envelope = #"{\"textParts\":[\"Let me read that page.\",\"  \",\"Done: it is short.\"],\"partsOrder\":[{\"index\":0,\"type\":\"step-start\"},{\"index\":1,\"type\":\"text\"},{\"index\":2,\"type\":\"tool-read_page\",\"toolCallId\":\"call_1\"},{\"index\":3,\"type\":\"text\"},{\"index\":4,\"type\":\"text\"},{\"index\":5,\"type\":\"data-command-execution\"}],\"dataParts\":[{\"type\":\"data-command-execution\",\"id\":\"x\",\"data\":{\"ok\":true}}],\"originalContent\":\"Let me read that page. Done: it is short.\"}"#
        let stored = #"{"id":"m2","role":"assistant","content":"\#(envelope)","toolCalls":"[{\"toolCallId\":\"call_1\",\"toolName\":\"read_page\",\"input\":{\"pageId\":\"p\"},\"state\":\"output-available\"}]","toolResults":[{"toolCallId":"call_1","toolName":"read_page","output":{"title":"T"},"state":"output-available"}],"createdAt":"2025-11-01T10:00:05Z"}"#
        let result = try records([
            #"{"id":"m1","role":"user","parts":[{"type":"text","text":"Hello!"}],"createdAt":"2025-11-01T10:00:00Z"}"#,
            stored,
            #"{"id":"l1","role":"assistant","content":"Hi there!","created_at":"2024-01-15T10:30:01Z"}"#,
            #"{"messages":[{"id":"e","role":"assistant","content":"{\"textParts\":[],\"partsOrder\":[],\"originalContent\":\"fallback\"}"}],"pagination":{}}"#,
        ])
        #expect(result.lines == [
            #"{"id":"m1","role":"user","parts":[{"type":"text","text":"Hello!"}],"createdAt":"2025-11-01T10:00:00Z"}"#,
            #"{"id":"m2","role":"assistant","parts":[{"type":"text","text":"Let me read that page."},{"type":"tool-read_page","toolCallId":"call_1","toolName":"read_page","input":{"pageId":"p"},"state":"output-available","output":{"title":"T"}},{"type":"text","text":"Done: it is short."},{"type":"data-command-execution","id":"x","data":{"ok":true}}],"createdAt":"2025-11-01T10:00:05Z"}"#,
            #"{"id":"l1","role":"assistant","parts":[{"type":"text","text":"Hi there!"}],"createdAt":"2024-01-15T10:30:01Z"}"#,
            #"{"id":"e","role":"assistant","parts":[{"type":"text","text":"fallback"}]}"#,
        ])
    }

    @Test func rebuildsStoredToolErrorsAndLegacyResults() {
        let message = JSONObject([
            ("id", "m"), ("role", "assistant"),
            ("content", .string(#"{"textParts":[],"partsOrder":[{"type":"tool-a","toolCallId":"1"},{"type":"tool-b","toolCallId":"2"},{"type":"tool-c","toolCallId":"3"},{"type":"tool-d","toolCallId":"missing"}]}"#)),
            ("tool_calls", [["toolCallId": "1", "toolName": "a", "args": ["x": 1]], ["toolCallId": "2", "toolName": "b", "input": [:]], ["toolCallId": "3", "toolName": "c", "input": [:]]]),
            ("tool_results", [["toolCallId": "1", "result": "legacy"], ["toolCallId": "2", "state": "output-error", "errorText": "nope", "output": "x"]]),
        ])
        #expect(MessageNormalizer.normalize(message).serialized() == #"{"id":"m","role":"assistant","parts":[{"type":"tool-a","toolCallId":"1","toolName":"a","input":{"x":1},"state":"output-available","output":"legacy"},{"type":"tool-b","toolCallId":"2","toolName":"b","input":{},"state":"output-error","errorText":"nope"},{"type":"tool-c","toolCallId":"3","toolName":"c","input":{},"state":"input-available"}]}"#)
        #expect(MessageNormalizer.normalize(JSONObject([("id", "u"), ("role", "user"), ("content", #"{"textParts":1}"#)])).serialized()
            == #"{"id":"u","role":"user","parts":[{"type":"text","text":"{\"textParts\":1}"}]}"#)
    }
}

@Suite struct TextDeltaRecordTests {
    func match(_ line: String) -> (id: String, delta: String)? {
        Array(line.utf8).withUnsafeBytes { bytes in
            TextDeltaRecord.match(bytes).map { (String(decoding: $0.id, as: UTF8.self), $0.delta) }
        }
    }

    @Test func recognisesTheRecordPsSseWrites() {
        let plain = match(#"{"event":"message","id":"41","data":{"type":"text-delta","id":"txt-0","delta":" world"}}"#)
        #expect(plain?.id == "txt-0" && plain?.delta == " world")
        let escaped = match(#"{"event":"message","id":"a\"b","data":{"type":"text-delta","id":"t","delta":"line\n\t\"q\" \\ é/"}}"#)
        #expect(escaped?.delta == "line\n\t\"q\" \\ é/")
    }

    /// The matcher's bytes are the record EventRecordOutput writes.
    @Test func matchesWhatPsSseWrites() throws {
        let data = Array(#"{"type":"text-delta","id":"t","delta":"Hi \"you\""}"#.utf8)
        var record: [UInt8] = []
        data.withUnsafeBytes { bytes in
            EventRecordOutput.encode(SSEParser.Event(type: "message", data: bytes, lastEventId: "7", retry: nil, line: 1), raw: false, into: &record)
        }
        #expect(record.last == 0x0A)
        let line = String(decoding: record.dropLast(), as: UTF8.self)
        #expect(line == #"{"event":"message","id":"7","data":{"type":"text-delta","id":"t","delta":"Hi \"you\""}}"#)
        #expect(match(line)?.delta == "Hi \"you\"")
    }

    @Test func leavesEverythingElseToTheParser() {
        #expect(match(#"{"event":"message","id":"","data":{"type":"text-delta","id":"\u0074","delta":"x"}}"#) == nil)
        #expect(match(#"{"event":"message","id":"","data":{"type":"text-delta","id":"t","delta":"\ud800"}}"#) == nil)
        #expect(match(#"{"event":"message","id":"","data":{"type":"text-delta","id":"t","id":"t","delta":"x"}}"#) == nil)
        #expect(match(#"{"event":"message","id":"","data":{"type":"text-delta","id":"t","delta":"x","delta":"y"}}"#) == nil)
        #expect(match(#"{"event":"message","id":"","data":{"type":"text-delta","type":"text-delta","id":"t","delta":"x"}}"#) == nil)
        #expect(match(#"{"event":"message","id":"","data":{"type":"text-delta","id":"t"}}"#) == nil)
        #expect(match(#"{"event":"message","id":"","data":{"type":"text-start","id":"t","delta":"x"}}"#) == nil)
        #expect(match(#"{"event":"message","id":"","data":{"type":"text-delta","id":"t","delta":"x",}}"#) == nil)
        #expect(match(#"{"event":"message","id":"","data":{"type":"text-delta","id":"t","delta":"x","providerMetadata":{}}}"#) == nil)
        #expect(match(#"{"event":"message","id":"","data":{"type":"text-delta","id":"t","delta":"x"}} "#) == nil)
        #expect(match(#"{"event":"token","id":"","data":{"type":"text-delta","id":"t","delta":"x"}}"#) == nil)
        #expect(match(#"{"event":"message","id":"","data":{"type":"text-delta","id":"t","delta":"x"#) == nil)
        #expect(match(#"{"event":"message","id":"","data":{"type":"text-delta","id":"t","delta":"\#u{1}"}}"#) == nil)
        #expect([UInt8](#"{"event":"message","id":"","data":{"type":"text-delta","id":"t","delta":"?"}}"#.utf8).map { $0 == 0x3F ? 0xFF : $0 }.withUnsafeBytes { TextDeltaRecord.match($0) } == nil)
        #expect([UInt8](#"{"event":"message","id":"","data":{"type":"text-delta","id":"?","delta":"x"}}"#.utf8).map { $0 == 0x3F ? 0xC3 : $0 }.withUnsafeBytes { TextDeltaRecord.match($0) } == nil)
    }

    /// Feeds record lines as ps-parts does (fast path first when `fast`), returning the part
    /// records and the malformed line's message, if any.
    func replay(_ lines: [String], fast: Bool) throws -> String {
        var out: [UInt8] = []
        let writer = PartRecords(final: false)
        let stream = MessageStream { writer.write($0, to: &out) }
        do {
            for (index, line) in lines.enumerated() {
                let tookFastPath = try Array(line.utf8).withUnsafeBytes { bytes in
                    guard fast, let record = TextDeltaRecord.match(bytes) else { return false }
                    try stream.consumeTextDelta(record, line: index + 1)
                    return true
                }
                if !tookFastPath { try stream.consume(try JSON.parse(line), line: index + 1) }
            }
            try stream.finish()
        } catch let error as MalformedRecord {
            out.append(contentsOf: "malformed: \(error)".utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    func record(_ chunk: String) -> String { #"{"event":"message","id":"","data":\#(chunk)}"# }
    func delta(_ id: String, _ text: String) -> String { record(#"{"type":"text-delta","id":"\#(id)","delta":"\#(text)"}"#) }

    @Test(arguments: 0..<6)
    func theFastPathGivesWhatTheChunkGives(_ scenario: Int) throws {
        var lines = [record(#"{"type":"start","messageId":"m"}"#), record(#"{"type":"text-start","id":"t"}"#)]
        switch scenario {
        case 0:  // two parts taking turns, then one ended and written to again
            lines += [record(#"{"type":"text-start","id":"u"}"#), delta("t", "a"), delta("u", "b"), delta("t", #"c\n \"q\""#),
                      record(#"{"type":"text-end","id":"t"}"#), delta("u", "d"), delta("t", "late")]
        case 1:  // a step ends the open parts; the same id opens a new part
            lines += [delta("t", "a"), record(#"{"type":"finish-step"}"#), delta("t", "b")]
        case 2:
            lines += [delta("t", "a"), record(#"{"type":"finish-step"}"#), record(#"{"type":"text-start","id":"t"}"#),
                      delta("t", "b"), record(#"{"type":"reset-step"}"#), delta("t", "c")]
        case 3:  // a new message reuses the id at another index
            lines += [delta("t", "a"), record(#"{"type":"finish"}"#), record(#""[DONE]""#),
                      record(#"{"type":"start","messageId":"n"}"#), record(#"{"type":"start-step"}"#),
                      record(#"{"type":"text-start","id":"t"}"#), delta("t", "b"), delta("t", "c")]
        case 4:  // a simplified text run is open when the delta comes
            lines += [delta("t", "a"), record(#"{"type":"text","text":"simplified "}"#), delta("t", "b"), delta("t", "c")]
        default:  // an error skips the rest of the stream
            lines += [delta("t", "a"), record(#"{"type":"error","errorText":"boom"}"#), delta("t", "b"),
                      record(#"{"type":"start"}"#), delta("t", "c")]
        }
        let fast = try replay(lines, fast: true)
        #expect(fast == (try replay(lines, fast: false)))
        #expect(fast.contains(#""type":"part-delta""#))
    }
}

@Suite struct MessageStreamEdgeTests {
    @Test func aBadLeadingStartStillOpensAndClosesTheMessage() throws {
        let result = try records([event(#"{"type":"start","messageId":5}"#)])
        #expect(result.malformed?.message == #"start chunk whose "messageId" is not a string"#)
        #expect(result.lines.first == #"{"type":"message-start","messageId":"","role":"assistant"}"#)
        #expect(result.lines.last?.contains(#""reason":"malformed""#) == true)
    }
}
