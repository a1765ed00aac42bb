import Foundation
import PSCore
import Synchronization

/// The gemini dialect's data, as packages/mobile-api's SessionManager keeps it
/// (src/sessions/sessionManager.ts at 1fabb479): each conversation's metadata and its user
/// and assistant messages, in memory only; at most 10 per user (src/server.ts:25,
/// sessionManager.ts:67-75); one unused for `idleMs` (30 minutes, server.ts:26-29) is
/// forgotten (sessionManager.ts:382-393: swept every 5 minutes there, at each access here).
/// And the settings (src/routes/settings.ts). One user: the demo token's.
final class GeminiConversations: Sendable {
    struct Conversation: Sendable {
        let id: String
        /// As the request gave them: the route does not check their type (conversations.ts:29).
        let title: JSON
        let model: JSON
        let createdAt: Int64
        var lastMessageAt: Int64?
        var messageCount = 0
        var lastActivityAt: Int64
        /// `{id, role, content, createdAt, tokenUsage?}`, oldest first; role user or assistant.
        var messages: [JSON] = []
    }

    /// src/server.ts:23 (DEFAULT_MODEL), and the settings' default model (settings.ts:31).
    static let defaultModel = "gemini-2.5-pro"
    /// src/server.ts:25 (MAX_SESSIONS_PER_USER).
    static let maxPerUser = 10
    /// The uid the demo token names (the auth middleware's `req.user.uid`).
    static let userID = "user_demo"

    let idleMs: Int64

    private struct State {
        var conversations: [String: Conversation] = [:]
        /// nil until the first PUT (settings.ts:19, a Map without the user).
        var settings: JSONObject?
    }

    private let state = Mutex(State())

    init(idleMs: Int64 = 30 * 60 * 1000) { self.idleMs = idleMs }

    private func evictIdle(_ state: inout State) {
        let now = Timestamp.now()
        state.conversations = state.conversations.filter { now - $0.value.lastActivityAt <= idleMs }
    }

    /// sessionManager.ts:63-126: nil when the user has the most already.
    func create(title: JSON?, model: JSON?) -> Conversation? {
        state.withLock { state in
            evictIdle(&state)
            guard state.conversations.count < Self.maxPerUser else { return nil }
            let now = Timestamp.now()
            let conversation = Conversation(
                id: UUID().uuidString.lowercased(), title: title ?? "New Conversation",
                model: model ?? .string(Self.defaultModel), createdAt: now, lastActivityAt: now)
            state.conversations[conversation.id] = conversation
            return conversation
        }
    }

    func conversation(_ id: String) -> Conversation? {
        state.withLock { state in
            evictIdle(&state)
            return state.conversations[id]
        }
    }

    /// Newest activity first: `lastMessageAt ?? createdAt`, descending (sessionManager.ts:325-334).
    func all() -> [Conversation] {
        state.withLock { state in
            evictIdle(&state)
            return Array(state.conversations.values)
        }.sorted { ($0.lastMessageAt ?? $0.createdAt, $0.createdAt, $0.id) > ($1.lastMessageAt ?? $1.createdAt, $1.createdAt, $1.id) }
    }

    func delete(_ id: String) -> Bool {
        state.withLock { state in
            evictIdle(&state)
            return state.conversations.removeValue(forKey: id) != nil
        }
    }

    /// sessionManager.ts:145-156: a send makes the conversation active and records the user's message.
    func begin(_ id: String, userMessage: JSON) -> Bool {
        state.withLock { state in
            evictIdle(&state)
            guard state.conversations[id] != nil else { return false }
            state.conversations[id]!.lastActivityAt = Timestamp.now()
            state.conversations[id]!.messages.append(userMessage)
            state.conversations[id]!.messageCount += 1
            return true
        }
    }

    /// sessionManager.ts:232-242: the assistant's message, once the turn ended.
    func finish(_ id: String, assistantMessage: JSON) {
        state.withLock { state in
            guard state.conversations[id] != nil else { return }
            state.conversations[id]!.messages.append(assistantMessage)
            state.conversations[id]!.messageCount += 1
            state.conversations[id]!.lastMessageAt = Timestamp.now()
        }
    }

    /// settings.ts:28-35: the user's, else `{model: "gemini-2.5-pro", approvalMode: "auto_edit"}`.
    var settings: JSONObject {
        state.withLock { $0.settings } ?? JSONObject([("model", .string(Self.defaultModel)), ("approvalMode", "auto_edit")])
    }

    /// settings.ts:41-51: `{...existing, ...body}`, nothing checked; `existing` is the user's
    /// own settings, not the defaults.
    func changeSettings(_ change: JSONObject) -> JSONObject {
        state.withLock { state in
            var settings = state.settings ?? JSONObject()
            for (key, value) in change { settings[key] = value }
            state.settings = settings
            return settings
        }
    }
}

extension GeminiConversations.Conversation {
    /// ConversationMetadata (src/types.ts:22-31) in the order sessionManager.ts:102-109 makes
    /// it; `lastMessageAt` once a turn ended.
    var metadata: JSON {
        var object = JSONObject()
        object["id"] = .string(id)
        object["userId"] = .string(GeminiConversations.userID)
        object["title"] = title
        object["model"] = model
        object["createdAt"] = .string(Timestamp.iso8601(createdAt))
        object["messageCount"] = .integer(Int64(messageCount))
        object["lastMessageAt"] = lastMessageAt.map { .string(Timestamp.iso8601($0)) }
        return .object(object)
    }
}
