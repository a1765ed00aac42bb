import PSCore

/// The authoritative conversation events (apps/web/src/lib/websocket/conversation-events.ts),
/// emitted after every message write as message-repository.ts does: the content plane to
/// the conversation's room `conv:<id>`, and the directory bump `conversation:updated` to the
/// owner's `user:<id>:sessions` room.
struct ConversationEvents: Sendable {
    /// `MAX_INLINE_MESSAGE_BYTES`: a larger serialized message is sent as an id-level
    /// `messageRef` with `truncated: true`, and the client fetches it.
    static let maxInlineMessageBytes = 32 * 1024

    /// What an event says about its conversation, read while the store holds it.
    struct Context {
        let conversationID: String
        let rev: Int
        let scope: JSON
        let lastMessageAt: Int64?
    }

    let hub: RealtimeHub

    static func conversationRoom(_ id: String) -> String { "conv:" + id }

    static func userSessionsRoom(_ userID: String) -> String { "user:\(userID):sessions" }

    func messageCreated(_ context: Context, message: @autoclosure () -> JSON) {
        emitMessage("conversation:message_created", context, message)
    }

    func messageUpdated(_ context: Context, message: @autoclosure () -> JSON) {
        emitMessage("conversation:message_updated", context, message)
    }

    func messageDeleted(_ context: Context, messageID: String) {
        var payload = base(context)
        payload["messageId"] = .string(messageID)
        hub.emit("conversation:message_deleted", .object(payload), to: Self.conversationRoom(context.conversationID))
        directoryBump(context)
    }

    func undoApplied(_ context: Context, mode: String, affected: [String]) {
        var payload = base(context)
        payload["mode"] = .string(mode)
        payload["affectedMessageIds"] = .array(affected.map(JSON.string))
        hub.emit("conversation:undo_applied", .object(payload), to: Self.conversationRoom(context.conversationID))
        directoryBump(context)
    }

    /// buildEventMessage: the UIMessage with its status, `source` and the time of the event
    /// as `createdAt` (not the row's).
    static func eventMessage(_ message: StoredMessage, status: String) -> JSON {
        guard var object = message.uiMessage.objectValue else { return message.uiMessage }
        object["status"] = .string(status)
        object["source"] = .null
        object["createdAt"] = .string(Timestamp.iso8601(Timestamp.now()))
        return .object(object)
    }

    private func emitMessage(_ event: String, _ context: Context, _ message: () -> JSON) {
        let room = Self.conversationRoom(context.conversationID)
        if hub.hasMembers(room) {
            var payload = base(context)
            let message = message()
            if message.serialized().utf8.count <= Self.maxInlineMessageBytes {
                payload["message"] = message
            } else {
                var ref = JSONObject()
                ref["id"] = message["id"] ?? ""
                ref["role"] = message["role"] ?? ""
                ref["status"] = message["status"]?.stringValue.map(JSON.string) ?? "complete"
                ref["createdAt"] = message["createdAt"]?.stringValue.map(JSON.string)
                payload["messageRef"] = .object(ref)
                payload["truncated"] = true
            }
            hub.emit(event, .object(payload), to: room)
        }
        directoryBump(context)
    }

    private func directoryBump(_ context: Context) {
        let room = Self.userSessionsRoom(SeedData.userID)
        guard hub.hasMembers(room) else { return }
        var payload = base(context)
        payload["changes"] = ["lastMessageAt": context.lastMessageAt.map { .string(Timestamp.iso8601($0)) } ?? .null]
        hub.emit("conversation:updated", .object(payload), to: room)
    }

    /// ConversationEventBase. The actor is stamped as a server-side write: this server does not
    /// carry the sending pane's browser session down to the store.
    private func base(_ context: Context) -> JSONObject {
        var object = JSONObject()
        object["conversationId"] = .string(context.conversationID)
        object["rev"] = .integer(Int64(context.rev))
        object["scope"] = context.scope
        object["triggeredBy"] = ["userId": .string(SeedData.userID), "browserSessionId": "server"]
        return object
    }
}
