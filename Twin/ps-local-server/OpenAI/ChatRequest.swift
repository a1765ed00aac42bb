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
    /// `response_format: {type:"json_schema", json_schema:{name, schema}}`: the schema the
    /// answer must match (SchemaReply).
    let responseSchema: JSON?
    /// The calls a message asks for by name (ToolScript), the steps of them already answered
    /// since the newest user message, and their results.
    let toolSteps: [[ToolScript.Call]]?
    let toolStepsDone: Int
    let toolResults: [ToolScript.Result]

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
        toolSteps = ToolScript.steps(in: question)
        let sinceQuestion = messages.suffix(from: (messages.lastIndex { $0["role"]?.stringValue == "user" } ?? -1) + 1)
        let calls = sinceQuestion.filter { $0["role"]?.stringValue == "assistant" }.compactMap { $0["tool_calls"]?.arrayValue }
        toolStepsDone = calls.filter { !$0.isEmpty }.count
        var names: [String: String] = [:]
        for call in calls.joined() {
            if let id = call["id"]?.stringValue { names[id] = call["function"]?["name"]?.stringValue ?? "" }
        }
        toolResults = sinceQuestion.filter { $0["role"]?.stringValue == "tool" }.map {
            ToolScript.Result(name: names[$0["tool_call_id"]?.stringValue ?? ""] ?? "", content: Self.text($0))
        }
        responseSchema = try Self.checkResponseFormat(body["response_format"])
    }

    /// `response_format` as OpenAI checks it (API reference, "Create chat completion",
    /// response_format: `text`, `json_object`, or `json_schema` with a `name` of letters,
    /// digits, `_` and `-`, at most 64, and the `schema`). `json_object` asks for any JSON: no schema.
    private static func checkResponseFormat(_ value: JSON?) throws -> JSON? {
        guard let value, !value.isNull else { return nil }
        guard value.objectValue != nil else { throw OpenAIError.wrongType("response_format", expected: "an object", got: value) }
        guard let type = value["type"] else { throw OpenAIError.missing("response_format.type") }
        switch type.stringValue {
        case "text", "json_object": return nil
        case "json_schema":
            guard let format = value["json_schema"], !format.isNull else { throw OpenAIError.missing("response_format.json_schema") }
            guard format.objectValue != nil else {
                throw OpenAIError.wrongType("response_format.json_schema", expected: "an object", got: format)
            }
            guard let name = format["name"] else { throw OpenAIError.missing("response_format.json_schema.name") }
            guard let text = name.stringValue, (1...64).contains(text.count),
                  text.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") })
            else {
                throw OpenAIError.invalid(
                    "Invalid 'response_format.json_schema.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
                    param: "response_format.json_schema.name", code: "invalid_value")
            }
            return format["schema"] ?? [:]
        default:
            throw OpenAIError.invalid(
                "Invalid value: '\(type.stringValue ?? type.serialized())'. Supported values are: 'json_object', 'json_schema', and 'text'.",
                param: "response_format.type", code: "invalid_value")
        }
    }

    /// What the assistant says this turn: the scripted reply up to its tool call (a model
    /// stops there for the client to run the tool), or, once the results are in, the rest.
    /// A message that names tools (ToolScript) gets their calls, a step at a time.
    func segments(callID: String) -> [ReplySegment] {
        if let toolSteps, toolsAllowed {
            var count = 0
            return ToolScript.reply(steps: toolSteps, stepsDone: toolStepsDone, results: toolResults) {
                count += 1
                return callID + "_\(count)"
            }
        }
        let all = ReplyScript.reply(to: question, instructions: instructions, schema: responseSchema, callID: callID)
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
