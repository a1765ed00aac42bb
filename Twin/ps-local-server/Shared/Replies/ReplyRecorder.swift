import PSCore

/// Follows the chunks as they are sent and keeps the message they add up to, so that an
/// aborted reply can be stored with exactly what was streamed so far.
struct ReplyRecorder {
    private enum Part {
        case text(kind: String, id: String, text: String)
        case tool(name: String, callID: String, input: JSON?, output: JSON?)
    }

    private var parts: [Part] = []

    mutating func apply(_ chunk: JSON) {
        guard let type = chunk["type"]?.stringValue else { return }
        switch type {
        case "text-start", "reasoning-start":
            let kind = type == "text-start" ? "text" : "reasoning"
            parts.append(.text(kind: kind, id: chunk["id"]?.stringValue ?? "", text: ""))
        case "text-delta", "reasoning-delta":
            let id = chunk["id"]?.stringValue ?? ""
            let delta = chunk["delta"]?.stringValue ?? ""
            if let index = parts.lastIndex(where: { if case .text(_, id, _) = $0 { return true } else { return false } }),
                case .text(let kind, _, let text) = parts[index]
            {
                parts[index] = .text(kind: kind, id: id, text: text + delta)
            }
        case "tool-input-start":
            parts.append(.tool(
                name: chunk["toolName"]?.stringValue ?? "", callID: chunk["toolCallId"]?.stringValue ?? "",
                input: nil, output: nil))
        case "tool-input-available", "tool-output-available":
            let callID = chunk["toolCallId"]?.stringValue ?? ""
            guard let index = parts.lastIndex(where: { if case .tool(_, callID, _, _) = $0 { return true } else { return false } }),
                case .tool(let name, _, let input, let output) = parts[index]
            else { return }
            parts[index] = type == "tool-input-available"
                ? .tool(name: name, callID: callID, input: chunk["input"], output: output)
                : .tool(name: name, callID: callID, input: input, output: chunk["output"])
        default:
            break
        }
    }

    /// The message parts as a history endpoint returns them; empty text is dropped, as the
    /// server does when it rebuilds a stored message.
    var historyParts: [JSON] {
        parts.compactMap { part in
            switch part {
            case .text(let kind, _, let text):
                return text.isEmpty ? nil : ["type": .string(kind), "text": .string(text)]
            case .tool(let name, let callID, let input, let output):
                var object = JSONObject()
                object["type"] = .string("tool-" + name)
                object["toolCallId"] = .string(callID)
                object["state"] = .string(output != nil ? "output-available" : input != nil ? "input-available" : "input-streaming")
                object["input"] = input
                object["output"] = output
                return .object(object)
            }
        }
    }
}
