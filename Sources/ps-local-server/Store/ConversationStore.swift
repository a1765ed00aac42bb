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

    /// A page of history; an unknown conversation is an empty page, as both servers answer.
    func page(of id: String, query: HistoryQuery) -> (page: HistoryPage, rev: Int) {
        conversations.withLock { all in
            guard let conversation = all[id] else { return (.empty, 0) }
            return (HistoryPage(conversation, query: query), conversation.rev)
        }
    }

    /// Conversations of one kind, most recently active first.
    func list(kind: Conversation.Kind) -> [Conversation] {
        conversations.withLock { all in
            all.values.filter { $0.kind == kind }.sorted {
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
