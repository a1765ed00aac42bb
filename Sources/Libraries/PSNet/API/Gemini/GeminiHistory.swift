import PSCore

/// A Gemini mobile API conversation's messages (the app's Message model: `{id, role, content,
/// createdAt, toolCalls?: [{name, arguments, status, result}], tokenUsage?}`, role user,
/// assistant, tool or thought) as UIMessages: a user's message is one text part; an assistant's
/// gets, in order, a `reasoning` part for each thought stored before it, a `tool-NAME` part per
/// tool call (input the arguments, output the result), then its text; its token usage goes to
/// `metadata.usage`. A tool message becomes a tool part of the reply that follows.
enum GeminiHistory {
    static func messages(_ stored: [JSON]) -> [JSON] {
        var out: [JSON] = []
        var pending: [JSON] = []  // thoughts and tool messages waiting for their assistant message
        var callNumber = 0
        for message in stored {
            let content = message["content"]?.stringValue ?? ""
            switch message["role"]?.stringValue {
            case "thought":
                if !content.isEmpty { pending.append(["type": "reasoning", "text": .string(content)]) }
            case "tool":
                callNumber += 1
                pending.append(toolPart(message, number: callNumber, defaultName: "tool"))
            case "assistant":
                var parts = pending
                pending = []
                for call in message["toolCalls"]?.arrayValue ?? [] {
                    callNumber += 1
                    parts.append(toolPart(call, number: callNumber, defaultName: "tool"))
                }
                if !content.isEmpty { parts.append(["type": "text", "text": .string(content)]) }
                var record = base(message, role: "assistant", parts: parts)
                if let usage = message["tokenUsage"], usage.objectValue != nil { record["metadata"] = ["usage": usage] }
                out.append(.object(record))
            default:
                if !pending.isEmpty {  // thoughts with no reply after them: a reply of their own
                    out.append(.object(base(message, role: "assistant", parts: pending, idSuffix: "-thoughts")))
                    pending = []
                }
                let role = message["role"]?.stringValue ?? "user"
                out.append(.object(base(message, role: role, parts: [["type": "text", "text": .string(content)]])))
            }
        }
        if !pending.isEmpty, let last = stored.last {
            out.append(.object(base(last, role: "assistant", parts: pending, idSuffix: "-thoughts")))
        }
        return out
    }

    private static func base(_ message: JSON, role: String, parts: [JSON], idSuffix: String = "") -> JSONObject {
        var record = JSONObject()
        record["id"] = .string((message["id"]?.stringValue ?? "") + idSuffix)
        record["role"] = .string(role)
        record["parts"] = .array(parts)
        record["createdAt"] = message["createdAt"]
        return record
    }

    /// `{name, arguments, status, result}` (status running, completed or failed).
    private static func toolPart(_ call: JSON, number: Int, defaultName: String) -> JSON {
        var part = JSONObject()
        part["type"] = .string("tool-" + (call["name"]?.stringValue ?? call["toolName"]?.stringValue ?? defaultName))
        part["toolCallId"] = .string("gemini-call-\(number)")
        part["input"] = call["arguments"] ?? call["args"] ?? .object(JSONObject())
        let result = call["result"] ?? .null
        switch call["status"]?.stringValue {
        case "failed", "error":
            part["state"] = "output-error"
            part["errorText"] = .string(result.stringValue ?? result.serialized())
        case "running" where result == .null:
            part["state"] = "input-available"
        default:
            part["state"] = "output-available"
            part["output"] = result
        }
        return .object(part)
    }
}
