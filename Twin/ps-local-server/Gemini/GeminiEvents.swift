import Foundation
import PSCore

/// A reply as the Gemini mobile API streams it (packages/mobile-api
/// src/sessions/sessionManager.ts:139-314 at 1fabb479): `token {text}`, `thought {text:
/// {subject, description}}` (gemini-cli's ThoughtSummary, sessionManager.ts:262-267),
/// `tool-call {toolName, args, status:"running"}` (269-290), then `done {fullResponse,
/// usage:{inputTokens, outputTokens}}` (223-230). Each event is kept as `{"event": name,
/// "data": {...}}` until it is written.
///
/// Tool calls: the real session manager calls `scheduleAgentTools` without the tool registry it
/// needs (sessionManager.ts:200-207, packages/core/src/agents/agent-scheduler.ts:56-57 and
/// src/scheduler/scheduler.ts:272-279), so the first tool call of a reply throws: an `error
/// {code:"STREAM_ERROR"}` event, then `done` with the text so far; no `tool-result` is ever
/// sent. `runsTools` (ps-local-server --gemini-runs-tools) gives the flow a server with its
/// registry would have: `tool-result {toolName, result, status:"completed"}` (292-301) and the
/// rest of the reply.
struct GeminiEvents {
    /// Tokens of everything the model is sent (the whole conversation, the new message last).
    let inputTokens: Int
    var runsTools = false

    /// What `String(undefined.getTool)` throws in the scheduler.
    static let schedulerFailure = "Cannot read properties of undefined (reading 'getTool')"

    func events(for segments: [ReplySegment]) -> [JSON] {
        var out: [JSON] = []
        var sent: [ReplySegment] = []
        var index = 0
        while index < segments.count {
            let segment = segments[index]
            sent.append(segment)
            switch segment {
            case .reasoning(let text):
                out.append(Self.event("thought", ["text": Self.thoughtSummary(text)]))
            case .text(let text):
                out += ChunkScript.textPieces(text).map { Self.event("token", ["text": .string($0)]) }
            case .tool(let call):
                out.append(Self.event("tool-call", ["toolName": .string(call.name), "args": call.input, "status": "running"]))
                if runsTools {
                    out.append(Self.event("tool-result", [
                        "toolName": .string(call.name), "result": .string(call.output.serialized()), "status": "completed",
                    ]))
                } else if index + 1 >= segments.count || !Self.isTool(segments[index + 1]) {
                    // The model's turn ended with its calls: the scheduler throws.
                    out.append(Self.event("error", ["code": "STREAM_ERROR", "message": .string(Self.schedulerFailure)]))
                    index = segments.count
                    continue
                }
            }
            index += 1
        }
        out.append(Self.event("done", ["fullResponse": .string(Self.fullResponse(sent)), "usage": usage(sent)]))
        return out
    }

    private static func isTool(_ segment: ReplySegment) -> Bool {
        if case .tool = segment { return true }
        return false
    }

    /// gemini-cli's parseThought makes `{subject, description}` of a thought; here the first
    /// sentence is the subject and the rest the description.
    static func thoughtSummary(_ text: String) -> JSON {
        guard let end = text.range(of: ". ") else { return ["subject": .string(text), "description": ""] }
        return ["subject": .string(String(text[..<end.lowerBound])),
                "description": .string(String(text[end.upperBound...]))]
    }

    /// The usage `done` reports: the turn's last model call's (each Finished event's
    /// usageMetadata replaces the one before, sessionManager.ts:183-191). A call ends with
    /// the tool calls it asks for; the next one's prompt adds what it said and its tools'
    /// results. Its output is its text and calls: candidatesTokenCount leaves thoughts out.
    func usage(_ segments: [ReplySegment]) -> JSON {
        var calls: [[ReplySegment]] = [[]]
        for (index, segment) in segments.enumerated() {
            if index > 0, Self.isTool(segments[index - 1]), !Self.isTool(segment) { calls.append([]) }
            calls[calls.count - 1].append(segment)
        }
        func said(_ call: [ReplySegment]) -> Int {
            call.reduce(0) { total, segment in
                switch segment {
                case .reasoning: return total
                case .text(let text): return total + OpenAIChunks.tokens(text)
                case .tool(let call): return total + OpenAIChunks.tokens(call.name) + OpenAIChunks.tokens(call.input.serialized())
                }
            }
        }
        func results(_ call: [ReplySegment]) -> Int {
            call.reduce(0) { total, segment in
                if case .tool(let call) = segment { return total + OpenAIChunks.tokens(call.output.serialized()) }
                return total
            }
        }
        let prompt = calls.dropLast().reduce(inputTokens) { $0 + said($1) + results($1) }
        return ["inputTokens": .integer(Int64(prompt)), "outputTokens": .integer(Int64(said(calls.last!)))]
    }

    static func fullResponse(_ segments: [ReplySegment]) -> String {
        segments.compactMap { if case .text(let text) = $0 { return text } else { return nil } }.joined()
    }

    static func event(_ name: String, _ data: JSON) -> JSON { ["event": .string(name), "data": data] }

    /// `event: NAME\ndata: JSON\n\n`, as the route writes each event (conversations.ts:136).
    static func wireBytes(_ name: String, _ data: JSON) -> [UInt8] {
        var bytes = Array("event: \(name)\ndata: ".utf8)
        data.write(to: &bytes)
        bytes += [10, 10]
        return bytes
    }
}

/// Follows the events of one turn as they are sent, and makes the assistant's message the
/// conversation keeps of it (sessionManager.ts:232-240): `{id, role:"assistant", content:
/// the text, createdAt, tokenUsage}`, also when the turn failed or was cancelled (usage 0 then:
/// the model's Finished event never came). Thoughts and tool calls are not kept.
struct GeminiTurnRecorder {
    private(set) var content = ""
    private var usage: JSON?

    mutating func apply(_ event: JSON) {
        let data = event["data"] ?? .null
        switch event["event"]?.stringValue {
        case "token": content += data["text"]?.stringValue ?? ""
        case "done": usage = data["usage"]
        default: break
        }
    }

    func message(createdAt: Int64) -> JSON {
        var reply = Self.message(role: "assistant", content: content, createdAt: createdAt).objectValue!
        reply["tokenUsage"] = usage ?? ["inputTokens": 0, "outputTokens": 0]
        return .object(reply)
    }

    static func message(role: String, content: String, createdAt: Int64) -> JSON {
        [
            "id": .string(UUID().uuidString.lowercased()), "role": .string(role),
            "content": .string(content), "createdAt": .string(Timestamp.iso8601(createdAt)),
        ]
    }
}
