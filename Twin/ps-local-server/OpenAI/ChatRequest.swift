import PSCore

/// The body of `POST /v1/chat/completions` on the plain OpenAI-compatible server, checked
/// as OpenAI checks it (400 with `param` and `code` naming what is wrong, 404 for an unknown
/// model). Stateless: the whole conversation comes in `messages`.
struct ChatRequest {
    let model: String
    let stream: Bool
    let includeUsage: Bool
    /// `tool_choice: "none"` forbids tool calls.
    let toolsAllowed: Bool
    /// The newest user message's text: what the reply answers.
    let question: String
    /// The system (and developer) messages' text, which steers the reply.
    let instructions: String
    /// The conversation ends with tool results: the reply carries on after the tool call.
    let answersToolResults: Bool
    /// Every message's text, for the usage estimate.
    let promptText: String

    static let roles = ["system", "assistant", "user", "function", "tool", "developer"]

    init(_ body: JSON, knownModels: [String]) throws {
        guard body.objectValue != nil else { throw OpenAIError.wrongType("body", expected: "an object", got: body) }
        guard let modelValue = body["model"], !modelValue.isNull else {
            throw OpenAIError.invalid("you must provide a model parameter")
        }
        guard let model = modelValue.stringValue else {
            throw OpenAIError.wrongType("model", expected: "a string", got: modelValue)
        }
        let messages = try Self.checkMessages(body["messages"])
        guard knownModels.contains(model) else { throw OpenAIError.unknownModel(model) }
        var stream = false
        if let value = body["stream"], !value.isNull {
            guard let flag = value.boolValue else { throw OpenAIError.wrongType("stream", expected: "a boolean", got: value) }
            stream = flag
        }

        self.model = model
        self.stream = stream
        includeUsage = stream && body["stream_options"]?["include_usage"]?.boolValue == true
        toolsAllowed = body["tool_choice"]?.stringValue != "none"
        question = messages.last { $0["role"]?.stringValue == "user" }.map(Self.text) ?? ""
        instructions = messages.filter { ["system", "developer"].contains($0["role"]?.stringValue ?? "") }
            .map(Self.text).joined(separator: "\n\n")
        answersToolResults = messages.last?["role"]?.stringValue == "tool"
        promptText = messages.map(Self.text).joined(separator: "\n")
    }

    /// What the assistant says this turn: the scripted reply up to its tool call (a model
    /// stops there for the client to run the tool), or, once the results are in, the rest.
    func segments(callID: String) -> [ReplySegment] {
        let all = ReplyScript.reply(to: question, instructions: instructions, callID: callID)
        let toolAt = all.firstIndex { if case .tool = $0 { return true } else { return false } }
        guard toolsAllowed, let toolAt else { return all.filter { if case .tool = $0 { return false } else { return true } } }
        return answersToolResults ? Array(all[(toolAt + 1)...]) : Array(all[...toolAt])
    }

    /// A message's text: its string content, or its text parts joined.
    static func text(_ message: JSON) -> String {
        if let text = message["content"]?.stringValue { return text }
        return (message["content"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }.joined(separator: "\n")
    }

    private static func checkMessages(_ value: JSON?) throws -> [JSON] {
        guard let value, !value.isNull else { throw OpenAIError.missing("messages") }
        guard let messages = value.arrayValue else {
            throw OpenAIError.wrongType("messages", expected: "an array", got: value)
        }
        guard !messages.isEmpty else {
            throw OpenAIError.invalid(
                "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
                param: "messages", code: "empty_array")
        }
        for (index, message) in messages.enumerated() {
            let path = "messages[\(index)]"
            guard message.objectValue != nil else { throw OpenAIError.wrongType(path, expected: "an object", got: message) }
            guard let roleValue = message["role"] else { throw OpenAIError.missing(path + ".role") }
            guard let role = roleValue.stringValue else {
                throw OpenAIError.wrongType(path + ".role", expected: "a string", got: roleValue)
            }
            guard roles.contains(role) else {
                throw OpenAIError.invalid(
                    "Invalid value: '\(role)'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.",
                    param: path + ".role", code: "invalid_value")
            }
            let content = message["content"]
            if role != "assistant" {
                guard let content, !content.isNull else { throw OpenAIError.missing(path + ".content") }
                guard content.stringValue != nil || content.arrayValue != nil else {
                    throw OpenAIError.wrongType(path + ".content", expected: "one of a string or array of objects", got: content)
                }
            }
            if role == "tool", message["tool_call_id"]?.stringValue == nil {
                throw OpenAIError.missing(path + ".tool_call_id")
            }
        }
        return messages
    }
}
