import Foundation
import PSCore
import Synchronization

/// The gemini dialect's data: the user's conversations (metadata and messages, in the shape of
/// the iOS app's Message model) and their settings, in memory only. One user: the demo token's.
final class GeminiConversations: Sendable {
    struct Conversation: Sendable {
        let id: String
        var title: String
        let model: String
        let workspacePath: String?
        let createdAt: Int64
        var lastMessageAt: Int64?
        /// `{id, role, content, createdAt, toolCalls?, tokenUsage?}`, oldest first; role is
        /// user, assistant or thought.
        var messages: [JSON] = []
    }

    /// What `GET /settings` shows before any change.
    static let defaultModel = "gemini-2.5-pro"
    /// The Gemini CLI's approval modes (ApprovalMode in packages/core/src/config/config.ts);
    /// `auto_edit` is how its --approval-mode option spells autoEdit.
    static let approvalModes = ["default", "autoEdit", "yolo"]

    private struct State {
        var conversations: [String: Conversation] = [:]
        var settings = JSONObject([("model", .string(GeminiConversations.defaultModel)), ("approvalMode", "default")])
    }

    private let state = Mutex(State())

    func create(title: String?, model: String?, workspacePath: String?) -> Conversation {
        let conversation = Conversation(
            id: UUID().uuidString.lowercased(), title: title ?? "New Chat", model: model ?? Self.defaultModel,
            workspacePath: workspacePath, createdAt: Timestamp.now())
        state.withLock { $0.conversations[conversation.id] = conversation }
        return conversation
    }

    func conversation(_ id: String) -> Conversation? { state.withLock { $0.conversations[id] } }

    /// Newest activity first (the app sorts by lastMessageAt, descending).
    func all() -> [Conversation] {
        state.withLock { Array($0.conversations.values) }.sorted {
            ($0.lastMessageAt ?? $0.createdAt, $0.createdAt, $0.id) > ($1.lastMessageAt ?? $1.createdAt, $1.createdAt, $1.id)
        }
    }

    func delete(_ id: String) -> Bool { state.withLock { $0.conversations.removeValue(forKey: id) != nil } }

    /// Appends messages; false when the conversation is gone (deleted meanwhile).
    @discardableResult
    func append(_ messages: [JSON], to id: String) -> Bool {
        state.withLock { state in
            guard state.conversations[id] != nil else { return false }
            state.conversations[id]!.messages += messages
            state.conversations[id]!.lastMessageAt = Timestamp.now()
            return true
        }
    }

    var settings: JSONObject { state.withLock { $0.settings } }

    /// Applies a change already checked by the route; returns the settings after it.
    func changeSettings(_ change: JSONObject) -> JSONObject {
        state.withLock { state in
            for (key, value) in change { state.settings[key] = value }
            return state.settings
        }
    }
}

extension GeminiConversations.Conversation {
    /// `{id, title, createdAt, lastMessageAt, messageCount, summary}` (GET /conversations).
    var listRecord: JSON {
        [
            "id": .string(id), "title": .string(title), "createdAt": .string(Timestamp.iso8601(createdAt)),
            "lastMessageAt": lastMessageAt.map { .string(Timestamp.iso8601($0)) } ?? .null,
            "messageCount": .integer(Int64(messages.count)), "summary": summary.map(JSON.string) ?? .null,
        ]
    }

    /// `{id, title, messages, model, createdAt}` (GET /conversations/:id).
    var fullRecord: JSON {
        var object = JSONObject([("id", .string(id)), ("title", .string(title)), ("messages", .array(messages))])
        object["model"] = .string(model)
        object["createdAt"] = .string(Timestamp.iso8601(createdAt))
        object["workspacePath"] = workspacePath.map(JSON.string)
        return .object(object)
    }

    /// The start of the last assistant reply, as a preview line under the title.
    var summary: String? {
        guard let last = messages.last(where: { $0["role"]?.stringValue == "assistant" }),
            let content = last["content"]?.stringValue
        else { return nil }
        let line = content.split(whereSeparator: \.isNewline).first { !$0.allSatisfy { $0 == " " || $0 == "#" } }
            .map { String($0.drop { $0 == "#" || $0 == " " }) } ?? ""
        guard !line.isEmpty else { return nil }
        return line.count > 100 ? String(line.prefix(99)) + "…" : line
    }
}
