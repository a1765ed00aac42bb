import PSCore

/// The body of `POST /api/v1/chat/completions`, checked and normalized as
/// apps/web/src/lib/ai/openai-api/validate-inference-request.ts does: `model` names the
/// agent page (`ps-agent://<pageId>`), OpenAI messages become UIMessages, and every refusal
/// is a 400 with that file's exact `error` text.
struct InferenceRequest {
    /// A normalized message: role and UIMessage parts (id as sent, nil when the client gave none).
    struct Message {
        let id: String?
        let role: String
        let parts: [JSON]
    }

    let pageID: String
    let model: String
    private(set) var messages: [Message]
    let conversationID: String?
    let disableServerTools: Bool
    let clientManagesHistory: Bool
    /// The names of the caller's own tools (`tools`), which the server returns as tool_calls
    /// for the caller to run (route.ts:84-95).
    let clientToolNames: [String]

    static let agentModelPrefix = "ps-agent://"
    static let validRoles: Set<String> = ["user", "assistant", "system", "tool"]

    init(_ body: JSON) throws {
        guard body.objectValue != nil else { throw Refusal.badRequest("request body must be a JSON object") }
        guard let model = body["model"]?.stringValue, !model.isEmpty else { throw Refusal.badRequest("model is required") }
        guard model.hasPrefix(Self.agentModelPrefix), model.count > Self.agentModelPrefix.count else {
            throw Refusal.badRequest("unsupported model format — use ps-agent://<pageId>")
        }
        if body["stream"]?.boolValue == false {
            throw Refusal.badRequest("non-streaming responses not supported in v1")
        }
        guard let raw = body["messages"]?.arrayValue, !raw.isEmpty else {
            throw Refusal.badRequest("messages must be a non-empty array")
        }
        for message in raw {
            guard message.objectValue != nil else { throw Refusal.badRequest("each message must be an object") }
            guard let role = message["role"]?.stringValue, Self.validRoles.contains(role) else {
                throw Refusal.badRequest("each message role must be one of: user, assistant, system, tool")
            }
        }
        let normalized = try Self.normalize(raw)
        guard normalized.allSatisfy({ !$0.parts.isEmpty }) else {
            throw Refusal.badRequest("each message must have non-empty content")
        }
        if let tools = body["tools"] { try Self.checkTools(tools) }

        self.model = model
        pageID = String(model.dropFirst(Self.agentModelPrefix.count))
        messages = normalized
        let trimmed = body["conversation_id"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines)
        conversationID = trimmed.flatMap { $0.isEmpty ? nil : $0 }
        disableServerTools = body["disable_server_tools"]?.boolValue == true
        clientManagesHistory = body["client_manages_history"]?.boolValue == true
        clientToolNames = (body["tools"]?.arrayValue ?? []).compactMap { $0["function"]?["name"]?.stringValue }
    }

    /// The assistant messages since the newest user message: the client-tool steps answered.
    private var sinceQuestion: ArraySlice<Message> {
        messages.suffix(from: (messages.lastIndex { $0.role == "user" } ?? -1) + 1)
    }

    var toolStepsDone: Int {
        sinceQuestion.filter { $0.role == "assistant" && $0.parts.contains { $0["toolCallId"] != nil } }.count
    }

    /// The results those steps carried back (normalizeMessages made them tool parts' outputs).
    var toolResults: [ToolScript.Result] {
        sinceQuestion.flatMap(\.parts).compactMap { part in
            guard let type = part["type"]?.stringValue, type.hasPrefix("tool-"), let output = part["output"] else { return nil }
            return ToolScript.Result(name: String(type.dropFirst(5)), content: output.stringValue ?? output.serialized())
        }
    }

    /// What the model is given in a conversation the server keeps (a conversation_id without
    /// client_manages_history): the conversation's stored messages and the request's last
    /// message, nothing else of the request (route.ts: `[...dbMessages, userMessage]`).
    func threaded(history: [StoredMessage]) -> InferenceRequest {
        var copy = self
        copy.messages = history.map { Message(id: $0.id, role: $0.role, parts: $0.parts) } + messages.suffix(1)
        return copy
    }

    /// The text the caller's system messages add to the agent's system prompt.
    var systemText: String {
        messages.filter { $0.role == "system" }.map { Self.text(of: $0.parts) }.filter { !$0.isEmpty }
            .joined(separator: "\n\n")
    }

    /// The words the reply answers: the newest user message's text.
    var question: String {
        messages.last { $0.role == "user" }.map { Self.text(of: $0.parts) } ?? ""
    }

    static func text(of parts: [JSON]) -> String {
        parts.compactMap { $0["type"]?.stringValue == "text" ? $0["text"]?.stringValue : nil }.joined(separator: "\n")
    }

