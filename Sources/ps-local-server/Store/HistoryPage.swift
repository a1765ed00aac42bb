import Hummingbird
import HummingbirdCore
import PSCore

/// Cursor paging over a conversation's history, as both generations do it: `limit`
/// (default 50, max 200), `cursor` (a message id) and `direction` (before|after). Messages
/// in a page are oldest first.
struct HistoryQuery: Sendable {
    enum Direction: String, Sendable { case before, after }

    var limit = 50
    var cursor: String?
    var direction = Direction.before

    /// Reads the query string; out-of-range limits are clamped, an unknown direction is a 400.
    init(_ uri: URI) throws {
        let query = uri.queryParameters
        if let text = query["limit"] {
            guard let value = Int(text) else { throw Refusal.badRequest("limit must be a number") }
            limit = min(max(value, 1), 200)
        }
        if let text = query["cursor"], !text.isEmpty { cursor = String(text) }
        if let text = query["direction"] {
            guard let value = Direction(rawValue: String(text)) else {
                throw Refusal.badRequest("direction must be before or after")
            }
            direction = value
        }
    }
}

struct HistoryPage: Sendable {
    var messages: ArraySlice<StoredMessage>
    var hasMore: Bool
    /// The id to pass as `cursor` (same direction) for the next page, when there is one.
    var nextCursor: String?
    /// The id at the other end of this page, to walk the other way.
    var prevCursor: String?

    /// `before`: the newest `limit` messages older than the cursor (no cursor: the newest).
    /// `after`: the oldest `limit` messages newer than the cursor (no cursor: the oldest).
    /// An unknown cursor gives an empty page, never the whole history again.
    init(_ conversation: Conversation, query: HistoryQuery) {
        let all = conversation.messages
        var range: Range<Int>
        switch query.direction {
        case .before:
            let end: Int
            if let cursor = query.cursor {
                end = conversation.position(of: cursor) ?? 0
            } else {
                end = all.count
            }
            range = max(0, end - query.limit)..<end
            hasMore = range.lowerBound > 0
            nextCursor = hasMore ? all[range.lowerBound].id : nil
            prevCursor = range.isEmpty ? nil : all[range.upperBound - 1].id
        case .after:
            let start: Int
            if let cursor = query.cursor {
                start = conversation.position(of: cursor).map { $0 + 1 } ?? all.count
            } else {
                start = 0
            }
            range = start..<min(all.count, start + query.limit)
            hasMore = range.upperBound < all.count
            nextCursor = hasMore ? all[range.upperBound - 1].id : nil
            prevCursor = range.isEmpty ? nil : all[range.lowerBound].id
        }
        messages = all[range]
    }

    static let empty = HistoryPage()

    private init() {
        messages = []
        hasMore = false
    }

    func body(query: HistoryQuery, dialect: Dialect, rev: Int?) -> JSON {
        var object = JSONObject()
        object["messages"] = .array(messages.map { $0.rendered(for: dialect) })
        object["pagination"] = [
            "hasMore": .bool(hasMore), "nextCursor": nextCursor.map(JSON.string) ?? .null,
            "prevCursor": prevCursor.map(JSON.string) ?? .null, "limit": .integer(Int64(query.limit)),
            "direction": .string(query.direction.rawValue),
        ]
        if dialect.isCurrent { object["rev"] = .integer(Int64(rev ?? 0)) }
        return .object(object)
    }
}
