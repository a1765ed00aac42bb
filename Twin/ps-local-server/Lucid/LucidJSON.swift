import Foundation
import PSCore

/// The lucid dialect's records as Lucid writes them: its database rows (`RETURNING *`, the
/// interfaces of lucid-agent src/services/*.service.ts at 8cdb90b), snake_case, ISO 8601
/// times; embeddings are null here.
enum LucidJSON {
    static func time(_ milliseconds: Int64) -> JSON { .string(Timestamp.iso8601(milliseconds)) }

    static func user(_ user: LucidStore.User) -> JSON {
        var o = JSONObject()
        o["id"] = .string(user.id)
        o["external_id"] = .string(user.externalID)
        o["name"] = user.name.map(JSON.string) ?? .null
        o["email"] = user.email.map(JSON.string) ?? .null
        o["timezone"] = .string(user.timezone)
        o["preferences"] = .object(JSONObject())
        o["created_at"] = time(user.createdAt)
        o["last_active_at"] = time(user.lastActiveAt)
        return .object(o)
    }

    static func conversation(_ conversation: LucidStore.Conversation) -> JSON {
        var o = JSONObject()
        o["id"] = .string(conversation.id)
        o["user_id"] = .string(conversation.userID)
        o["title"] = conversation.title.map(JSON.string) ?? .null
        o["user_timezone"] = conversation.userTimezone.map(JSON.string) ?? .null
        o["message_count"] = .integer(Int64(conversation.messages.count))
        o["created_at"] = time(conversation.createdAt)
        o["updated_at"] = time(conversation.updatedAt)
        return .object(o)
    }

    static func message(_ message: LucidStore.Message, conversationID: String) -> JSON {
        var o = JSONObject()
        o["id"] = .string(message.id)
        o["conversation_id"] = .string(conversationID)
        o["user_id"] = .string(message.userID)
        o["role"] = .string(message.role)
        o["content"] = .string(message.content)
        o["embedding"] = .null
        o["tokens"] = .integer(Int64((message.content.utf16.count + 3) / 4))  // message.service.ts:79
        o["model"] = .null
        o["created_at"] = time(message.createdAt)
        return .object(o)
    }

    static func extracted(_ fact: LucidFactExtractor.Extracted) -> JSON {
        ["content": .string(fact.content), "category": .string(fact.category), "confidence": .real(fact.confidence)]
    }

    /// A facts row. `confidence` is a DECIMAL(4,3) column (schema.sql:170), which node-postgres
    /// gives as a string ("0.850") wherever the row is returned as is (`RETURNING *`, `SELECT *`:
    /// fact.service.ts:251-265, 322-346, 394-409); search alone parses it (`parseFloat`,
    /// fact.service.ts:505-520): `parsed`.
    static func fact(_ fact: LucidStore.Fact, parsed: Bool = false) -> JSON {
        var o = JSONObject()
        o["id"] = .string(fact.id)
        o["user_id"] = .string(fact.userID)
        o["content"] = .string(fact.content)
        o["category"] = .string(fact.category)
        let decimal = String(format: "%.3f", fact.confidence)
        o["confidence"] = parsed ? .real(Double(decimal) ?? fact.confidence) : .string(decimal)
        o["evidence_count"] = .integer(0)
        o["embedding"] = .null
        o["is_active"] = .bool(fact.isActive)
        o["first_mentioned_at"] = time(fact.createdAt)
        o["last_mentioned_at"] = time(fact.createdAt)
        o["created_at"] = time(fact.createdAt)
        o["updated_at"] = time(fact.updatedAt)
        return .object(o)
    }

    static func summary(_ summary: LucidStore.Summary) -> JSON {
        var o = JSONObject()
        o["id"] = .string(summary.id)
        o["conversation_id"] = .string(summary.conversationID)
        o["user_id"] = .string(summary.userID)
        o["user_perspective"] = .string(summary.userPerspective)
        o["model_perspective"] = .string(summary.modelPerspective)
        o["conversation_overview"] = .string(summary.overview)
        o["user_embedding"] = .null
        o["model_embedding"] = .null
        o["overview_embedding"] = .null
        o["message_count"] = .integer(Int64(summary.messageCount))
        o["created_at"] = time(summary.createdAt)
        return .object(o)
    }
}
