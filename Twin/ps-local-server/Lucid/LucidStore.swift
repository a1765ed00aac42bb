import Foundation
import PSCore
import Synchronization

/// The lucid dialect's data, in memory: users, their conversations with messages and
/// summaries, and the facts learned about them. Messages keep the order they were made in,
/// also when several share one created_at, so `limit`/`offset` pages are stable.
final class LucidStore: Sendable {
    struct User: Sendable {
        let id: String
        let externalID: String
        var name: String?
        var email: String?
        var timezone: String
        let createdAt: Int64
        var lastActiveAt: Int64
    }

    struct Message: Sendable {
        let id: String
        /// messages.user_id: the user the chat named (chat.service.ts:51-56, 151-156), who
        /// need not own the conversation.
        let userID: String
        let role: String
        let content: String
        let createdAt: Int64
    }

    struct Conversation: Sendable {
        let id: String
        let userID: String
        var title: String?
        var userTimezone: String?
        let createdAt: Int64
        var updatedAt: Int64
        /// Creation order, to order conversations updated in the same millisecond.
        let sequence: Int
        var messages: [Message] = []
        var summaries: [Summary] = []
    }

    struct Fact: Sendable {
        let id: String
        let userID: String
        var content: String
        var category: String
        var confidence: Double
        var isActive: Bool
        let createdAt: Int64
        var updatedAt: Int64
    }

    struct Summary: Sendable {
        let id: String
        let conversationID: String
        let userID: String
        let userPerspective: String
        let modelPerspective: String
        let overview: String
        let messageCount: Int
        let createdAt: Int64
    }

    private struct Data {
        var users: [String: User] = [:]
        var userByExternalID: [String: String] = [:]
        var conversations: [String: Conversation] = [:]
        var facts: [Fact] = []
        var nextSequence = 0
    }

    private let data = Mutex(Data())

    static func newID() -> String { UUID().uuidString.lowercased() }

    // MARK: Users

    /// lucid-agent src/services/user.service.ts:37-67 (8cdb90b): `INSERT … ON CONFLICT (external_id)
    /// DO UPDATE SET name, email, timezone, last_active_at`: a user found again gets the new
    /// name, email and timezone, absent ones null (timezone UTC).
    func createOrUpdate(externalID: String, name: String?, email: String?, timezone: String?) -> User {
        data.withLock { data in
            let now = Timestamp.now()
            if let id = data.userByExternalID[externalID], var user = data.users[id] {
                user.name = name
                user.email = email
                user.timezone = timezone ?? "UTC"
                user.lastActiveAt = now
                data.users[id] = user
                return user
            }
            let user = User(id: Self.newID(), externalID: externalID, name: name, email: email, timezone: timezone ?? "UTC",
                            createdAt: now, lastActiveAt: now)
            data.users[user.id] = user
            data.userByExternalID[externalID] = user.id
            return user
        }
    }

    func user(_ id: String) -> User? { data.withLock { $0.users[id] } }

    /// The user and all that is theirs (users.ts:148-153: "this cascades to conversations,
    /// messages, facts"); false when there is none.
    func deleteUser(externalID: String) -> Bool {
        data.withLock { data in
            guard let id = data.userByExternalID.removeValue(forKey: externalID) else { return false }
            data.users[id] = nil
            data.conversations = data.conversations.filter { $0.value.userID != id }
            data.facts.removeAll { $0.userID == id }
            return true
        }
    }

    func user(externalID: String) -> User? {
        data.withLock { data in data.userByExternalID[externalID].flatMap { data.users[$0] } }
    }

    // MARK: Conversations

    func createConversation(userID: String, title: String?, timezone: String?) -> Conversation? {
        data.withLock { data in
            guard data.users[userID] != nil else { return nil }
            let now = Timestamp.now()
            let conversation = Conversation(
                id: Self.newID(), userID: userID, title: title, userTimezone: timezone, createdAt: now, updatedAt: now,
                sequence: data.nextSequence)
            data.nextSequence += 1
            data.conversations[conversation.id] = conversation
            return conversation
        }
    }

    func conversation(_ id: String) -> Conversation? { data.withLock { $0.conversations[id] } }

    /// The user's conversations, newest created first (conversation.service.ts:103-113,
    /// `ORDER BY created_at DESC`); none for a user there is not.
    func conversations(ofUser userID: String, limit: Int, offset: Int) -> [Conversation] {
        data.withLock { data in
            let all = data.conversations.values.filter { $0.userID == userID }
                .sorted { ($0.createdAt, $0.sequence) > ($1.createdAt, $1.sequence) }
            return Self.slice(all, limit: limit, offset: offset).map { conversation in
                var light = conversation
                light.messages = []
                light.summaries = []
                return light
            }
        }
    }

    /// Changes a conversation; nil when there is none.
    func update<T>(_ id: String, _ change: (inout Conversation) -> T) -> T? {
        data.withLock { data in
            guard var conversation = data.conversations[id] else { return nil }
            let result = change(&conversation)
            data.conversations[id] = conversation
            return result
        }
    }

    enum Deletion { case deleted, notFound, referenced }

    /// `DELETE FROM conversations WHERE id = $1` (conversation.service.ts:221-240): messages and
    /// summaries reference their conversation with no ON DELETE CASCADE (schema.sql:115,254), so
    /// a conversation that has any cannot be deleted.
    func deleteConversation(_ id: String) -> Deletion {
        data.withLock { data in
            guard let conversation = data.conversations[id] else { return .notFound }
            guard conversation.messages.isEmpty && conversation.summaries.isEmpty else { return .referenced }
            data.conversations[id] = nil
            return .deleted
        }
    }

