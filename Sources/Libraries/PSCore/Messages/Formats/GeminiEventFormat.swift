/// The Gemini mobile API's named events (SSE `event:` names; packages/mobile-api
/// src/sessions/sessionManager.ts:248-314 at 1fabb479): `token {text}`, `thought {text}`
/// (reasoning; the real server's `text` is gemini-cli's ThoughtSummary `{subject,
/// description}`, shown as the subject in bold, then the description), `tool-call
/// {toolName,args,status}`, `tool-result {toolName,result,status}`, `done {fullResponse,usage}`,
/// `error {code?,message}` (in GeminiStreamError's words). Calls carry no id, so each gets one
/// ("gemini-call-1", …) and a result goes to the oldest unanswered call of the same tool.
///
/// Leniencies, so that nothing a server sends is lost: a thought's text may be a string, or
/// `{subject, description}` may be the data itself; a call may name its tool `name` and its input `arguments` (the
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
        case "thought":
            var text = try Self.thought(data, fields)
            // A summary is a whole thought: the next one is a paragraph of its own.
            if data["text"]?.stringValue == nil, runs.openKind == "reasoning", !text.isEmpty { text = "\n\n" + text }
            return (runs.piece("reasoning", text), false)
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
            let message = data["message"]?.stringValue ?? data["error"]?.stringValue ?? ""
            let code = data["code"].flatMap { $0 == .null ? nil : ($0.stringValue ?? $0.serialized()) }
            let text = GeminiStreamError.words(code: code, message: message)
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

    /// `{text: {subject, description}}` (the real server's: gemini-cli's ThoughtSummary under
    /// `text`), `{text}`, or `{subject, description}`.
    private static func thought(_ data: JSONObject, _ fields: ChunkFields) throws -> String {
        if let summary = data["text"]?.objectValue { return summaryText(summary) }
        if data["text"] == nil, data["subject"] != nil || data["description"] != nil { return summaryText(data) }
        return try fields.string("text")
    }

    /// The subject in bold, then the description.
    private static func summaryText(_ summary: JSONObject) -> String {
        let subject = summary["subject"]?.stringValue ?? "", description = summary["description"]?.stringValue ?? ""
        if subject.isEmpty { return description }
        return description.isEmpty ? "**\(subject)**" : "**\(subject)** \(description)"
    }
}

/// What the Gemini mobile API's `error` events mean (packages/mobile-api at 1fabb479), in
/// words and as an exit status:
/// - `STREAM_ERROR` after a tool call: the session manager calls `scheduleAgentTools` without
///   the tool registry it needs (src/sessions/sessionManager.ts:200-207), so every tool call
///   throws ("Cannot read properties of undefined (reading 'getTool')") and no tool-result
///   comes: the server cannot run tools (exit 8).
/// - `MODEL_ERROR`: the model's error, written with `String(event.value)` (sessionManager.ts:303-307),
///   which makes an object "[object Object]": the server gave no reason (exit 8).
/// - `INTERNAL_ERROR` "Conversation ID not found" (src/routes/conversations.ts:139-147): the
///   server forgot the conversation, as it does after 30 minutes without use (exit 6).
/// - "Access denied": another user's conversation (exit 5).
public enum GeminiStreamError {
    /// The error event's meaning in one line.
    public static func words(code: String?, message: String) -> String {
        let given = trimmed(message)
        if code == "STREAM_ERROR" && (given.contains("getTool") || given.contains("tool registry")) {
            return "the Gemini server cannot run tools: it calls its tool scheduler without a tool registry, so the "
                + "tool call failed and no tool result came (STREAM_ERROR: \(given))"
        }
        if given.isEmpty || given == "[object Object]" {
            return "the server gave no reason" + (code.map { " (\($0))" } ?? "")
        }
        if isForgottenConversation(given) {
            return "the server no longer has this conversation (\(given)): it forgets a conversation after 30 minutes "
                + "without use; --new-conversation starts another"
        }
        return code.map { "\(given) (\($0))" } ?? given
    }

    /// The error for ps-send to exit with.
    public static func toolError(code: String?, message: String) -> ToolError {
        let given = trimmed(message)
        let text = words(code: code, message: message)
        if isForgottenConversation(given) { return ToolError(.notFound, text) }
        if given == "Access denied" { return ToolError(.forbidden, "the server refused the conversation: Access denied") }
        if code == "STREAM_ERROR" || code == "MODEL_ERROR" || code == "INTERNAL_ERROR" {
            return ToolError(.serverError, text + "; what arrived was written")
        }
        return ToolError(.incomplete, "the server sent an error: " + text + "; what arrived was written")
    }

    private static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// "Conversation 3f2a… not found" (sessionManager.ts:371-375).
    private static func isForgottenConversation(_ message: String) -> Bool {
        message.hasPrefix("Conversation ") && message.hasSuffix(" not found")
    }
}
