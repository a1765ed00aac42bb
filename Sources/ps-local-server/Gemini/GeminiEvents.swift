import PSCore

/// A reply as the Gemini mobile API streams it (the session manager's events): `token {text}`,
/// `thought {text}`, `tool-call {toolName, args, status:"running"}`, `tool-result {toolName,
/// result, status:"completed"}` (the tool's output as text, as gemini-cli's tools return it),
/// then `done {fullResponse, usage:{inputTokens, outputTokens}}`. Each event is kept as
/// `{"event": name, "data": {...}}` until it is written.
struct GeminiEvents {
    /// Tokens of everything the model is sent (the whole conversation, the new message last).
    let inputTokens: Int

    func events(for segments: [ReplySegment]) -> [JSON] {
        var out: [JSON] = []
        for segment in segments {
            switch segment {
            case .reasoning(let text):
                out += ChunkScript.textPieces(text).map { Self.event("thought", ["text": .string($0)]) }
            case .text(let text):
                out += ChunkScript.textPieces(text).map { Self.event("token", ["text": .string($0)]) }
            case .tool(let call):
                out.append(Self.event("tool-call", ["toolName": .string(call.name), "args": call.input, "status": "running"]))
                out.append(Self.event("tool-result", [
                    "toolName": .string(call.name), "result": .string(call.output.serialized()), "status": "completed",
                ]))
            }
        }
        out.append(Self.event("done", ["fullResponse": .string(Self.fullResponse(segments)), "usage": usage(segments)]))
        return out
    }

    func usage(_ segments: [ReplySegment]) -> JSON {
        let output = segments.reduce(0) { total, segment in
            switch segment {
            case .reasoning(let text), .text(let text): return total + OpenAIChunks.tokens(text)
            case .tool(let call): return total + OpenAIChunks.tokens(call.name) + OpenAIChunks.tokens(call.input.serialized())
            }
        }
        return ["inputTokens": .integer(Int64(inputTokens)), "outputTokens": .integer(Int64(output))]
    }

    static func fullResponse(_ segments: [ReplySegment]) -> String {
        segments.compactMap { if case .text(let text) = $0 { return text } else { return nil } }.joined()
    }

    static func event(_ name: String, _ data: JSON) -> JSON { ["event": .string(name), "data": data] }

    /// `event: NAME\ndata: JSON\n\n`, as the route writes each event.
    static func wireBytes(_ name: String, _ data: JSON) -> [UInt8] {
        var bytes = Array("event: \(name)\ndata: ".utf8)
        data.write(to: &bytes)
        bytes += [10, 10]
        return bytes
    }
}

/// Follows the events of one turn as they are sent, and makes the messages the conversation
/// keeps of it: the thoughts (role thought, as the app keeps them), then the assistant's
/// message with its tool calls and, once `done` came, its token usage. What an aborted turn
/// sent is kept as well.
struct GeminiTurnRecorder {
    private var thoughts = ""
    private var content = ""
    private var toolCalls: [JSONObject] = []
    private var usage: JSON?

    mutating func apply(_ event: JSON) {
        let data = event["data"] ?? .null
        switch event["event"]?.stringValue {
        case "thought": thoughts += data["text"]?.stringValue ?? ""
        case "token": content += data["text"]?.stringValue ?? ""
        case "tool-call":
            toolCalls.append(JSONObject([
                ("name", data["toolName"] ?? ""), ("arguments", data["args"] ?? .object(JSONObject())),
                ("status", "running"), ("result", .null),
            ]))
        case "tool-result":
            let name = data["toolName"]
            if let index = toolCalls.firstIndex(where: { $0["name"] == name && $0["status"] == "running" }) {
                toolCalls[index]["status"] = data["status"] ?? "completed"
                toolCalls[index]["result"] = data["result"] ?? .null
            }
        case "done": usage = data["usage"]
        default: break
        }
    }

    var isEmpty: Bool { thoughts.isEmpty && content.isEmpty && toolCalls.isEmpty }

    /// The messages to store, created at `createdAt` (milliseconds).
    func messages(createdAt: Int64) -> [JSON] {
        var out: [JSON] = []
        if !thoughts.isEmpty { out.append(Self.message(role: "thought", content: thoughts, createdAt: createdAt)) }
        guard !content.isEmpty || !toolCalls.isEmpty else { return out }
        var reply = Self.message(role: "assistant", content: content, createdAt: createdAt).objectValue!
        if !toolCalls.isEmpty { reply["toolCalls"] = .array(toolCalls.map(JSON.object)) }
        if let usage { reply["tokenUsage"] = usage }
        out.append(.object(reply))
        return out
    }

    static func message(role: String, content: String, createdAt: Int64) -> JSON {
        [
            "id": .string(Identifiers.random(prefix: "msg_", bytes: 10)), "role": .string(role),
            "content": .string(content), "createdAt": .string(Timestamp.iso8601(createdAt)),
        ]
    }
}
