/// The Gemini mobile API's named events (SSE `event:` names): `token {text}`, `thought {text}`
/// (reasoning), `tool-call {toolName,args,status}`, `tool-result {toolName,result,status}`,
/// `done {fullResponse,usage}`, `error {code,message}`. Calls carry no id, so each gets one
/// ("gemini-call-1", …) and a result goes to the oldest unanswered call of the same tool.
struct GeminiEventFormat: Sendable {
    static let names: Set<String> = ["token", "thought", "tool-call", "tool-result", "done", "error"]

    var runs = TextRuns()
    private var callCount = 0
    private var pending: [String: [String]] = [:]

    /// The UI chunks for one event, and whether it ends the message (`done`).
    mutating func translate(event: String, data: JSONObject) throws -> (chunks: [JSONObject], ends: Bool) {
        let fields = ChunkFields(data, type: "\(event) event")
        switch event {
        case "token": return (runs.piece("text", try fields.string("text")), false)
        case "thought": return (runs.piece("reasoning", try fields.string("text")), false)
        case "tool-call":
            let toolName = try fields.string("toolName")
            callCount += 1
            let id = "gemini-call-\(callCount)"
            pending[toolName, default: []].append(id)
            var chunk = JSONObject()
            chunk["type"] = "tool-input-available"
            chunk["toolCallId"] = .string(id)
            chunk["toolName"] = .string(toolName)
            chunk["input"] = data["args"]
            return (runs.close() + [chunk], false)
        case "tool-result":
            let toolName = try fields.string("toolName")
            guard var ids = pending[toolName], !ids.isEmpty else {
                throw MalformedChunk("tool-result event for \(toolName), which has no earlier tool-call")
            }
            let id = ids.removeFirst()
            pending[toolName] = ids
            var chunk = JSONObject()
            chunk["toolCallId"] = .string(id)
            let status = data["status"]?.stringValue ?? ""
            if status == "error" || status == "failed" {
                chunk["type"] = "tool-output-error"
                let result = data["result"] ?? .null
                chunk["errorText"] = .string(result.stringValue ?? result.serialized())
            } else {
                chunk["type"] = "tool-output-available"
                chunk["output"] = data["result"]
            }
            return (runs.close() + [chunk], false)
        case "done":
            var chunk = JSONObject()
            chunk["type"] = "finish"
            if let usage = data["usage"] { chunk["messageMetadata"] = ["usage": usage] }
            return (runs.close() + [chunk], true)
        case "error":
            let message = data["message"]?.stringValue ?? "error"
            let text = data["code"].map { "\(message) (\($0.stringValue ?? $0.serialized()))" } ?? message
            return (runs.close() + [JSONObject([("type", "error"), ("errorText", .string(text))])], false)
        default:
            throw MalformedChunk("unknown event \"\(event)\"")
        }
    }
}
