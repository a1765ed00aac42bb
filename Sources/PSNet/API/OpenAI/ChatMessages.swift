import PSCore

/// UIMessages as the messages of an OpenAI chat completion request: `{role, content}` with the
/// text parts joined; an assistant's tool calls that have a result as `tool_calls` followed by one
/// `tool` message per result, so a model sees what its tools answered (a call nobody answered is
/// left out: a server refuses `tool_calls` without their results).
enum ChatMessages {
    static func make(system: String?, history: [JSON]) -> [JSON] {
        var out: [JSON] = []
        if let system, !system.isEmpty { out.append(["role": "system", "content": .string(system)]) }
        for message in history {
            guard let role = message["role"]?.stringValue else { continue }
            let parts = message["parts"]?.arrayValue ?? []
            let text = parts.compactMap { $0["type"]?.stringValue == "text" ? $0["text"]?.stringValue : nil }.joined()
            let calls = parts.filter {
                $0["type"]?.stringValue?.hasPrefix("tool-") == true && $0["toolCallId"] != nil
                    && ($0["output"] != nil || $0["errorText"] != nil)
            }
            var object = JSONObject()
            object["role"] = .string(role)
            object["content"] = .string(text)
            if role == "assistant" && !calls.isEmpty {
                object["tool_calls"] = .array(calls.map { call in
                    let name = String(call["type"]!.stringValue!.dropFirst("tool-".count))
                    return [
                        "id": call["toolCallId"]!, "type": "function",
                        "function": ["name": .string(name), "arguments": .string((call["input"] ?? .object(JSONObject())).serialized())],
                    ]
                })
            }
            out.append(.object(object))
            for call in calls where role == "assistant" {
                let output = call["output"] ?? call["errorText"]!
                out.append(["role": "tool", "tool_call_id": call["toolCallId"]!, "content": .string(output.stringValue ?? output.serialized())])
            }
        }
        return out
    }
}
