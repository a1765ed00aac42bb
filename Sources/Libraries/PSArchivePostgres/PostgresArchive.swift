#if canImport(Glibc)
import Glibc
#endif
import PSArchive
import PSCore
import PostgresNIO

/// The archive in a PostgreSQL database (`--db postgresql://…`), for an archive a team shares:
/// the same records keyed the same way as in SQLite, searched with PostgreSQL's full-text
/// search: a tsvector of each message's text (weight A), reasoning (B), tool names (C) and tool
/// input and output (D) with the `simple` configuration (no stemming, no stop words, as FTS5's
/// default tokenizer), queries in websearch_to_tsquery's syntax, ranked by ts_rank, snippets by
/// ts_headline with the same markers. One connection; each batch one transaction.
public final class PostgresArchive: ArchiveStore {
    let connection: PostgresConnection
    let url: PostgresURL
    /// PostgresNIO's log is not shown: it would name the server and user.
    let logger: Logger = {
        var logger = Logger(label: "ps-archive")
        logger.logLevel = .critical
        return logger
    }()

    public init(url text: String, create: Bool) throws {
        var url = try PostgresURL(text)
        // As libpq: without a password in the URL, PGPASSWORD's (which keeps it out of argv).
        if url.password == nil, let password = getenv("PGPASSWORD").map({ String(cString: $0) }), !password.isEmpty {
            url.password = password
        }
        self.url = url
        var configuration: PostgresConnection.Configuration
        if url.host.hasPrefix("/") {
            configuration = .init(unixSocketPath: url.host + "/.s.PGSQL.\(url.port)", username: url.user,
                                  password: url.password, database: url.database)
        } else {
            let tls: PostgresConnection.Configuration.TLS = url.requireTLS
                ? .require(try NIOSSLContext(configuration: .makeClientConfiguration())) : .disable
            configuration = .init(host: url.host, port: url.port, username: url.user, password: url.password,
                                  database: url.database, tls: tls)
        }
        let logger = self.logger
        do {
            connection = try Blocking.run { [configuration] in
                try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
            }
        } catch {
            throw Self.failure(error, url: url, connecting: true)
        }
        if create {
            try run("BEGIN")
            for statement in Self.schema { try run(statement) }
            try run("COMMIT")
        } else {
            try requireSchema()
        }
    }

    deinit {
        let connection = self.connection
        try? Blocking.run { try await connection.close() }
    }

    static let lockKey = 0x7073_6172_6368  // "psarch": the schema is made by one writer at a time

    /// One statement each (the extended protocol takes one at a time), in one transaction.
    static let schema = [
        "SELECT pg_advisory_xact_lock(\(lockKey))",
        """
        CREATE TABLE IF NOT EXISTS ps_archive_messages(
          seq bigserial NOT NULL, source text NOT NULL, id text NOT NULL, conversation text, role text NOT NULL,
          created text, deleted boolean NOT NULL DEFAULT false, record text NOT NULL,
          body text NOT NULL, document tsvector NOT NULL, PRIMARY KEY(source, id))
        """,
        "CREATE INDEX IF NOT EXISTS ps_archive_messages_document ON ps_archive_messages USING gin(document)",
        "CREATE INDEX IF NOT EXISTS ps_archive_messages_seq ON ps_archive_messages(seq)",
        """
        CREATE TABLE IF NOT EXISTS ps_archive_conversations(
          source text NOT NULL, id text NOT NULL, title text, record text NOT NULL, PRIMARY KEY(source, id))
        """,
    ]

    private func requireSchema() throws {
        var found = false
        try query("SELECT to_regclass('ps_archive_messages') IS NOT NULL") { row in found = try row.decode(Bool.self) }
        if !found { throw ToolError(.notFound, "\(url): no archive there (ps-archive makes one)") }
    }

    // MARK: Running statements

    /// One statement without values or rows.
    private func run(_ sql: String) throws { try query(sql) }

    /// One statement with values; `row` is called for each row, in order.
    func query(_ sql: String, _ values: [String?] = [], limit: Int? = nil, _ row: (PostgresRow) throws -> Void = { _ in }) throws {
        var bindings = PostgresBindings()
        for value in values { bindings.append(value) }
        if let limit { bindings.append(limit) }
        let statement = PostgresQuery(unsafeSQL: sql, binds: bindings)
        let connection = self.connection, logger = self.logger
        let rows: [PostgresRow]
        do {
            rows = try Blocking.run { try await connection.query(statement, logger: logger).collect() }
        } catch {
            throw Self.failure(error, url: url)
        }
        do {
            for each in rows { try row(each) }
        } catch is PostgresDecodingError {
            throw ToolError(.failure, "\(url): a column of an unexpected type (not an archive ps-archive made?)")
        }
    }

    /// One line for any failure, naming the database without its password.
    static func failure(_ error: Error, url: PostgresURL, connecting: Bool = false) -> ToolError {
        guard let error = error as? PSQLError else {
            return ToolError(connecting ? .networkError : .failure, "\(url): \(error)")
        }
        if let message = error.serverInfo?[.message] {
            let state = error.serverInfo?[.sqlState] ?? ""
            // 28P01 bad password, 28000 no such role or no entry in pg_hba.conf.
            let status: ExitStatus = state.hasPrefix("28") ? .authenticationNeeded : state == "3D000" ? .notFound : .failure
            return ToolError(status, "\(url): \(message)")
        }
        let cause = error.underlying.map { " (\($0))" } ?? ""
        return ToolError(connecting ? .networkError : .failure, "\(url): \(error.code)\(cause)")
    }

    // MARK: ArchiveStore

