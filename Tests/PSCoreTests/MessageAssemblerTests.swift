import Testing
@testable import PSCore

/// Feeds chunks (one JSON text each) to a fresh assembler.
struct Feed {
    var assembler = MessageAssembler()
    var changes: [[MessageChange]] = []
    var outcomes: [ChunkOutcome] = []

    init(_ chunks: [String]) throws {
        try apply(chunks)
    }

    mutating func apply(_ chunks: [String]) throws {
        for text in chunks {
            var step: [MessageChange] = []
            guard case .object(let chunk) = try JSON.parse(text) else { Issue.record("not an object: \(text)"); return }
            outcomes.append(try assembler.apply(chunk, changes: &step))
            changes.append(step)
        }
    }

    var json: String {
        var out: [UInt8] = []
        assembler.writeMessage(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The serialized parts, comma-joined, for shorter expectations.
    var parts: String { assembler.parts.map { $0.json.serialized() }.joined(separator: ",") }
}

func malformed(_ chunks: [String]) -> String? {
    var assembler = MessageAssembler()
    var changes: [MessageChange] = []
    for text in chunks {
        guard case .object(let chunk)? = try? JSON.parse(text) else { return "not json" }
        do { _ = try assembler.apply(chunk, changes: &changes) } catch let error as MalformedChunk { return error.message } catch {
            return "\(error)"
        }
    }
    return nil
}

@Suite struct MessageAssemblerTests {
    static let toolExample = [
        #"{"type":"start","messageId":"msg-123"}"#,
        #"{"type":"start-step"}"#,
        #"{"type":"tool-input-start","toolCallId":"tc0","toolName":"read_page"}"#,
        #"{"type":"tool-input-delta","toolCallId":"tc0","inputTextDelta":"{\"pageId\":\"x"}"#,
        #"{"type":"tool-input-delta","toolCallId":"tc0","inputTextDelta":"yz\"}"}"#,
        #"{"type":"tool-input-available","toolCallId":"tc0","toolName":"read_page","input":{"pageId":"xyz"}}"#,
        #"{"type":"tool-output-available","toolCallId":"tc0","output":"page text"}"#,
        #"{"type":"finish-step"}"#,
        #"{"type":"finish"}"#,
    ]

    @Test func rebuildsTheToolExampleOfTheStreamFormats() throws {
        let feed = try Feed(Self.toolExample)
        #expect(feed.json == #"{"id":"msg-123","role":"assistant","parts":[{"type":"step-start"},{"type":"tool-read_page","toolCallId":"tc0","state":"output-available","input":{"pageId":"xyz"},"output":"page text"}]}"#)
        #expect(feed.outcomes.last == .finished)
        let afterFirstDelta = try Feed(Array(Self.toolExample.prefix(4)))
        #expect(afterFirstDelta.parts == #"{"type":"step-start"},{"type":"tool-read_page","toolCallId":"tc0","state":"input-streaming","input":{"pageId":"x"}}"#)
        #expect(afterFirstDelta.changes.map { $0 } == [[.idChanged], [.partAdded(0)], [.partAdded(1)], [.partChanged(1)]])
    }

    @Test func buildsTextPartsWithSeveralOpenIdsAndReusedIds() throws {
        let feed = try Feed([
            #"{"type":"text-start","id":"a"}"#,
            #"{"type":"text-start","id":"b","providerMetadata":{"p":{"k":1}}}"#,
            #"{"type":"text-delta","id":"b","delta":"B"}"#,
            #"{"type":"text-delta","id":"a","delta":"A1"}"#,
            #"{"type":"text-delta","id":"a","delta":"A2"}"#,
            #"{"type":"text-end","id":"a"}"#,
            #"{"type":"text-start","id":"a"}"#,
            #"{"type":"text-delta","id":"a","delta":"again"}"#,
            #"{"type":"text-end","id":"b","providerMetadata":{"p":{"k":2}}}"#,
        ])
        #expect(feed.json == #"{"id":"","role":"assistant","parts":[{"type":"text","text":"A1A2","state":"done"},{"type":"text","text":"B","providerMetadata":{"p":{"k":2}},"state":"done"},{"type":"text","text":"again","state":"streaming"}]}"#)
        #expect(feed.changes[3] == [.textAppended(0, "A1")])
        #expect(feed.changes[5] == [.partChanged(0)])
        #expect(feed.changes[6] == [.partAdded(2)])
    }

    @Test func buildsReasoningPartsWithTheirId() throws {
        let feed = try Feed([
            #"{"type":"reasoning-start","id":"r1","providerMetadata":{"anthropic":{"signature":"s"}}}"#,
            #"{"type":"reasoning-delta","id":"r1","delta":"Think"}"#,
            #"{"type":"reasoning-delta","id":"r1","delta":"ing"}"#,
            #"{"type":"reasoning-end","id":"r1"}"#,
            #"{"type":"reasoning-start","id":"r2"}"#,
        ])
        #expect(feed.parts == #"{"type":"reasoning","id":"r1","text":"Thinking","providerMetadata":{"anthropic":{"signature":"s"}},"state":"done"},{"type":"reasoning","id":"r2","text":"","state":"streaming"}"#)
    }

    @Test func setsTheIdAndDeepMergesMetadataEvenAfterFinish() throws {
        let feed = try Feed([
            #"{"type":"start","messageId":"m1","messageMetadata":{"a":{"b":1,"c":[1]},"model":"x"}}"#,
            #"{"type":"message-metadata","messageMetadata":{"a":{"c":[2],"d":2}}}"#,
            #"{"type":"finish","finishReason":"stop","messageMetadata":{"usage":{"inputTokens":3}}}"#,
            #"{"type":"message-metadata","messageMetadata":{"usage":{"outputTokens":4}}}"#,
        ])
        #expect(feed.json == #"{"id":"m1","metadata":{"a":{"b":1,"c":[2],"d":2},"model":"x","usage":{"inputTokens":3,"outputTokens":4}},"role":"assistant","parts":[]}"#)
        #expect(feed.assembler.finishReason == "stop")
        #expect(feed.changes[0] == [.idChanged, .metadataChanged])
    }

    @Test func withoutStartTheIdIsEmptyAndMetadataAbsent() throws {
        let feed = try Feed([#"{"type":"start"}"#, #"{"type":"finish"}"#])
        #expect(feed.json == #"{"id":"","role":"assistant","parts":[]}"#)
        #expect(feed.changes == [[], []])
    }

    @Test func finishStepForgetsOpenTextButKeepsTheirState() throws {
        var feed = try Feed([#"{"type":"text-start","id":"t"}"#, #"{"type":"text-delta","id":"t","delta":"x"}"#, #"{"type":"finish-step"}"#])
        #expect(feed.parts == #"{"type":"text","text":"x","state":"streaming"}"#)
        #expect(throws: MalformedChunk.self) { try feed.apply([#"{"type":"text-delta","id":"t","delta":"y"}"#]) }
    }

    @Test func resetStepRemovesTheCurrentStepsParts() throws {
        let feed = try Feed([
            #"{"type":"start-step"}"#, #"{"type":"text-start","id":"1"}"#, #"{"type":"text-end","id":"1"}"#,
            #"{"type":"finish-step"}"#, #"{"type":"start-step"}"#, #"{"type":"text-start","id":"2"}"#,
            #"{"type":"tool-input-start","toolCallId":"c","toolName":"t"}"#, #"{"type":"reset-step"}"#,
        ])
        #expect(feed.parts == #"{"type":"step-start"},{"type":"text","text":"","state":"done"},{"type":"step-start"}"#)
        #expect(feed.changes.last == [.partsRemoved(from: 3)])
        var again = feed
        #expect(throws: MalformedChunk.self) { try again.apply([#"{"type":"tool-input-delta","toolCallId":"c","inputTextDelta":"{"}"#]) }
    }

    @Test func toolInputErrorOnAStaticToolMovesTheInputToRawInput() throws {
        let feed = try Feed([
            #"{"type":"tool-input-start","toolCallId":"c","toolName":"search","title":"Search"}"#,
            #"{"type":"tool-input-error","toolCallId":"c","toolName":"search","input":"{bad","errorText":"invalid input"}"#,
        ])
        #expect(feed.parts == #"{"type":"tool-search","toolCallId":"c","state":"output-error","title":"Search","rawInput":"{bad","errorText":"invalid input"}"#)
    }

    @Test func toolOutputErrorKeepsTheInput() throws {
        let feed = try Feed([
            #"{"type":"tool-input-available","toolCallId":"c","toolName":"t","input":{"q":1}}"#,
            #"{"type":"tool-output-error","toolCallId":"c","errorText":"boom"}"#,
        ])
        #expect(feed.parts == #"{"type":"tool-t","toolCallId":"c","state":"output-error","input":{"q":1},"errorText":"boom"}"#)
    }

    @Test func dynamicToolsKeepTheirNameAndKind() throws {
        let feed = try Feed([
            #"{"type":"tool-input-start","toolCallId":"d","toolName":"mcp_x","dynamic":true}"#,
            #"{"type":"tool-input-delta","toolCallId":"d","inputTextDelta":"[1,"}"#,
            #"{"type":"tool-input-error","toolCallId":"d","toolName":"mcp_x","input":[1],"errorText":"no"}"#,
        ])
        #expect(feed.parts == #"{"type":"dynamic-tool","toolName":"mcp_x","toolCallId":"d","state":"output-error","input":[1],"errorText":"no"}"#)
        let output = try Feed([
            #"{"type":"tool-input-available","toolCallId":"d","toolName":"mcp_x","input":{},"dynamic":true}"#,
            #"{"type":"tool-output-available","toolCallId":"d","output":{"ok":true}}"#,
        ])
        #expect(output.parts == #"{"type":"dynamic-tool","toolName":"mcp_x","toolCallId":"d","state":"output-available","input":{},"output":{"ok":true}}"#)
    }

    @Test func providerMetadataGoesToCallOrResultMetadata() throws {
        let feed = try Feed([
            #"{"type":"tool-input-start","toolCallId":"c","toolName":"t","providerMetadata":{"p":{"call":1}}}"#,
            #"{"type":"tool-input-available","toolCallId":"c","toolName":"t","input":{},"providerExecuted":true}"#,
            #"{"type":"tool-output-available","toolCallId":"c","output":1,"providerMetadata":{"p":{"result":1}}}"#,
        ])
        #expect(feed.parts == #"{"type":"tool-t","toolCallId":"c","state":"output-available","input":{},"output":1,"providerExecuted":true,"callProviderMetadata":{"p":{"call":1}},"resultProviderMetadata":{"p":{"result":1}}}"#)
    }

    @Test func aFinalOutputDropsPreliminary() throws {
        var feed = try Feed([
            #"{"type":"tool-input-available","toolCallId":"c","toolName":"t","input":{}}"#,
            #"{"type":"tool-output-available","toolCallId":"c","output":"partial","preliminary":true}"#,
        ])
        #expect(feed.parts == #"{"type":"tool-t","toolCallId":"c","state":"output-available","input":{},"output":"partial","preliminary":true}"#)
        try feed.apply([#"{"type":"tool-output-available","toolCallId":"c","output":"all"}"#])
        #expect(feed.parts == #"{"type":"tool-t","toolCallId":"c","state":"output-available","input":{},"output":"all"}"#)
    }

    @Test func approvalsRequestRespondAndDeny() throws {
        var feed = try Feed([
            #"{"type":"tool-input-available","toolCallId":"c","toolName":"delete_page","input":{"id":1}}"#,
            #"{"type":"tool-approval-request","approvalId":"a1","toolCallId":"c","signature":"sig"}"#,
        ])
        #expect(feed.parts == #"{"type":"tool-delete_page","toolCallId":"c","state":"approval-requested","input":{"id":1},"approval":{"id":"a1","signature":"sig"}}"#)
        try feed.apply([#"{"type":"tool-approval-response","approvalId":"a1","approved":false,"reason":"not now"}"#])
        #expect(feed.parts == #"{"type":"tool-delete_page","toolCallId":"c","state":"approval-responded","input":{"id":1},"approval":{"id":"a1","approved":false,"reason":"not now","signature":"sig"}}"#)
        try feed.apply([#"{"type":"tool-output-denied","toolCallId":"c"}"#])
        #expect(feed.parts == #"{"type":"tool-delete_page","toolCallId":"c","state":"output-denied","input":{"id":1},"approval":{"id":"a1","approved":false,"reason":"not now","signature":"sig"}}"#)
    }

    @Test func outputsFindTheirCallInEarlierSteps() throws {
        let feed = try Feed([
            #"{"type":"start-step"}"#, #"{"type":"tool-input-available","toolCallId":"c","toolName":"t","input":{}}"#,
            #"{"type":"finish-step"}"#, #"{"type":"start-step"}"#,
            #"{"type":"tool-output-available","toolCallId":"c","output":{"b":1,"10":2,"2":3}}"#,
        ])
        #expect(feed.parts == #"{"type":"step-start"},{"type":"tool-t","toolCallId":"c","state":"output-available","input":{},"output":{"2":3,"10":2,"b":1}},{"type":"step-start"}"#)
        #expect(feed.changes.last == [.partChanged(1)])
    }

    @Test func appendsSourcesFilesAndCustomParts() throws {
        let feed = try Feed([
            #"{"type":"source-url","sourceId":"s1","url":"https://example.com","title":"Example"}"#,
            #"{"type":"source-document","sourceId":"s2","mediaType":"application/pdf","title":"Doc","filename":"d.pdf","providerMetadata":{"p":{}}}"#,
            #"{"type":"file","url":"data:image/png;base64,AA==","mediaType":"image/png"}"#,
            #"{"type":"reasoning-file","url":"https://x/y.png","mediaType":"image/png","providerMetadata":{"p":{"a":1}}}"#,
            #"{"type":"custom","kind":"acme.chart"}"#,
        ])
        #expect(feed.parts == [
            #"{"type":"source-url","sourceId":"s1","url":"https://example.com","title":"Example"}"#,
            #"{"type":"source-document","sourceId":"s2","mediaType":"application/pdf","title":"Doc","filename":"d.pdf","providerMetadata":{"p":{}}}"#,
            #"{"type":"file","mediaType":"image/png","url":"data:image/png;base64,AA=="}"#,
            #"{"type":"reasoning-file","mediaType":"image/png","url":"https://x/y.png","providerMetadata":{"p":{"a":1}}}"#,
            #"{"type":"custom","kind":"acme.chart"}"#,
        ].joined(separator: ","))
    }

    @Test func dataPartsAppendReplaceInPlaceAndSkipTransient() throws {
        let feed = try Feed([
            #"{"data":{"step":1},"id":"d1","type":"data-status"}"#,
            #"{"type":"text-start","id":"t"}"#,
            #"{"type":"data-status","id":"d1","data":{"step":2}}"#,
            #"{"type":"data-status","id":"d2","data":"x","transient":false}"#,
            #"{"type":"data-other","id":"d1","data":null}"#,
            #"{"type":"data-status","id":"d1","data":"gone","transient":true}"#,
            #"{"type":"data-status","data":1}"#,
        ])
        #expect(feed.parts == #"{"type":"data-status","id":"d1","data":{"step":2}},{"type":"text","text":"","state":"streaming"},{"type":"data-status","id":"d2","data":"x","transient":false},{"type":"data-other","id":"d1","data":null},{"type":"data-status","data":1}"#)
        #expect(feed.changes[2] == [.partChanged(0)])
        #expect(feed.changes[5] == [])
    }

    @Test func errorAndAbortLeaveTheMessageAsItIs() throws {
        let feed = try Feed([
            #"{"type":"text-start","id":"t"}"#,
            #"{"type":"error","errorText":"rate limited"}"#,
            #"{"type":"abort","reason":"user"}"#,
            #"{"type":"abort"}"#,
        ])
        #expect(feed.outcomes == [.applied, .streamError("rate limited"), .aborted("user"), .aborted(nil)])
        #expect(feed.parts == #"{"type":"text","text":"","state":"streaming"}"#)
    }

    @Test func refusesWhatTheSDKRefuses() {
        #expect(malformed([#"{"type":"text-delta","id":"nope","delta":"x"}"#])?.contains("\"nope\"") == true)
        #expect(malformed([#"{"type":"reasoning-end","id":"r"}"#]) != nil)
        #expect(malformed([#"{"type":"tool-output-available","toolCallId":"ghost","output":1}"#]) == #"no tool call "ghost" in the message"#)
        #expect(malformed([#"{"type":"tool-approval-response","approvalId":"a","approved":true}"#]) != nil)
        #expect(malformed([#"{"type":"text-start","id":"t"}"#, #"{"type":"text-delta","id":"t"}"#]) == #"text-delta chunk without "delta""#)
        #expect(malformed([#"{"type":"text-start","id":"t","providerMetadata":null}"#]) != nil)
        #expect(malformed([#"{"type":"finish","finishReason":"bored"}"#]) != nil)
        #expect(malformed([#"{"type":"teleport"}"#]) == #"unknown chunk type "teleport""#)
        #expect(malformed([#"{"type":"source-url","sourceId":"s","url":"u","title":null}"#]) != nil)
    }

    @Test func longTextIsAppendedInPlace() throws {
        var assembler = MessageAssembler()
        var changes: [MessageChange] = []
        _ = try assembler.apply(JSONObject([("type", "text-start"), ("id", "t")]), changes: &changes)
        let delta = JSONObject([("type", "text-delta"), ("id", "t"), ("delta", "0123456789")])
        for _ in 0..<100_000 {
            changes.removeAll(keepingCapacity: true)
            _ = try assembler.apply(delta, changes: &changes)
        }
        #expect(assembler.parts[0]["text"]?.stringValue?.utf8.count == 1_000_000)
    }
}
