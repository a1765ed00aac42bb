import PSCore

/// The send bodies both PageSpace APIs take: `{messages:[UIMessage], ...}`. Only the last
/// message counts: the server loads the history itself.
enum SendBody {
    static func global(message: JSON, options: SendOptions) -> JSON {
        var body = JSONObject()
        body["messages"] = [message]
        body["selectedProvider"] = options.provider.map { .string($0) }
        body["selectedModel"] = options.model.map { .string($0) }
        body["locationContext"] = options.locationContext
        return .object(body)
    }

    static func agent(pageID: String, conversationID: String?, message: JSON, options: SendOptions) -> JSON {
        var body = JSONObject()
        body["messages"] = [message]
        body["chatId"] = .string(pageID)
        body["conversationId"] = conversationID.map { .string($0) }
        body["selectedProvider"] = options.provider.map { .string($0) }
        body["selectedModel"] = options.model.map { .string($0) }
        body["pageContext"] = options.pageContext
        return .object(body)
    }
}
