import PSCore

/// A message as the server keeps it: UIMessage parts, plus whether an old server stored it
/// as a content envelope (the legacy dialect returns those in that form).
struct StoredMessage: Sendable {
    let id: String
    let role: String
    let parts: [JSON]
    let createdAt: Int64
    var storedAsEnvelope = false

    /// The UIMessage a history endpoint returns.
    var uiMessage: JSON {
        ["id": .string(id), "role": .string(role), "parts": .array(parts), "createdAt": .string(Timestamp.iso8601(createdAt))]
    }

    /// The row an old server returned: `content` is the JSON envelope (textParts, partsOrder,
    /// originalContent) and the tool calls and results sit in their own arrays.
    var envelopeRow: JSON {
        var textParts: [JSON] = []
        var partsOrder: [JSON] = []
        var toolCalls: [JSON] = []
        var toolResults: [JSON] = []
        for (index, part) in parts.enumerated() {
            let type = part["type"]?.stringValue ?? ""
            if type == "text" {
                textParts.append(part["text"] ?? "")
                partsOrder.append(["index": .integer(Int64(index)), "type": "text"])
            } else if type.hasPrefix("tool-"), let callID = part["toolCallId"] {
                let name = JSON.string(String(type.dropFirst(5)))
                partsOrder.append(["index": .integer(Int64(index)), "type": .string(type), "toolCallId": callID])
                toolCalls.append(["toolCallId": callID, "toolName": name, "input": part["input"] ?? [:]])
                if let output = part["output"] {
                    toolResults.append(["toolCallId": callID, "toolName": name, "output": output])
                }
            }
        }
        let original = textParts.compactMap(\.stringValue).joined(separator: "\n\n")
        let envelope: JSON = [
            "textParts": .array(textParts), "partsOrder": .array(partsOrder), "originalContent": .string(original),
        ]
        return [
            "id": .string(id), "role": .string(role), "content": .string(envelope.serialized()),
            "toolCalls": .array(toolCalls), "toolResults": .array(toolResults),
            "createdAt": .string(Timestamp.iso8601(createdAt)),
        ]
    }

    func rendered(for dialect: Dialect) -> JSON {
        dialect == .legacy && storedAsEnvelope ? envelopeRow : uiMessage
    }

    /// The text of the message's text parts, joined (what a reply quotes, a preview shows).
    var plainText: String {
        parts.compactMap { $0["type"]?.stringValue == "text" ? $0["text"]?.stringValue : nil }.joined(separator: "\n")
    }
}
