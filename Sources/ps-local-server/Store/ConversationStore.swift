import PSCore
import Synchronization

/// Every conversation the server holds, in memory only. One lock; each operation is short
/// (paging copies at most `limit` messages), so streams and exports do not wait on each other.
final class ConversationStore: Sendable {
    private let conversations = Mutex<[String: Conversation]>([:])

    func insert(_ conversation: Conversation) {
        conversations.withLock { $0[conversation.id] = conversation }
    }

    func conversation(_ id: String) -> Conversation? {
        conversations.withLock { $0[id] }
    }

    /// Appends to an existing conversation; false when there is no such conversation.
    @discardableResult
    func append(_ message: StoredMessage, to id: String) -> Bool {
        conversations.withLock { all in
            guard all[id] != nil else { return false }
            all[id]!.append(message)
            return true
        }
    }

    /// A page of history; nil for an unknown conversation.
    func page(of id: String, query: HistoryQuery, compoundCursor: Bool) -> (page: HistoryPage, rev: Int)? {
        conversations.withLock { all in
            guard let conversation = all[id] else { return nil }
            return (HistoryPage(conversation, query: query, compoundCursor: compoundCursor), conversation.rev)
        }
    }

    /// Removes a message from whichever conversation holds it; false when none does.
    func removeMessage(_ messageID: String) -> Bool {
        conversations.withLock { all in
            for (id, conversation) in all where conversation.position(of: messageID) != nil {
                all[id]!.remove(messageID)
                return true
            }
            return false
        }
    }

    /// Runs `body` on a stored conversation; nil when there is no such conversation.
    func update<T>(_ id: String, _ body: (inout Conversation) -> T) -> T? {
        conversations.withLock { all in
            guard all[id] != nil else { return nil }
            return body(&all[id]!)
        }
    }

    /// Conversations of one kind, most recently active first.
    func list(kind: Conversation.Kind) -> [Conversation] {
        list { $0.kind == kind }
    }

    /// The conversations `include` accepts, most recently active first.
    func list(where include: (Conversation) -> Bool) -> [Conversation] {
        conversations.withLock { all in
            all.values.filter(include).sorted {
                ($0.updatedAt, $0.id) > ($1.updatedAt, $1.id)
            }
        }
    }

    @discardableResult
    func rename(_ id: String, to title: String) -> Conversation? {
        conversations.withLock { all in
            guard all[id] != nil else { return nil }
            all[id]!.title = title
            return all[id]
        }
    }

    func remove(_ id: String) -> Bool {
        conversations.withLock { $0.removeValue(forKey: id) != nil }
    }
}
