import PSCore

/// A conversation as an OpenAI-style server shows it (PageSpace's `GET /api/v1/conversations/{id}`,
/// apps/web/src/lib/ai/openai-api/v1-conversations.ts serializeMessageRowToMessages) turned back
/// into UIMessage records, so that ps-history's output feeds ps-parts and ps-render like any other:
///
/// - `{id, role, content, tool_calls?, created_at}`: a message; `content` (text or null) becomes a
///   text part, each tool call a `tool-<name>` part whose `input` is its `arguments` parsed (the
///   string itself when it is not JSON). The server keeps no order between an assistant's text
///   and its calls; the calls come first, as a model calls its tools before it answers.
/// - `{role:"tool", tool_call_id, content}`: the result of the call with that id, wherever it
///   is; it becomes that part's `output` (`state:"output-available"`), parsed when the server
///   serialised an object or array. A result whose call is nowhere is left out.
/// - `created_at` (seconds) becomes `createdAt` (ISO 8601).
enum ChatTranscript {
    static func uiMessages(_ messages: [JSON]) -> [JSON] {
        var heads: [JSONObject] = []
        var parts: [[JSON]] = []
        var calls: [String: (message: Int, part: Int)] = [:]
        for message in messages {
            guard let role = message["role"]?.stringValue else { continue }
            if role == "tool" {
                guard let callID = message["tool_call_id"]?.stringValue, let place = calls[callID],
                      case .object(var part) = parts[place.message][place.part] else { continue }
                part["state"] = "output-available"
                part["output"] = output(message["content"] ?? .null)
                parts[place.message][place.part] = .object(part)
                continue
            }
            var own: [JSON] = []
            for call in message["tool_calls"]?.arrayValue ?? [] {
                guard let id = call["id"]?.stringValue, let name = call["function"]?["name"]?.stringValue else { continue }
                let arguments = call["function"]?["arguments"]
                let input = arguments?.stringValue.flatMap { try? JSON.parse($0) } ?? arguments ?? .object(JSONObject())
                calls[id] = (heads.count, own.count)
                own.append([
                    "type": .string("tool-" + name), "toolCallId": .string(id), "state": "input-available", "input": input,
                ])
            }
            if let text = message["content"]?.stringValue, !text.isEmpty {
                own.append(["type": "text", "text": .string(text)])
            }
            var head = JSONObject()
            head["id"] = message["id"] ?? .string(RandomID.messageID())
            head["role"] = .string(role)
            if let seconds = message["created_at"]?.intValue {
                head["createdAt"] = .string(LocalConversations.iso8601(milliseconds: Int(seconds) * 1000))
            }
            heads.append(head)
            parts.append(own)
        }
        return zip(heads, parts).map { head, parts in
            var message = JSONObject()
            message["id"] = head["id"]
            message["role"] = head["role"]
            message["parts"] = .array(parts)
            message["createdAt"] = head["createdAt"]
            return .object(message)
        }
    }

    /// A tool result's text: the object or array it serialises, else the text itself.
    private static func output(_ content: JSON) -> JSON {
        guard let text = content.stringValue else { return content }
        if let parsed = try? JSON.parse(text), parsed.objectValue != nil || parsed.arrayValue != nil { return parsed }
        return content
    }
}
