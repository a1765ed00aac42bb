import PSCore

/// A conversation and its messages, oldest first, with an index from message id to
/// position so that a page at any cursor costs O(limit), not O(history).
struct Conversation: Sendable {
    enum Kind: Sendable, Equatable {
        case global
        case agent(pageID: String)
    }

    let id: String
    var title: String
    let kind: Kind
    let createdAt: Int64
    var updatedAt: Int64
    private(set) var messages: [StoredMessage] = []
    private var positions: [String: Int] = [:]
    /// Bumped on every change; the current server reports it with each history page.
    private(set) var rev = 0

    init(id: String, title: String, kind: Kind, createdAt: Int64) {
        self.id = id
        self.title = title
        self.kind = kind
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }

    func position(of messageID: String) -> Int? { positions[messageID] }

    /// Adds a message; one whose id is already stored replaces the stored one in place (a
    /// client resending the same user message must not duplicate it).
    mutating func append(_ message: StoredMessage) {
        if let existing = positions[message.id] {
            messages[existing] = message
        } else {
            positions[message.id] = messages.count
            messages.append(message)
        }
        updatedAt = max(updatedAt, message.createdAt)
        rev += 1
    }

    mutating func reserve(_ count: Int) {
        messages.reserveCapacity(count)
        positions.reserveCapacity(count)
    }

    var lastMessageAt: Int64? { messages.last?.createdAt }

    /// The conversation object both dialects return (`GET /api/ai_conversations/global`,
    /// the list of `GET /api/ai/global`).
    var summary: JSON {
        let contextID: JSON
        if case .agent(let pageID) = kind { contextID = .string(pageID) } else { contextID = .null }
        return [
            "id": .string(id), "title": .string(title), "type": kind == .global ? "global" : "page",
            "contextId": contextID,
            "lastMessageAt": lastMessageAt.map { .string(Timestamp.iso8601($0)) } ?? .null,
            "createdAt": .string(Timestamp.iso8601(createdAt)), "updatedAt": .string(Timestamp.iso8601(updatedAt)),
        ]
    }
}
