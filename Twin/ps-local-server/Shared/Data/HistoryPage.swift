import Hummingbird
import HummingbirdCore
import PSCore

/// The paging parameters of a history GET, read as the real routes read them.
struct HistoryQuery: Sendable {
    /// How a route treats a `direction` it does not know.
    enum UnknownDirection: Sendable {
        /// The global routes: anything but `before` pages forward, and is echoed as given.
        case meansAfter
        /// The page-agent routes: anything but `before`/`after` becomes `before`.
        case becomesBefore
    }

    var limit = 50
    var cursor: String?
    /// As echoed in `pagination.direction`.
    var direction = "before"
    var isBefore: Bool { direction == "before" }

    /// `limit` as packages/lib/src/db/bounded-query.ts parseBoundedIntParam reads it
    /// (JavaScript parseInt, default 50, clamped to 1...200): never an error.
    init(_ uri: URI, unknownDirection: UnknownDirection) {
        let query = uri.queryParameters
        if let text = query["limit"], let value = Self.parseInt(String(text)) { limit = min(max(value, 1), 200) }
        if let text = query["cursor"], !text.isEmpty { cursor = String(text) }
        if let text = query["direction"], !text.isEmpty {
            switch unknownDirection {
            case .meansAfter: direction = String(text)
            case .becomesBefore: direction = text == "after" ? "after" : "before"
            }
        }
    }

    /// JavaScript's parseInt(text, 10): leading white space, a sign, then as many digits as
    /// there are; nil (NaN) when there are none.
    static func parseInt(_ text: String) -> Int? {
        var scalars = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        var negative = false
        if let sign = scalars.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            scalars = scalars.dropFirst()
        }
        let digits = scalars.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        let value = Int(digits.prefix(18)) ?? Int.max
        return negative ? -value : value
    }
}

/// One page of a conversation's history, chosen as both generations choose it
/// (apps/web/src/app/api/ai/global/[id]/messages/route.ts and the page-agents messages
/// route): the cursor only filters, then the NEWEST `limit` matching rows are taken and
/// returned oldest first. `nextCursor` is the page's oldest message (to go further back),
/// `prevCursor` its newest. An unknown cursor adds no condition.
///
/// The current server compares the compound key (createdAt, id), so rows sharing a
/// timestamp are neither skipped nor repeated; the legacy server compared createdAt alone,
/// strictly, and skips the rows that share the cursor's timestamp.
struct HistoryPage: Sendable {
    var messages: ArraySlice<StoredMessage>
    var hasMore: Bool
    var nextCursor: String?
    var prevCursor: String?

    init(_ conversation: Conversation, query: HistoryQuery, compoundCursor: Bool) {
        let all = conversation.messages
        var lower = 0, upper = all.count
        if let cursor = query.cursor, let position = conversation.position(of: cursor) {
            let createdAt = all[position].createdAt
            if query.isBefore {
                upper = compoundCursor ? position : conversation.firstIndex(notBefore: createdAt)
            } else {
                lower = compoundCursor ? position + 1 : conversation.firstIndex(after: createdAt)
            }
        }
        let rows = all[max(lower, upper - query.limit - 1)..<max(lower, upper)]
        hasMore = rows.count > query.limit
        messages = hasMore ? rows.dropFirst() : rows
        nextCursor = hasMore ? messages.first?.id : nil
        prevCursor = messages.last?.id
    }

    func body(query: HistoryQuery, dialect: Dialect, rev: Int?) -> JSON {
        var object = JSONObject()
        object["messages"] = .array(messages.map { $0.rendered(for: dialect) })
        object["pagination"] = [
            "hasMore": .bool(hasMore), "nextCursor": nextCursor.map(JSON.string) ?? .null,
            "prevCursor": prevCursor.map(JSON.string) ?? .null, "limit": .integer(Int64(query.limit)),
            "direction": .string(query.direction),
        ]
        if dialect.isCurrent { object["rev"] = .integer(Int64(rev ?? 0)) }
        return .object(object)
    }

    /// What the current server answers for a conversation that does not exist (yet) or is
    /// someone else's: 200, no messages, fixed pagination and a null rev.
    static let missingConversationBody: JSON = [
        "messages": [],
        "pagination": ["hasMore": false, "nextCursor": .null, "prevCursor": .null, "limit": 50, "direction": "before"],
        "rev": .null,
    ]
}
