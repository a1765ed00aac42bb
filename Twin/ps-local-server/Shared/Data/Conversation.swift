import PSCore

/// A conversation and its messages in the servers' order, (createdAt, id) ascending, with an
/// index from message id to position so that a page at any cursor costs O(limit + log n),
/// not O(history).
struct Conversation: Sendable {
    enum Kind: Sendable, Equatable {
        case global
        case agent(pageID: String)
        /// Made by `POST /api/v1/conversations` (type 'client'), in a drive or none; the
        /// agent page is stamped on it by its first chat completion.
        case client(driveID: String?)

        var typeName: String {
            switch self {
            case .global: return "global"
            case .agent: return "page"
            case .client: return "client"
            }
        }

        /// The conversations row's contextId: the page of a page conversation, the drive of
        /// a client thread, none for Global.
        var contextID: String? {
            switch self {
            case .global: return nil
            case .agent(let pageID): return pageID
            case .client(let driveID): return driveID
            }
        }
    }

    let id: String
    var title: String
    let kind: Kind
    let createdAt: Int64
    var updatedAt: Int64
    /// A client thread's agent page, written once by its first chat completion.
    var agentPageID: String?
    private(set) var messages: [StoredMessage] = []
    private var positions: [String: Int] = [:]
    /// Bumped on every change; the current server reports it with each history page.
    private(set) var rev = 0
    /// Replies being generated: their 'streaming' placeholder rows, which history leaves out.
    private var pendingReplies: Set<String> = []

    init(id: String, title: String, kind: Kind, createdAt: Int64) {
        self.id = id
        self.title = title
        self.kind = kind
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }

    func position(of messageID: String) -> Int? { positions[messageID] }

    /// True when a write of this message id updates a row rather than creating one.
    func holds(_ messageID: String) -> Bool { positions[messageID] != nil || pendingReplies.contains(messageID) }

    /// The placeholder row a reply gets when its generation starts.
    mutating func beginReply(_ messageID: String) {
        pendingReplies.insert(messageID)
        rev += 1
    }

    /// A reply that ended with nothing to store leaves no row.
    mutating func abandonReply(_ messageID: String) {
        pendingReplies.remove(messageID)
    }

    /// Adds a message in (createdAt, id) order (at the end, unless its clock says otherwise);
    /// one whose id is already stored replaces the stored one in place (a client resending
    /// the same user message must not duplicate it).
    mutating func append(_ message: StoredMessage) {
        pendingReplies.remove(message.id)
        if let existing = positions[message.id] {
            let kept = messages[existing].createdAt
            messages[existing] = StoredMessage(
                id: message.id, role: message.role, parts: message.parts, createdAt: kept,
                storedAsEnvelope: message.storedAsEnvelope)
        } else {
            var index = messages.count
            while index > 0, (messages[index - 1].createdAt, messages[index - 1].id) > (message.createdAt, message.id) {
                index -= 1
            }
            messages.insert(message, at: index)
            for position in index..<messages.count { positions[messages[position].id] = position }
        }
        updatedAt = max(updatedAt, message.createdAt)
        rev += 1
    }

    mutating func remove(_ messageID: String) {
        guard let index = positions.removeValue(forKey: messageID) else { return }
        messages.remove(at: index)
        for position in index..<messages.count { positions[messages[position].id] = position }
        rev += 1
    }

    /// Removes messages in one write (one rev), as an undo does.
    mutating func remove(_ messageIDs: [String]) {
        let doomed = Set(messageIDs.filter { positions[$0] != nil })
        guard !doomed.isEmpty else { return }
        messages.removeAll { doomed.contains($0.id) }
        positions = [:]
        for (position, message) in messages.enumerated() { positions[message.id] = position }
        rev += 1
    }

    /// The first position whose message is not older than `createdAt`.
    func firstIndex(notBefore createdAt: Int64) -> Int { boundary { $0 < createdAt } }

    /// The first position whose message is newer than `createdAt`.
    func firstIndex(after createdAt: Int64) -> Int { boundary { $0 <= createdAt } }

    /// Binary search: the first position where `isBelow` no longer holds.
    private func boundary(_ isBelow: (Int64) -> Bool) -> Int {
        var low = 0, high = messages.count
        while low < high {
            let middle = (low + high) / 2
            if isBelow(messages[middle].createdAt) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    mutating func reserve(_ count: Int) {
        messages.reserveCapacity(count)
        positions.reserveCapacity(count)
    }

    var lastMessageAt: Int64? { messages.last?.createdAt }

    /// The agent page its messages belong to: a page conversation's, or a client thread's
    /// once stamped; none for Global.
    var pageID: String? {
        if case .agent(let pageID) = kind { return pageID }
        return agentPageID
    }

    /// Where the conversation lives, as its events say (ConversationEventScope).
    var eventScope: JSON {
        switch kind {
        case .agent(let pageID): return ["kind": "page", "pageId": .string(pageID)]
        case .client where agentPageID != nil: return ["kind": "page", "pageId": .string(agentPageID!)]
        case .global, .client: return ["kind": "global", "ownerId": .string(SeedData.userID)]
        }
    }

    var eventContext: ConversationEvents.Context {
        ConversationEvents.Context(conversationID: id, rev: rev, scope: eventScope, lastMessageAt: lastMessageAt)
    }

    /// The conversation object both dialects return (`GET /api/ai_conversations/global`,
    /// the list of `GET /api/ai/global`).
    var summary: JSON {
        [
            "id": .string(id), "title": .string(title), "type": .string(kind.typeName),
            "contextId": kind.contextID.map(JSON.string) ?? .null,
            "lastMessageAt": lastMessageAt.map { .string(Timestamp.iso8601($0)) } ?? .null,
            "createdAt": .string(Timestamp.iso8601(createdAt)), "updatedAt": .string(Timestamp.iso8601(updatedAt)),
        ]
    }
}