    public func begin() throws { try run("BEGIN") }
    public func commit() throws { try run("COMMIT") }

    public func delete(source: String, id: String, keep: Bool) throws {
        try query(keep ? "UPDATE ps_archive_messages SET deleted = true WHERE source = $1 AND id = $2 AND NOT deleted"
                       : "DELETE FROM ps_archive_messages WHERE source = $1 AND id = $2", [source, id])
    }

    public func storeConversation(source: String, id: String, title: String?, record: String) throws {
        try query("""
            INSERT INTO ps_archive_conversations(source, id, title, record) VALUES ($1, $2, $3, $4)
            ON CONFLICT(source, id) DO UPDATE SET title = excluded.title, record = excluded.record
            WHERE ps_archive_conversations.record IS DISTINCT FROM excluded.record
            """, [source, id, title, record])
    }

    public func statistics() throws -> [SourceStatistics] {
        var result: [SourceStatistics] = []
        try query("""
            SELECT s.source,
              (SELECT count(*) FROM ps_archive_messages m WHERE m.source = s.source),
              (SELECT count(*) FROM (SELECT conversation FROM ps_archive_messages m WHERE m.source = s.source AND conversation IS NOT NULL
                                     UNION SELECT id FROM ps_archive_conversations c WHERE c.source = s.source) x),
              (SELECT min(created COLLATE "C") FROM ps_archive_messages m WHERE m.source = s.source),
              (SELECT max(created COLLATE "C") FROM ps_archive_messages m WHERE m.source = s.source)
            FROM (SELECT source FROM ps_archive_messages UNION SELECT source FROM ps_archive_conversations) s
            ORDER BY s.source COLLATE "C"
            """) { row in
            let (source, messages, conversations, oldest, newest) = try row.decode((String, Int, Int, String?, String?).self)
            result.append(SourceStatistics(source: source, messages: messages, conversations: conversations, oldest: oldest, newest: newest))
        }
        return result
    }

    /// Conversations, then messages in the order first stored, read a thousand rows at a time
    /// (keyset paging), so memory stays flat in the archive's size.
    public func export(source: String?, _ body: (String) throws -> Void) throws {
        var after: (source: String, id: String)? = nil
        repeat {
            var page: [(String, String, String)] = []
            try query("""
                SELECT source, id, record FROM ps_archive_conversations
                WHERE ($1::text IS NULL OR source = $1)
                  AND ($2::text IS NULL OR source COLLATE "C" > $2 OR (source = $2 AND id COLLATE "C" > $3))
                ORDER BY source COLLATE "C", id COLLATE "C" LIMIT $4
                """, [source, after?.source, after?.id], limit: 1000) { row in page.append(try row.decode((String, String, String).self)) }
            for (_, _, record) in page { try body(record) }
            after = page.last.map { ($0.0, $0.1) }
        } while after != nil
        var seq: Int? = 0
        repeat {
            var page: [(Int, String)] = []
            try query("""
                SELECT seq, record FROM ps_archive_messages WHERE ($1::text IS NULL OR source = $1) AND seq > $2::text::bigint
                ORDER BY seq LIMIT $3
                """, [source, String(seq ?? 0)], limit: 1000) { row in page.append(try row.decode((Int, String).self)) }
            for (_, record) in page { try body(record) }
            seq = page.last?.0
        } while seq != nil
    }

    /// ts_headline's options: the match markers ArchiveHit names, about as long a snippet as FTS5's.
    static let headlineOptions = "StartSel=\"\(ArchiveHit.matchStart)\", StopSel=\"\(ArchiveHit.matchEnd)\", MaxWords=16, MinWords=6, ShortWord=0"

    public func search(_ query: ArchiveQuery, _ body: (ArchiveHit) throws -> Void) throws {
        var hits: [ArchiveHit] = []
        try self.query("""
            SELECT m.source, m.record, c.record, (-ts_rank(m.document, q))::float8, ts_headline('simple', m.body, q, $7)
            FROM websearch_to_tsquery('simple', $1) q
            JOIN ps_archive_messages m ON m.document @@ q
            LEFT JOIN ps_archive_conversations c ON c.source = m.source AND c.id = m.conversation
            WHERE ($2::text IS NULL OR m.source = $2) AND ($3::text IS NULL OR m.conversation = $3)
              AND ($4::text IS NULL OR m.role = $4)
              AND ($5::text IS NULL OR m.created COLLATE "C" >= $5) AND ($6::text IS NULL OR m.created COLLATE "C" < $6)
            ORDER BY 4, m.seq LIMIT $8
            """, [query.text, query.source, query.conversationId, query.role, query.since, query.until, Self.headlineOptions],
            limit: query.limit) { row in
            let (source, message, conversation, rank, snippet) = try row.decode((String, String, String?, Double, String).self)
            // Words of a phrase matched one after another are one marked span, as FTS5 marks them.
            let joined = Self.joiningAdjacentMatches(snippet)
            hits.append(ArchiveHit(source: source, message: message, conversation: conversation, rank: rank, snippet: joined))
        }
        for hit in hits { try body(hit) }
    }

    /// "[launch] [date]" (end marker, one space, start marker) as "[launch date]".
    static func joiningAdjacentMatches(_ snippet: String) -> String {
        var scalars = Array(snippet.unicodeScalars)
        var index = 0
        var result = String.UnicodeScalarView()
        while index < scalars.count {
            if index + 2 < scalars.count, Character(scalars[index]) == ArchiveHit.matchEnd, scalars[index + 1] == " ",
               Character(scalars[index + 2]) == ArchiveHit.matchStart {
                result.append(" ")
                index += 3
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        scalars = []
        return String(result)
    }
}
