import PSCore

/// Conversations and their messages as `/api/v1/conversations` shows them
/// (apps/web/src/lib/ai/openai-api/v1-conversations.ts): OpenAI-style messages, tool calls
/// with their arguments as a JSON string, each tool result a `role:"tool"` message after
/// the assistant message that called it, times in seconds.
enum AgentConversationJSON {
    static func header(_ conversation: Conversation) -> JSON {
        [
            "id": .string(conversation.id), "object": "conversation",
            "created_at": .integer(conversation.createdAt / Timestamp.second), "user_id": .string(SeedData.userID),
            "title": conversation.title.isEmpty ? .null : .string(conversation.title),
            "drive_id": conversation.kind.contextID.map(JSON.string) ?? .null,
        ]
    }

    static func detail(_ conversation: Conversation) -> JSON {
        guard case .object(var object) = header(conversation) else { return .null }
        object["messages"] = .array(conversation.messages.flatMap(messages))
        return .object(object)
    }

    /// serializeMessageRowToMessages: the message, then (for an assistant) its tool results.
    static func messages(_ message: StoredMessage) -> [JSON] {
        let createdAt = JSON.integer(message.createdAt / Timestamp.second)
        let text = message.plainText
        var object = JSONObject([
            ("id", .string(message.id)), ("role", .string(message.role)), ("content", text.isEmpty ? .null : .string(text)),
            ("created_at", createdAt),
        ])
        let tools = message.parts.filter { ($0["type"]?.stringValue ?? "").hasPrefix("tool-") && $0["toolCallId"] != nil }
        if !tools.isEmpty {
            object["tool_calls"] = .array(tools.map { part in
                let input = part["input"] ?? [:]
                return [
                    "id": part["toolCallId"] ?? "", "type": "function",
                    "function": [
                        "name": .string(String((part["type"]?.stringValue ?? "").dropFirst(5))),
                        "arguments": .string(input.stringValue ?? input.serialized()),
                    ],
                ]
            })
        }
        var out: [JSON] = [.object(object)]
        guard message.role == "assistant" else { return out }
        for part in tools {
            guard let output = part["output"], let callID = part["toolCallId"]?.stringValue else { continue }
            out.append([
                "id": .string(message.id + ":" + callID), "role": "tool", "tool_call_id": .string(callID),
                "content": .string(output.stringValue ?? output.serialized()), "created_at": createdAt,
            ])
        }
        return out
    }
}
