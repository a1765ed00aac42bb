import PSCore

/// Lucid's records in the toolkit's shapes (ps-ndjson(5)): a message as a UIMessage, a
/// conversation as the conversation record ps-history --list writes, a chat answer as the UI
/// message stream a streaming server would have sent.
enum LucidRecords {
    /// `{id, role, content, created_at, …}` → `{id, role, parts:[{type:"text",text}], createdAt}`.
    static func message(_ message: JSON) -> JSON {
        var record = JSONObject()
        record["id"] = message["id"] ?? .string("")
        record["role"] = message["role"] ?? "assistant"
        let text = message["content"]?.stringValue ?? ""
        record["parts"] = .array(text.isEmpty ? [] : [["type": "text", "text": .string(text)]])
        record["createdAt"] = message["created_at"]
        return .object(record)
    }

    /// `{id, user_id, title, user_timezone, created_at, updated_at}` → `{id, title, createdAt,
    /// updatedAt, userTimezone}` (fields the server leaves out stay out; a conversation without
    /// a title has "", a conversation record always has one).
    static func conversation(_ conversation: JSON) -> JSON {
        var record = JSONObject()
        record["id"] = conversation["id"]
        record["title"] = nonNull(conversation["title"]) ?? .string("")
        record["createdAt"] = conversation["created_at"]
        record["updatedAt"] = conversation["updated_at"]
        record["userTimezone"] = nonNull(conversation["user_timezone"])
        return .object(record)
    }

    /// A fact row with its `confidence` a number: Lucid's column is a Postgres DECIMAL(4,3)
    /// (schema.sql:170 at 8cdb90b), which node-postgres hands over as a string ("0.850") in every
    /// row it returns as is (the list, a created or changed fact); only search parses it.
    static func fact(_ fact: JSON) -> JSON {
        guard case .object(var object) = fact, let text = object["confidence"]?.stringValue,
              let number = Double(text), number.isFinite else { return fact }
        object["confidence"] = .real(number)
        return .object(object)
    }

    private static func nonNull(_ value: JSON?) -> JSON? {
        guard let value, !value.isNull else { return Optional<JSON>.none }
        return value
    }

    /// `POST /v1/chat`'s answer `{user_message, assistant_message, response, conversation_id}`
    /// as stream records: `start` with the assistant message's id and
    /// `messageMetadata {conversationId, createdAt}`, the reply (`response`, else the assistant
    /// message's content) as one text block, `finish`, `[DONE]`.
    static func chatAnswer(_ answer: JSON) throws -> WholeAnswer {
        guard answer.objectValue != nil, let assistant = answer["assistant_message"], assistant.objectValue != nil else {
            throw ToolError(.serverError, "POST /v1/chat: the server's answer has no assistant_message")
        }
        let text = answer["response"]?.stringValue ?? assistant["content"]?.stringValue ?? ""
        let conversationID = answer["conversation_id"]?.stringValue ?? assistant["conversation_id"]?.stringValue
        var metadata = JSONObject()
        metadata["conversationId"] = conversationID.map(JSON.string)
        metadata["createdAt"] = assistant["created_at"]
        let bytes = WholeAnswerStream.bytes(
            messageID: assistant["id"]?.stringValue, text: text, metadata: .object(metadata))
        return WholeAnswer(
            streamBytes: bytes, conversationID: conversationID, userMessageID: answer["user_message"]?["id"]?.stringValue)
    }
}

/// Lucid's words for the failures its app names: 503 "temporarily unavailable" (exit 8), 504
/// and a transfer that timed out "the request timed out" (exit 9).
struct LucidErrorWording: APIErrorWording {
    func toolError(status: Int, reason: String, where: String) -> ToolError? {
        switch status {
        case 503: return ToolError(.serverError, "Lucid is temporarily unavailable; try again (\(`where`): 503\(reason))")
        case 504: return ToolError(.networkError, "the request timed out (\(`where`): 504, the server gave up waiting\(reason))")
        default: return nil
        }
    }

    func toolError(_ failure: TransferFailure, host: String) -> ToolError? {
        guard case .network(let message, _) = failure else { return nil }
        let lowered = message.lowercased()
        guard lowered.contains("timed out") || lowered.contains("nothing received for") else { return nil }
        return ToolError(.networkError, "the request timed out: \(message)")
    }
}
