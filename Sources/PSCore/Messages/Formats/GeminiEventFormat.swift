/// The Gemini mobile API's named events (SSE `event:` names): `token {text}`, `thought {text}`
/// (reasoning), `tool-call {toolName,args,status}`, `tool-result {toolName,result,status}`,
/// `done {fullResponse,usage}`, `error {code?,message}`. Calls carry no id, so each gets one
/// ("gemini-call-1", …) and a result goes to the oldest unanswered call of the same tool.
///
/// Leniencies, so that nothing a server sends is lost: a thought may come as gemini-cli's
/// `{subject, description}`; a call may name its tool `name` and its input `arguments` (the
/// app's ToolCallInfo); a call without input has `{}`; a result with no call before it opens
/// its own call; a `done` whose `fullResponse` came in no `token` gives that text.
struct GeminiEventFormat: Sendable {
    static let names: Set<String> = ["token", "thought", "tool-call", "tool-result", "done", "error"]

    var runs = TextRuns()
    private var callCount = 0
    private var pending: [String: [String]] = [:]
    private var sawText = false

    /// The UI chunks for one event, and whether it ends the message (`done`).
    mutating func translate(event: String, data: JSONObject) throws -> (chunks: [JSONObject], ends: Bool) {
        let fields = ChunkFields(data, type: "\(event) event")
        switch event {
        case "token":
            let text = try fields.string("text")
            sawText = sawText || !text.isEmpty
            return (runs.piece("text", text), false)
        case "thought": return (runs.piece("reasoning", try Self.thought(data, fields)), false)
        case "tool-call":
            let toolName = try Self.toolName(data, fields)
            return (runs.close() + [openCall(toolName, input: data["args"] ?? data["arguments"])], false)
        case "tool-result":
            let toolName = try Self.toolName(data, fields)
            var chunks = runs.close()
            if pending[toolName]?.isEmpty != false { chunks.append(openCall(toolName, input: nil)) }
            let id = pending[toolName]!.removeFirst()
            var chunk = JSONObject()
            chunk["toolCallId"] = .string(id)
            let status = data["status"]?.stringValue ?? ""
            if status == "error" || status == "failed" {
                chunk["type"] = "tool-output-error"
                let result = data["result"] ?? data["error"] ?? .null
                chunk["errorText"] = .string(result.stringValue ?? result.serialized())
            } else {
                chunk["type"] = "tool-output-available"
                chunk["output"] = data["result"] ?? .null
            }
            return (chunks + [chunk], false)
        case "done":
            var chunks: [JSONObject] = []
            if !sawText, let full = data["fullResponse"]?.stringValue, !full.isEmpty { chunks += runs.piece("text", full) }
            var chunk = JSONObject()
            chunk["type"] = "finish"
            if let usage = data["usage"], usage.objectValue != nil { chunk["messageMetadata"] = ["usage": usage] }
            return (chunks + runs.close() + [chunk], true)
        case "error":
            let message = data["message"]?.stringValue ?? data["error"]?.stringValue ?? "the server reported an error"
            let code = data["code"].flatMap { $0 == .null ? nil : ($0.stringValue ?? $0.serialized()) }
            let text = code.map { "\(message) (\($0))" } ?? message
            return (runs.close() + [JSONObject([("type", "error"), ("errorText", .string(text))])], false)
        default:
            throw MalformedChunk("unknown event \"\(event)\"")
        }
    }

    /// A call the stream opens: its id, kept until its result comes.
    private mutating func openCall(_ toolName: String, input: JSON?) -> JSONObject {
        callCount += 1
        let id = "gemini-call-\(callCount)"
        pending[toolName, default: []].append(id)
        var chunk = JSONObject()
        chunk["type"] = "tool-input-available"
        chunk["toolCallId"] = .string(id)
        chunk["toolName"] = .string(toolName)
        chunk["input"] = input.flatMap { $0 == .null ? nil : $0 } ?? .object(JSONObject())
        return chunk
    }

    private static func toolName(_ data: JSONObject, _ fields: ChunkFields) throws -> String {
        if let name = data["name"]?.stringValue, data["toolName"] == nil { return name }
        return try fields.string("toolName")
    }

    /// `{text}`, or gemini-cli's ThoughtSummary `{subject, description}`.
    private static func thought(_ data: JSONObject, _ fields: ChunkFields) throws -> String {
        if data["text"] == nil, data["subject"] != nil || data["description"] != nil {
            let subject = data["subject"]?.stringValue ?? "", description = data["description"]?.stringValue ?? ""
            if subject.isEmpty { return description }
            return description.isEmpty ? "**\(subject)**" : "**\(subject)** \(description)"
        }
        return try fields.string("text")
    }
}
