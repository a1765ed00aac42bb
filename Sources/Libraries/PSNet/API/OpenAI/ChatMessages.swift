import PSCore

/// UIMessages as the messages of an OpenAI chat completion request: `{role, content}` with the
/// text parts joined; an assistant's tool calls that have a result as `tool_calls` followed by one
/// `tool` message per result, so a model sees what its tools answered (a call nobody answered is
/// left out: a server refuses `tool_calls` without their results). An assistant message of
/// several steps (a `step-start` part, or text after answered calls) becomes one assistant
/// message per step, each followed by its results, as the AI SDK's convertToModelMessages
/// splits it: the model then sees its answer after the results it read.
enum ChatMessages {
    static func make(system: String?, history: [JSON]) -> [JSON] {
        var out: [JSON] = []
        if let system, !system.isEmpty { out.append(["role": "system", "content": .string(system)]) }
        for message in history {
            guard let role = message["role"]?.stringValue else { continue }
            let parts = message["parts"]?.arrayValue ?? []
            guard role == "assistant" else {
                out.append(["role": .string(role), "content": .string(text(of: parts))])
                continue
            }
            // A step with nothing in it yet (the next one begun) is no message.
            let steps = steps(parts).filter { !$0.isEmpty }
            for step in steps.isEmpty ? [[]] : steps { out += assistantStep(step) }
        }
        return out
    }

    private static func text(of parts: [JSON]) -> String {
        parts.compactMap { $0["type"]?.stringValue == "text" ? $0["text"]?.stringValue : nil }.joined()
    }

    private static func isAnsweredCall(_ part: JSON) -> Bool {
        part["type"]?.stringValue?.hasPrefix("tool-") == true && part["toolCallId"] != nil
            && (part["output"] != nil || part["errorText"] != nil)
    }

    /// The parts cut where a new step begins.
    private static func steps(_ parts: [JSON]) -> [[JSON]] {
        var steps: [[JSON]] = [[]]
        for part in parts {
            let startsStep = part["type"]?.stringValue == "step-start"
                || (part["type"]?.stringValue == "text" && steps[steps.count - 1].contains(where: isAnsweredCall))
            if startsStep && !steps[steps.count - 1].isEmpty { steps.append([]) }
            if part["type"]?.stringValue != "step-start" { steps[steps.count - 1].append(part) }
        }
        return steps
    }

    private static func assistantStep(_ parts: [JSON]) -> [JSON] {
        let calls = parts.filter(isAnsweredCall)
        var object = JSONObject()
        object["role"] = "assistant"
        object["content"] = .string(text(of: parts))
        if !calls.isEmpty {
            object["tool_calls"] = .array(calls.map { call in
                let name = call["toolName"]?.stringValue ?? String(call["type"]!.stringValue!.dropFirst("tool-".count))
                return [
                    "id": call["toolCallId"]!, "type": "function",
                    "function": ["name": .string(name), "arguments": .string((call["input"] ?? .object(JSONObject())).serialized())],
                ]
            })
        }
        var out: [JSON] = [.object(object)]
        for call in calls {
            let output = call["output"] ?? call["errorText"]!
            out.append(["role": "tool", "tool_call_id": call["toolCallId"]!, "content": .string(output.stringValue ?? output.serialized())])
        }
        return out
    }
}
