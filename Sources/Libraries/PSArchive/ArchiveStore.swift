/// Where the archive keeps its records. The commands see only this, so another store (a
/// server database) can stand beside the SQLite one.
public protocol ArchiveStore: AnyObject {
    /// Starts a batch: what is stored until `commit()` is kept all together or not at all.
    func begin() throws
    func commit() throws
    /// After the last batch of an ingest: a store may reorganise what it wrote (SQLite merges
    /// its full-text index after a large ingest).
    func finishIngest() throws
    /// Stores a message, replacing one with the same source and id; true when anything changed.
    @discardableResult func store(_ message: ArchivedMessage) throws -> Bool
    /// Stores messages, leaving what `store` one after another would; a store may send them
    /// together (PostgreSQL: one statement).
    func store(_ messages: [ArchivedMessage]) throws
    /// Removes a message, or marks it deleted when `keep` (it stays searchable and exported).
    func delete(source: String, id: String, keep: Bool) throws
    func storeConversation(source: String, id: String, title: String?, record: String) throws
    /// Per source: messages, conversations, the oldest and newest createdAt.
    func statistics() throws -> [SourceStatistics]
    /// Every record stored (conversations first, then messages in the order they came), as it was read.
    func export(source: String?, _ body: (String) throws -> Void) throws
    /// Messages matching a full-text query, best first.
    func search(_ query: ArchiveQuery, _ body: (ArchiveHit) throws -> Void) throws
}

extension ArchiveStore {
    public func store(_ messages: [ArchivedMessage]) throws {
        for message in messages { try store(message) }
    }
}

/// Which store `--db` names: a `postgresql://` (or `postgres://`) URL, else an SQLite file.
/// ps-archive and ps-search keep SQLite files; ps-archive-postgres, the one executable that links
/// PostgresNIO, PostgreSQL databases.
public enum ArchiveStores {
    /// Whether `db` names a PostgreSQL database rather than an SQLite file.
    public static func isPostgres(_ db: String) -> Bool {
        db.hasPrefix("postgresql://") || db.hasPrefix("postgres://")
    }
}

extension ArchiveStore {
    public func finishIngest() throws {}
}

public struct SourceStatistics: Sendable {
    public var source: String
    public var messages: Int
    public var conversations: Int
    public var oldest: String?
    public var newest: String?

    public init(source: String, messages: Int, conversations: Int, oldest: String?, newest: String?) {
        self.source = source
        self.messages = messages
        self.conversations = conversations
        self.oldest = oldest
        self.newest = newest
    }
}

public struct ArchiveQuery: Sendable {
    public var text: String
    public var source: String?
    public var conversationId: String?
    public var role: String?
    public var since: String?
    public var until: String?
    public var limit: Int

    public init(text: String, source: String? = nil, conversationId: String? = nil, role: String? = nil,
                since: String? = nil, until: String? = nil, limit: Int = 20) {
        self.text = text
        self.source = source
        self.conversationId = conversationId
        self.role = role
        self.since = since
        self.until = until
        self.limit = limit
    }
}

/// One search result: the message record, its conversation's record when the archive has it,
/// the bm25 rank (lower is better) and a snippet whose matches lie between the markers
/// `ArchiveHit.matchStart` and `ArchiveHit.matchEnd`.
public struct ArchiveHit: Sendable {
    public static let matchStart: Character = "\u{2}"
    public static let matchEnd: Character = "\u{3}"
    public var source: String
    public var message: String
    public var conversation: String?
    public var rank: Double
    public var snippet: String

    public init(source: String, message: String, conversation: String?, rank: Double, snippet: String) {
        self.source = source
        self.message = message
        self.conversation = conversation
        self.rank = rank
        self.snippet = snippet
    }
}