    /// normalizeMessages: an assistant message with `tool_calls` and the `role:tool` messages
    /// after it become one assistant message with tool parts; a lone `role:tool` message is
    /// skipped; `content` (string or parts) becomes text and file parts.
    private static func normalize(_ raw: [JSON]) throws -> [Message] {
        var result: [Message] = []
        var index = 0
        while index < raw.count {
            let message = raw[index]
            let role = message["role"]?.stringValue ?? ""
            if role == "assistant", let calls = message["tool_calls"]?.arrayValue, !calls.isEmpty {
                var next = index + 1
                var results: [String: String] = [:]
                while next < raw.count, raw[next]["role"]?.stringValue == "tool" {
                    if let callID = raw[next]["tool_call_id"]?.stringValue {
                        results[callID] = raw[next]["content"]?.stringValue ?? ""
                    }
                    next += 1
                }
                result.append(Message(
                    id: message["id"]?.stringValue, role: "assistant",
                    parts: try toolCallParts(message, calls: calls, results: results)))
                index = next
                continue
            }
            index += 1
            if role == "tool" { continue }
            result.append(Message(id: message["id"]?.stringValue, role: role, parts: try contentParts(message)))
        }
        return result
    }

    private static func toolCallParts(_ message: JSON, calls: [JSON], results: [String: String]) throws -> [JSON] {
        for (index, call) in calls.enumerated() {
            guard call["id"]?.stringValue != nil, call["function"]?["name"]?.stringValue != nil,
                call["function"]?["arguments"]?.stringValue != nil
            else {
                throw Refusal.badRequest(
                    "tool_calls[\(index)] must have id (string), function.name (string), and function.arguments (string)")
            }
        }
        var parts: [JSON] = []
        if let text = message["content"]?.stringValue, !text.isEmpty {
            parts.append(["type": "text", "text": .string(text)])
        } else if let items = message["content"]?.arrayValue {
            for item in items where item["type"]?.stringValue == "text" {
                if let text = item["text"]?.stringValue, !text.isEmpty { parts.append(["type": "text", "text": .string(text)]) }
            }
        }
        for call in calls {
            let id = call["id"]?.stringValue ?? "", name = call["function"]?["name"]?.stringValue ?? ""
            let input = (try? JSON.parse(call["function"]?["arguments"]?.stringValue ?? "")) ?? [:]
            var part = JSONObject([
                ("type", .string("tool-" + name)), ("toolCallId", .string(id)), ("toolName", .string(name)),
                ("input", input),
            ])
            if let output = results[id] {
                part["state"] = "output-available"
                part["output"] = .string(output)
            } else {
                part["state"] = "input-available"
            }
            parts.append(.object(part))
        }
        return parts
    }

    /// normalizeMessage: pre-built `parts` pass through; a string becomes one text part; an
    /// array keeps its text parts and turns `image_url` parts into file parts (data: URLs only).
    private static func contentParts(_ message: JSON) throws -> [JSON] {
        if let parts = message["parts"]?.arrayValue { return parts }
        if let text = message["content"]?.stringValue { return [["type": "text", "text": .string(text)]] }
        guard let items = message["content"]?.arrayValue else { return [] }
        var parts: [JSON] = []
        for item in items {
            if item["type"]?.stringValue == "text", let text = item["text"]?.stringValue {
                parts.append(["type": "text", "text": .string(text)])
            } else if item["type"]?.stringValue == "image_url" {
                parts.append(try filePart(item))
            }
        }
        return parts
    }

    /// map-image-url-part.ts.
    private static func filePart(_ item: JSON) throws -> JSON {
        guard let url = item["image_url"]?["url"]?.stringValue, !url.isEmpty else {
            throw Refusal.badRequest("image_url part must have image_url.url (string)")
        }
        guard url.hasPrefix("data:") else {
            throw Refusal.badRequest("image_url must be a data: URL — remote image URLs are not supported")
        }
        let mediaType = url.dropFirst(5).prefix { $0 != ";" && $0 != "," }
        guard !mediaType.isEmpty else {
            throw Refusal.badRequest("image_url data: URL must include a MIME type (e.g. data:image/png;base64,...)")
        }
        return ["type": "file", "url": .string(url), "mediaType": .string(String(mediaType))]
    }

    private static func checkTools(_ tools: JSON) throws {
        guard let list = tools.arrayValue else { throw Refusal.badRequest("tools must be an array") }
        for tool in list {
            guard tool.objectValue != nil else { throw Refusal.badRequest("each tool must be an object") }
            guard tool["type"]?.stringValue == "function" else { throw Refusal.badRequest("tool type must be 'function'") }
            guard let function = tool["function"], function.objectValue != nil else {
                throw Refusal.badRequest("each tool must have a function object")
            }
            guard let name = function["name"]?.stringValue, !name.isEmpty else {
                throw Refusal.badRequest("each tool must have a function.name string")
            }
        }
    }
}
