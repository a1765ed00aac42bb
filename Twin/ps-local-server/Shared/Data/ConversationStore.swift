import PSCore
import Synchronization

/// Every conversation the server holds, in memory only. One lock; each operation is short
/// (paging copies at most `limit` messages), so streams and exports do not wait on each other.
///
/// Like the current server's message repository, the store is where every message write
/// announces itself (`events`, the current dialect only), under the same lock, so events
/// leave in the order of the writes and their revs.
final class ConversationStore: Sendable {
    private let conversations = Mutex<[String: Conversation]>([:])
    /// The ids of deleted conversations: the real servers keep the row (isActive false), so
    /// a send naming one is refused rather than starting it anew.
    private let deletedIDs = Mutex<Set<String>>([])
    private let events: ConversationEvents?

    init(events: ConversationEvents? = nil) { self.events = events }

    func insert(_ conversation: Conversation) {
        conversations.withLock { $0[conversation.id] = conversation }
    }

    func conversation(_ id: String) -> Conversation? {
        conversations.withLock { $0[id] }
    }

    /// Appends to an existing conversation; false when there is no such conversation. The
    /// event says `status` and carries `announceAs` instead of the message when given (a
    /// route whose event is not the stored message).
    @discardableResult
    func append(_ message: StoredMessage, to id: String, status: String = "complete", announceAs: JSON? = nil) -> Bool {
        conversations.withLock { all in
            guard all[id] != nil else { return false }
            let existed = all[id]!.holds(message.id)
            all[id]!.append(message)
            if let events {
                let event = announceAs ?? ConversationEvents.eventMessage(message, status: status)
                if existed {
                    events.messageUpdated(all[id]!.eventContext, message: event)
                } else {
                    events.messageCreated(all[id]!.eventContext, message: event)
                }
            }
            return true
        }
    }

    /// A reply starts: its placeholder row, announced as an empty 'streaming' message.
    func beginReply(_ messageID: String, in id: String) {
        conversations.withLock { all in
            guard all[id] != nil else { return }
            all[id]!.beginReply(messageID)
            let placeholder: JSON = [
                "id": .string(messageID), "role": "assistant", "parts": [["type": "text", "text": ""]],
                "status": "streaming", "source": .null, "createdAt": .string(Timestamp.iso8601(Timestamp.now())),
            ]
            events?.messageCreated(all[id]!.eventContext, message: placeholder)
        }
    }

    func abandonReply(_ messageID: String, in id: String) {
        conversations.withLock { all in _ = all[id]?.abandonReply(messageID) }
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
                events?.messageDeleted(all[id]!.eventContext, messageID: messageID)
                return true
            }
            return false
        }
    }

    /// Removes a conversation's messages as one undo, announced once (`undo_applied`).
    func undo(_ messageIDs: [String], in id: String, mode: String) {
        conversations.withLock { all in
            guard all[id] != nil else { return }
            all[id]!.remove(messageIDs)
            events?.undoApplied(all[id]!.eventContext, mode: mode, affected: messageIDs)
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
        guard conversations.withLock({ $0.removeValue(forKey: id) != nil }) else { return false }
        deletedIDs.withLock { _ = $0.insert(id) }
        return true
    }

    func wasDeleted(_ id: String) -> Bool { deletedIDs.withLock { $0.contains(id) } }
}