    /// Oldest first (message.service.ts:214-233); none for a conversation there is not.
    func messages(of id: String, role: String?, limit: Int, offset: Int) -> [Message] {
        data.withLock { data in
            let all = (data.conversations[id]?.messages ?? []).filter { role == nil || $0.role == role }
            return Self.slice(all, limit: limit, offset: offset)
        }
    }

    /// Appends messages, created after the conversation's newest one (never before it), as
    /// `userID`'s (the conversation's user when nil).
    func append(_ roleAndContent: [(role: String, content: String)], to id: String, userID: String? = nil,
                sameTimestamp: Bool = false) -> [Message]? {
        update(id) { conversation in
            let newest = conversation.messages.last?.createdAt ?? 0
            var at = max(Timestamp.now(), newest)
            var added: [Message] = []
            for (role, content) in roleAndContent {
                added.append(Message(id: Self.newID(), userID: userID ?? conversation.userID, role: role, content: content, createdAt: at))
                if !sameTimestamp { at += 1 }
            }
            conversation.messages += added
            conversation.updatedAt = max(conversation.updatedAt, at)
            return added
        }
    }

    /// `count` alternating user/assistant messages ("Seeded message N of COUNT") after the
    /// newest, `perTimestamp` consecutive ones sharing one created_at, one millisecond apart.
    func appendSeeded(count: Int, perTimestamp: Int, to id: String) -> Int? {
        update(id) { conversation in
            let start = max(Timestamp.now(), (conversation.messages.last?.createdAt ?? 0) + 1)
            conversation.messages.reserveCapacity(conversation.messages.count + count)
            for n in 0..<count {
                conversation.messages.append(Message(
                    id: Self.newID(), userID: conversation.userID, role: n % 2 == 0 ? "user" : "assistant", content: "Seeded message \(n + 1) of \(count)",
                    createdAt: start + Int64(n / perTimestamp)))
            }
            conversation.updatedAt = max(conversation.updatedAt, conversation.messages.last?.createdAt ?? 0)
            return count
        }
    }

    /// A message by id.
    func message(_ messageID: String) -> Message? {
        data.withLock { data in
            for conversation in data.conversations.values {
                if let message = conversation.messages.first(where: { $0.id == messageID }) { return message }
            }
            return nil
        }
    }

    func deleteMessage(_ messageID: String) -> Bool {
        data.withLock { data in
            for (id, var conversation) in data.conversations {
                guard let index = conversation.messages.firstIndex(where: { $0.id == messageID }) else { continue }
                conversation.messages.remove(at: index)
                data.conversations[id] = conversation
                return true
            }
            return false
        }
    }

    // MARK: Facts

    /// fact.service.ts:311-346: `ORDER BY confidence DESC, last_mentioned_at DESC` (every user's for
    /// nil, as search without a user_id); a change
    /// (updateFact) leaves last_mentioned_at as it was: the time the fact was made.
    func facts(ofUser userID: String?, active: Bool?, category: String? = nil, minConfidence: Double? = nil,
               limit: Int, offset: Int) -> [Fact] {
        data.withLock { data in
            let all = data.facts.enumerated().filter {
                (userID == nil || $0.element.userID == userID) && (active == nil || $0.element.isActive == active)
                    && (category == nil || $0.element.category == category) && $0.element.confidence >= (minConfidence ?? 0)
            }
                .sorted { ($0.element.confidence, $0.element.createdAt, $0.offset) > ($1.element.confidence, $1.element.createdAt, $1.offset) }
                .map(\.element)
            return Self.slice(all, limit: limit, offset: offset)
        }
    }

    func activeFacts(ofUser userID: String) -> [Fact] {
        data.withLock { $0.facts.filter { $0.userID == userID && $0.isActive } }
    }

    /// Stores every extracted fact, also one the user has already: lucid-agent's createFact
    /// (fact.service.ts:226-260 at 8cdb90b) inserts without looking; returns those created.
    func addFacts(_ extracted: [LucidFactExtractor.Extracted], userID: String) -> [Fact] {
        data.withLock { data in
            var created: [Fact] = []
            let now = Timestamp.now()
            for fact in extracted {
                created.append(Fact(
                    id: Self.newID(), userID: userID, content: fact.content, category: fact.category,
                    confidence: fact.confidence, isActive: true, createdAt: now, updatedAt: now))
            }
            data.facts += created
            return created
        }
    }

    struct FactChange: Sendable {
        var content: String?
        var category: String?
        var confidence: Double?
        var isActive: Bool?
    }

    /// updateFact (fact.service.ts:360-414): the fields given, and updated_at; with none the
    /// fact is returned as it is.
    func changeFact(_ id: String, _ change: FactChange) -> Fact? {
        data.withLock { data in
            guard let index = data.facts.firstIndex(where: { $0.id == id }) else { return nil }
            var fact = data.facts[index]
            if let content = change.content { fact.content = content }
            if let category = change.category { fact.category = category }
            if let confidence = change.confidence { fact.confidence = confidence }
            if let active = change.isActive { fact.isActive = active }
            guard change.content != nil || change.category != nil || change.confidence != nil || change.isActive != nil
            else { return fact }
            fact.updatedAt = max(Timestamp.now(), fact.updatedAt)
            data.facts[index] = fact
            return fact
        }
    }

    static func slice<T>(_ items: [T], limit: Int, offset: Int) -> [T] {
        guard offset < items.count else { return [] }
        return Array(items[offset..<min(items.count, offset + limit)])
    }
}
