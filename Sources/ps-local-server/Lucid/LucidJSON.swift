import PSCore

/// The lucid dialect's records as its API writes them: snake_case, ISO 8601 times.
enum LucidJSON {
    static func time(_ milliseconds: Int64) -> JSON { .string(Timestamp.iso8601(milliseconds)) }

    static func user(_ user: LucidStore.User) -> JSON {
        var o = JSONObject()
        o["id"] = .string(user.id)
        o["external_id"] = .string(user.externalID)
        o["name"] = user.name.map(JSON.string) ?? .null
        o["email"] = user.email.map(JSON.string) ?? .null
        o["timezone"] = user.timezone.map(JSON.string) ?? .null
        o["created_at"] = time(user.createdAt)
        o["updated_at"] = time(user.updatedAt)
        return .object(o)
    }

    static func conversation(_ conversation: LucidStore.Conversation) -> JSON {
        var o = JSONObject()
        o["id"] = .string(conversation.id)
        o["user_id"] = .string(conversation.userID)
        o["title"] = conversation.title.map(JSON.string) ?? .null
        o["user_timezone"] = conversation.userTimezone.map(JSON.string) ?? .null
        o["created_at"] = time(conversation.createdAt)
        o["updated_at"] = time(conversation.updatedAt)
        return .object(o)
    }

    static func message(_ message: LucidStore.Message, in conversation: LucidStore.Conversation) -> JSON {
        var o = JSONObject()
        o["id"] = .string(message.id)
        o["conversation_id"] = .string(conversation.id)
        o["user_id"] = .string(conversation.userID)
        o["role"] = .string(message.role)
        o["content"] = .string(message.content)
        o["created_at"] = time(message.createdAt)
        return .object(o)
    }

    static func extracted(_ fact: LucidFactExtractor.Extracted) -> JSON {
        ["content": .string(fact.content), "category": .string(fact.category), "confidence": .real(fact.confidence)]
    }

    static func fact(_ fact: LucidStore.Fact) -> JSON {
        var o = JSONObject()
        o["id"] = .string(fact.id)
        o["user_id"] = .string(fact.userID)
        o["content"] = .string(fact.content)
        o["category"] = .string(fact.category)
        o["confidence"] = .real(fact.confidence)
        o["is_active"] = .bool(fact.isActive)
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
        o["message_count"] = .integer(Int64(summary.messageCount))
        o["created_at"] = time(summary.createdAt)
        return .object(o)
    }
}
