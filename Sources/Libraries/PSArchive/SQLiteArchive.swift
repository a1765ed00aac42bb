#if canImport(Glibc)
import Glibc
#endif
import PSCore

/// The archive in one SQLite file: WAL (readers never wait for a writer), a busy timeout (two
/// writers take turns), messages keyed by (source, id), and an FTS5 index whose columns the
/// view `message_text` reads out of each record (so the text is stored once, in the record).
public final class SQLiteArchive: ArchiveStore {
    let database: SQLiteDatabase
    /// Rows this connection put into the full-text index (new or changed messages).
    private var indexed = 0
    // A message is inserted, else updated: one upsert statement costs twice as much for a new
    // row (measured), and most rows of an ingest are new.
    private lazy var insertMessage = try! database.prepare("""
        INSERT INTO messages(source, id, conversation, role, created, record) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
        ON CONFLICT(source, id) DO NOTHING
        """)
    private lazy var updateMessage = try! database.prepare("""
        UPDATE messages SET conversation = ?3, role = ?4, created = ?5, record = ?6, deleted = 0
        WHERE source = ?1 AND id = ?2 AND (record IS NOT ?6 OR deleted)
        """)
    // A new message's index row: its columns from MessageText where they match the view byte for byte, else by the view.
    private lazy var indexColumns = try! database.prepare(
        "INSERT INTO message_fts(rowid, text, reasoning, tool, tool_io) VALUES (?1, ?2, ?3, NULL, NULL)")
    private lazy var indexFromView = try! database.prepare("""
        INSERT INTO message_fts(rowid, text, reasoning, tool, tool_io)
          SELECT rowid, text, reasoning, tool, tool_io FROM message_text WHERE rowid = ?1
        """)
    private lazy var findChanged = try! database.prepare(
        "SELECT rowid FROM messages WHERE source = ?1 AND id = ?2 AND (record IS NOT ?3 OR deleted)")
    private lazy var findRow = try! database.prepare("SELECT rowid FROM messages WHERE source = ?1 AND id = ?2")
    private lazy var findIndexed = try! database.prepare("SELECT 1 FROM message_fts_docsize WHERE id = ?1")
    private lazy var deleteMessage = try! database.prepare("DELETE FROM messages WHERE source = ?1 AND id = ?2")
    private lazy var markDeleted = try! database.prepare(
        "UPDATE messages SET deleted = 1 WHERE source = ?1 AND id = ?2 AND NOT deleted")
    private lazy var upsertConversation = try! database.prepare("""
        INSERT INTO conversations(source, id, title, record) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT(source, id) DO UPDATE SET title = excluded.title, record = excluded.record
        WHERE conversations.record IS NOT excluded.record
        """)

    /// The default file: $XDG_DATA_HOME/ps-tools/archive.sqlite, else ~/.local/share/ps-tools/archive.sqlite.
    public static func defaultPath() -> String? {
        if let data = getenv("XDG_DATA_HOME").map({ String(cString: $0) }), data.hasPrefix("/") {
            return data + "/ps-tools/archive.sqlite"
        }
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else { return nil }
        return home + "/.local/share/ps-tools/archive.sqlite"
    }

    /// The archive's mark in its file's header (PRAGMA application_id: "PSAR" in ASCII).
    static let applicationID = 0x5053_4152

    /// Opens (creating when `create`, with its folder) the archive at `path`. A new file is
    /// made readable by its owner alone (SQLite gives its -wal and -shm files the same mode). A
    /// file that is not an archive (another program's SQLite database, an empty file) is refused
    /// before anything is written to it (exit 1); an archive made before the mark is known by its
    /// tables, and marked by the next ps-archive that writes to it.
    public init(path: String, create: Bool) throws {
        if create {
            try Self.makeParentFolder(of: path)
            let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if file >= 0 { close(file) }
        } else if access(path, F_OK) != 0 {
            throw ToolError(.notFound, "\(path): no archive there (ps-archive makes one)")
        }
        database = try SQLiteDatabase(path: path)
        rankCounts = RankFunction.Counts(copy: RowLengths(database: database))
        terms = TermCounts(database: database)
        grams = CommonGrams(database: database)
        try database.execute("PRAGMA busy_timeout = 30000")
        try Self.checkIsArchive(database, new: create)
        if create {
            // Before the schema: its table of pairs is made by this tokenizer.
            try grams.addTokenizer()
            try database.execute("PRAGMA journal_mode = WAL")
            try withBusyRetry {
                try database.execute("BEGIN IMMEDIATE")
                try upgrade()
                try database.execute(Self.schema)
                try database.execute("COMMIT")
            }
        }
        try database.execute("PRAGMA synchronous = NORMAL")
    }

    /// Refuses a database that is neither an archive (marked, or with the archive's tables) nor,
    /// when `new` may be made, empty.
    private static func checkIsArchive(_ database: SQLiteDatabase, new: Bool) throws {
        let statement: SQLiteStatement
        do {
            statement = try database.prepare("""
                SELECT (SELECT application_id FROM pragma_application_id), (SELECT count(*) FROM sqlite_schema),
                  (SELECT count(*) FROM sqlite_schema WHERE name IN ('messages', 'conversations', 'message_text', 'message_fts'))
                """)
            guard try statement.step() else { return }
        } catch is ToolError where database.lastFailureWasNotADatabase {
            throw ToolError(.failure, "\(database.path): not an archive (not an SQLite database); it was left unchanged")
        }
        let (mark, objects, archiveObjects) = (statement.int(0), statement.int(1), statement.int(2))
        if mark == applicationID || (mark == 0 && archiveObjects == 4) || (new && mark == 0 && objects == 0) { return }
        let what = objects == 0 && mark == 0 ? "an empty database" : "another program's SQLite database"
        throw ToolError(.failure, "\(database.path): not an archive (\(what), without ps-archive's tables); it was left unchanged")
    }

    /// The version of the archive's schema (PRAGMA user_version). 1: the view reads the text
    /// after a NUL (SQLite's JSON functions end a string at \u0000, which it reads as \u0020).
    static let schemaVersion = 1

    /// The columns the full-text index holds, read out of each record.
    static let view = """
        CREATE VIEW IF NOT EXISTS message_text AS SELECT m.rowid AS rowid,
          coalesce((SELECT group_concat(json_extract(p.value, '$.text'), char(10)) FROM json_each(m.record, '$.parts') p
                    WHERE CASE WHEN p.type = 'object' THEN json_extract(p.value, '$.type') END = 'text'),
                   CASE WHEN json_type(m.record, '$.content') = 'text' THEN json_extract(m.record, '$.content') END) AS text,
          (SELECT group_concat(json_extract(p.value, '$.text'), char(10)) FROM json_each(m.record, '$.parts') p
           WHERE CASE WHEN p.type = 'object' THEN json_extract(p.value, '$.type') END = 'reasoning') AS reasoning,
          (SELECT group_concat(coalesce(json_extract(p.value, '$.toolName'), substr(json_extract(p.value, '$.type'), 6)), ' ')
           FROM json_each(m.record, '$.parts') p
           WHERE CASE WHEN p.type = 'object' THEN json_extract(p.value, '$.type') LIKE 'tool-%' OR json_extract(p.value, '$.type') = 'dynamic-tool' END) AS tool,
          (SELECT group_concat(coalesce(json_extract(p.value, '$.input'), '') || char(10) || coalesce(json_extract(p.value, '$.output'), ''), char(10))
           FROM json_each(m.record, '$.parts') p
           WHERE CASE WHEN p.type = 'object' THEN json_extract(p.value, '$.type') LIKE 'tool-%' OR json_extract(p.value, '$.type') = 'dynamic-tool' END) AS tool_io
          FROM (SELECT rowid, replace(record, '\\u0000', '\\u0020') AS record FROM messages) m
        """

    /// Brings an archive made by an earlier version to `schemaVersion`, in the caller's
    /// transaction: the view is made again, and the messages with a NUL indexed again through
    /// it (their text was cut at the NUL). Then the index has changed, and the copies ranking
    /// reads and the pairs of common words are made again at the end of the ingest.
    private func upgrade() throws {
        let version = try database.prepare("PRAGMA user_version")
        let view = try database.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'message_text'")
        guard try version.step(), version.int(0) < Self.schemaVersion, try view.step(), view.int(0) == 1 else { return }
        version.reset()
        view.reset()
        try database.execute("""
            CREATE TEMP TABLE rows_with_nul AS SELECT rowid FROM messages WHERE instr(record, '\\u0000')
              INTERSECT SELECT id FROM message_fts_docsize;
            INSERT INTO message_fts(message_fts, rowid, text, reasoning, tool, tool_io)
              SELECT 'delete', rowid, text, reasoning, tool, tool_io FROM message_text WHERE rowid IN temp.rows_with_nul;
            DROP VIEW message_text;
            \(Self.view);
            INSERT INTO message_fts(rowid, text, reasoning, tool, tool_io)
              SELECT rowid, text, reasoning, tool, tool_io FROM message_text WHERE rowid IN temp.rows_with_nul;
            DROP TABLE temp.rows_with_nul;
            """)
        indexed += database.changes
    }

    /// The tables, view, index and triggers, made when missing, in the caller's transaction. The
    /// triggers are made anew each time, so an archive keeps the current ones. A row is taken out
    /// of the index only when the index holds it: one another program inserted may not be yet,
    /// and FTS5 cannot take out what it never had.
    static let schema = """
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(schemaVersion);
        CREATE TABLE IF NOT EXISTS messages(
          rowid INTEGER PRIMARY KEY, source TEXT NOT NULL, id TEXT NOT NULL, conversation TEXT,
          role TEXT NOT NULL, created TEXT, deleted INTEGER NOT NULL DEFAULT 0, record TEXT NOT NULL,
          UNIQUE(source, id));
        CREATE TABLE IF NOT EXISTS conversations(
          source TEXT NOT NULL, id TEXT NOT NULL, title TEXT, record TEXT NOT NULL,
          PRIMARY KEY(source, id)) WITHOUT ROWID;
        \(view);
        CREATE VIRTUAL TABLE IF NOT EXISTS message_fts USING fts5(
          text, reasoning, tool, tool_io, content = 'message_text', content_rowid = 'rowid');
        \(RowLengths.schema);
        \(TermCounts.schema);
        \(CommonGrams.schema);
        DROP TRIGGER IF EXISTS messages_insert;
        DROP TRIGGER IF EXISTS messages_delete;
        DROP TRIGGER IF EXISTS messages_update_before;
        DROP TRIGGER IF EXISTS messages_update_after;
        CREATE TRIGGER messages_delete BEFORE DELETE ON messages BEGIN
          INSERT INTO message_fts(message_fts, rowid, text, reasoning, tool, tool_io)
            SELECT 'delete', rowid, text, reasoning, tool, tool_io FROM message_text
            WHERE rowid = old.rowid AND old.rowid IN (SELECT id FROM message_fts_docsize);
        END;
        CREATE TRIGGER messages_update_before BEFORE UPDATE OF record ON messages BEGIN
          INSERT INTO message_fts(message_fts, rowid, text, reasoning, tool, tool_io)
            SELECT 'delete', rowid, text, reasoning, tool, tool_io FROM message_text
            WHERE rowid = old.rowid AND old.rowid IN (SELECT id FROM message_fts_docsize);
        END;
        CREATE TRIGGER messages_update_after AFTER UPDATE OF record ON messages BEGIN
          INSERT INTO message_fts(rowid, text, reasoning, tool, tool_io)
            SELECT rowid, text, reasoning, tool, tool_io FROM message_text WHERE rowid = new.rowid;
        END;
        """

    private static func makeParentFolder(of path: String) throws {
        let bytes = Array(path.utf8)
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "/") && index > 0 {
            let folder = String(decoding: bytes[..<index], as: UTF8.self)
            if mkdir(folder, 0o700) != 0 && errno != EEXIST {
                throw ToolError(.failure, "cannot make \(folder): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Creating the schema while another process does: BEGIN IMMEDIATE waits for it.
    private func withBusyRetry(_ body: () throws -> Void) throws {
        do { try body() } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// Checks the file and that the full-text index matches the stored records (exit 1 if not).
    public func verify() throws {
        try database.execute("PRAGMA integrity_check; INSERT INTO message_fts(message_fts) VALUES ('integrity-check')")
        // The pairs, when they are current (else the next ingest makes them again).
        try database.execute("BEGIN")
        defer { try? database.execute("COMMIT") }
        if grams.isCurrent() { try database.execute("INSERT INTO message_grams(message_grams) VALUES ('integrity-check')") }
    }

    public func begin() throws {
        try database.execute("BEGIN IMMEDIATE")
        gramsCurrent = grams.isCurrent()
        copiesCurrent = try rankingCopiesAreCurrent()
        addedRows = []
        removedRows = []
        if copiesCurrent { try database.execute(TermCounts.changesSchema) }
    }

    /// The pairs (CommonGrams) are stamped as current when they were current at `begin`; else
    /// they are made again when the ingest ends. So are the copies ranking reads (RowLengths,
    /// TermCounts), in proportion to the rows this transaction changed; unless it (re)indexed a
    /// good part of the index (FullTextIndex.optimizeShare): then they are left out of date, and
    /// made again from the whole index when the ingest ends.
    public func commit() throws {
        if gramsCurrent {
            try grams.stamp()
        } else {
            try grams.forget()
            gramsStale = true
        }
        if copiesCurrent {
            if addedRows.count * FullTextIndex.optimizeShare < (try FullTextIndex(database: database).rows()) {
                let note = try database.prepare(TermCounts.noteAdded)
                for row in addedRows {
                    note.bind(1, Int(row))
                    try note.run()
                }
                try TermCounts.applyChanges(database)
                try RowLengths.update(database, rows: addedRows.union(removedRows))
            } else {
                try TermCounts.forgetChanges(database)
            }
        }
        try database.execute("COMMIT")
    }

    /// Whether the copies ranking reads match the index (in the caller's transaction).
    private func rankingCopiesAreCurrent() throws -> Bool {
        let check = try database.prepare("SELECT (\(RowLengths.stampIsCurrent)) AND (\(TermCounts.stampIsCurrent))")
        return try check.step() && check.int(0) == 1
    }

    /// Before a row leaves the index or is indexed again, in a transaction that keeps the copies
    /// ranking reads in step: its terms are noted as removed, unless the transaction (re)indexed
    /// it already (then they were never counted); after, it is noted as (re)indexed.
    private func removingFromIndex(row: Int64) throws {
        guard copiesCurrent, !addedRows.contains(row) else { return }
        let note = try database.prepare(TermCounts.noteRemoved)
        note.bind(1, Int(row))
        try note.run()
        removedRows.insert(row)
    }

    /// Whether the copies ranking reads matched the index when this transaction began (then its
    /// writes keep them in step), and the rows it indexed or took out of the index.
    private var copiesCurrent = false
    private var addedRows: Set<Int64> = []
    private var removedRows: Set<Int64> = []

    /// The pairs of common words (CommonGrams), and whether they matched the index when this
    /// transaction began (then its writes keep them in step), or at some `begin` of this ingest.
    let grams: CommonGrams
    private var gramsCurrent = false
    private var gramsStale = false

    /// After an ingest that indexed a good part of the archive (FullTextIndex.optimizeShare),
    /// the index is merged into one segment, which each query then reads instead of many, and so
    /// are the pairs of common words (CommonGrams), which are made again instead when the ingest
    /// found them out of date. The copies that ranking reads, the rows' lengths (RowLengths) and
    /// the terms' counts (TermCounts), were kept in step by each transaction; when they are out of
    /// date (a large ingest, another program's writes) and the ingest indexed anything, they are
    /// made again from the whole index. All in one transaction, which stamps the pairs and the
    /// copies with the index as it leaves it.
    public func finishIngest() throws {
        let index = FullTextIndex(database: database)
        try indexMissedRows(index)
        let optimize = try index.worthOptimizing(indexed: indexed)
        if optimize || indexed > 0 || gramsStale {
            try database.execute("BEGIN IMMEDIATE")
            do {
                let gramsWereCurrent = grams.isCurrent()
                let copiesWereCurrent = try rankingCopiesAreCurrent()
                if optimize { try index.optimize() }
                if !gramsWereCurrent {
                    try grams.rebuild()
                } else if optimize {
                    try grams.optimize()
                }
                try grams.stamp()
                if copiesWereCurrent {
                    try RowLengths.stamp(database)
                    try TermCounts.stamp(database)
                } else if indexed > 0 || optimize {
                    try RowLengths.rebuild(database)
                    try TermCounts.rebuild(database)
                }
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        }
        indexed = 0
        gramsStale = false
    }

    /// Indexes the messages the index lacks: those another program (a plain sqlite3) inserted,
    /// since ps-archive indexes what it stores itself rather than by a trigger. Found when the
    /// index holds fewer rows than the table; a record SQLite's JSON functions cannot read is
    /// left out (ps-archive refuses those at the door).
    private func indexMissedRows(_ index: FullTextIndex) throws {
        let count = try database.prepare("SELECT count(*) FROM messages")
        guard try count.step(), count.int(0) > (try index.rows()) else { return }
        count.reset()
        try database.execute("BEGIN IMMEDIATE")
        do {
            try database.execute("""
                INSERT INTO message_fts(rowid, text, reasoning, tool, tool_io)
                  SELECT rowid, text, reasoning, tool, tool_io FROM message_text WHERE rowid IN
                    (SELECT rowid FROM messages WHERE json_valid(record) EXCEPT SELECT id FROM message_fts_docsize)
                """)
            indexed += database.changes
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// The number of segments (b-trees) of the full-text index.
    public func indexSegments() throws -> Int { try FullTextIndex(database: database).segments() }

    @discardableResult
    public func store(_ message: ArchivedMessage) throws -> Bool {
        // The row an update changes, when the pairs or the copies ranking reads are kept in step:
        // its pairs and terms go first, and come back from the view after it (the index's
        // triggers do the same).
        var changing: Int64?
        for statement in [insertMessage, updateMessage] {
            if statement === updateMessage && (gramsCurrent || copiesCurrent) {
                guard let row = try rowToUpdate(message) else { return false }
                if try indexHolds(row) {
                    if gramsCurrent { try grams.remove(row: row) }
                    try removingFromIndex(row: row)
                }
                changing = row
            }
            statement.bind(1, message.source)
            statement.bind(2, message.id)
            statement.bind(3, message.conversationId)
            statement.bind(4, message.role)
            statement.bind(5, message.createdAt)
            statement.bind(6, message.record)
            try statement.run()
            let changed = database.changes > 0
            if let row = changing {
                if gramsCurrent { try grams.add(row: row) }
                if copiesCurrent { addedRows.insert(row) }
            }
            guard changed else { continue }
            indexed += 1
            if statement === insertMessage {
                // A new message (an update's triggers reindex it from the view). Its columns
                // computed here cost a fraction of the view's JSON functions.
                let row = database.lastInsertRowID
                let index = message.columns == nil ? indexFromView : indexColumns
                index.bind(1, row)
                if let columns = message.columns {
                    index.bind(2, columns.text)
                    index.bind(3, columns.reasoning)
                }
                try index.run()
                if copiesCurrent { addedRows.insert(Int64(row)) }
                if gramsCurrent {
                    if let columns = message.columns {
                        try grams.add(row: Int64(row), text: columns.text, reasoning: columns.reasoning)
                    } else {
                        try grams.add(row: Int64(row))
                    }
                }
            }
            return true
        }
        return false
    }

    public func delete(source: String, id: String, keep: Bool) throws {
        if !keep && (gramsCurrent || copiesCurrent), let row = try row(source: source, id: id), try indexHolds(row) {
            if gramsCurrent { try grams.remove(row: row) }
            try removingFromIndex(row: row)
        }
        let statement = keep ? markDeleted : deleteMessage
        statement.bind(1, source)
        statement.bind(2, id)
        try statement.run()
        if !keep { indexed += database.changes }
    }

    /// The row of the message that `updateMessage` would change (one that differs or was marked deleted).
    private func rowToUpdate(_ message: ArchivedMessage) throws -> Int64? {
        findChanged.bind(1, message.source)
        findChanged.bind(2, message.id)
        findChanged.bind(3, message.record)
        defer { findChanged.reset() }
        return try findChanged.step() ? Int64(findChanged.int(0)) : nil
    }

    /// Whether the index holds `row` (one another program inserted is not, until an ingest ends).
    private func indexHolds(_ row: Int64) throws -> Bool {
        findIndexed.bind(1, Int(row))
        defer { findIndexed.reset() }
        return try findIndexed.step()
    }

    private func row(source: String, id: String) throws -> Int64? {
        findRow.bind(1, source)
        findRow.bind(2, id)
        defer { findRow.reset() }
        return try findRow.step() ? Int64(findRow.int(0)) : nil
    }

    public func storeConversation(source: String, id: String, title: String?, record: String) throws {
        let statement = upsertConversation
        statement.bind(1, source)
        statement.bind(2, id)
        statement.bind(3, title)
        statement.bind(4, record)
        try statement.run()
    }

    public func statistics() throws -> [SourceStatistics] {
        let statement = try database.prepare("""
            SELECT s.source,
              (SELECT count(*) FROM messages m WHERE m.source = s.source),
              (SELECT count(*) FROM (SELECT conversation FROM messages m WHERE m.source = s.source AND conversation IS NOT NULL
                                     UNION SELECT id FROM conversations c WHERE c.source = s.source)),
              (SELECT min(created) FROM messages m WHERE m.source = s.source),
              (SELECT max(created) FROM messages m WHERE m.source = s.source)
            FROM (SELECT DISTINCT source FROM messages UNION SELECT DISTINCT source FROM conversations) s ORDER BY s.source
            """)
        var result: [SourceStatistics] = []
        while try statement.step() {
            result.append(SourceStatistics(source: statement.text(0) ?? "", messages: statement.int(1),
                                           conversations: statement.int(2), oldest: statement.text(3), newest: statement.text(4)))
        }
        return result
    }

    public func export(source: String?, _ body: (String) throws -> Void) throws {
        for sql in ["SELECT record FROM conversations WHERE ?1 IS NULL OR source = ?1 ORDER BY source, id",
                    "SELECT record FROM messages WHERE ?1 IS NULL OR source = ?1 ORDER BY rowid"] {
            let statement = try database.prepare(sql)
            statement.bind(1, source)
            while try statement.step() { try body(statement.text(0) ?? "") }
        }
    }

    /// SIGINT and SIGTERM stop a search from now on (exit 130), whatever SQLite is doing.
    public func stopOnSignals() { database.stopOnSignals() }

    private var rankFunctionAdded = false
    /// The rows the last search ranked, and those whose length it read.
    let rankCounts: RankFunction.Counts
    /// The copy of the terms' counts, for the IDF of a query of plain words.
    let terms: TermCounts

    public func search(_ query: ArchiveQuery, _ body: (ArchiveHit) throws -> Void) throws {
        // FTS5 reads a MATCH that starts with "*" as a "special query" (fts5_main.c,
        // fts5SpecialMatch), not a full-text one: it has no phrases for a ranking function to read.
        if query.text.hasPrefix("*") {
            throw ToolError(.usage, "not a full-text query (FTS5 syntax: see ps-search(1)): it starts with \"*\"")
        }
        // Best first by bm25, through ps_rank (RankFunction: bm25's value for each row that can
        // be among the best `limit`, without reading the length of those that cannot). A single
        // phrase with no filter is ranked in one call of it (RankFunction.everyRow), without
        // FTS5's second pass to count the phrase's rows (RankCandidates). The best `limit` are
        // found first, joining the message rows only when a filter needs them (a common word
        // matches tens of thousands of messages); the records and the snippet (matches between
        // control characters the caller turns into bold or brackets) are read for those alone,
        // one by one.
        if !rankFunctionAdded {
            try RankFunction.register(on: database, counting: rankCounts)
            try WindowSnippet.register(on: database)
            rankFunctionAdded = true
            // A search reads most pages once: a small page cache is reused where the default
            // takes new memory for each page, its first touch a page fault.
            try database.execute("PRAGMA cache_size = -256")
        }
        // One read transaction: the copy of the lengths is checked against the index that the
        // search then reads, and the records shown are those ranked, while ps-archive writes.
        try database.execute("BEGIN")
        defer { try? database.execute("COMMIT") }
        rankCounts.copy?.beginSearch()
        defer { rankCounts.copy?.endSearch() }
        rankCounts.phraseRows = { [terms, text = query.text] in terms.phraseRows(text) }
        let filters: [(String, String?)] = [
            ("m.source = ?2", query.source), ("m.conversation = ?3", query.conversationId), ("m.role = ?4", query.role),
            ("m.created >= ?5", query.since), ("m.created < ?6", query.until),
        ].filter { $0.1 != nil }
        let join = filters.isEmpty ? "" : "JOIN messages m ON m.rowid = f.rowid"
        let conditions = filters.map { " AND " + $0.0 }.joined()
        func steps(_ statement: SQLiteStatement) throws -> Bool {
            do {
                return try statement.step()
            } catch is ToolError where database.lastFailureWasInTheQuery {
                throw ToolError(.usage, "not a full-text query (FTS5 syntax: see ps-search(1)): \(database.lastError)")
            }
        }
        func best() throws -> [RankCandidates.Row] {
            rankCounts.candidates = RankCandidates(keep: query.limit)
            let top = try database.prepare("""
                SELECT \(RankFunction.name)(message_fts, ?7, 0) AS rank FROM message_fts f \(join)
                WHERE message_fts MATCH ?1\(conditions) ORDER BY rank LIMIT ?7
                """)
            top.bind(1, query.text)
            top.bind(2, query.source)
            top.bind(3, query.conversationId)
            top.bind(4, query.role)
            top.bind(5, query.since)
            top.bind(6, query.until)
            top.bind(7, query.limit)
            while try steps(top) {}
            return rankCounts.candidates.ranked(limit: query.limit) ?? []  // nil only for one call's ranks
        }
        // With no filter, a query of a single phrase is ranked in one call (RankFunction.everyRow);
        // nil: another query, to be ranked row by row.
        func everyRow() throws -> [RankCandidates.Row]? {
            rankCounts.candidates = RankCandidates(keep: query.limit)
            let first = try database.prepare("""
                SELECT \(RankFunction.name)(message_fts, ?2, \(RankFunction.everyRow)) FROM message_fts WHERE message_fts MATCH ?1 LIMIT 1
                """)
            first.bind(1, query.text)
            first.bind(2, query.limit)
            guard try steps(first) else { return [] }  // nothing matches
            return first.int(0) == 1 ? rankCounts.candidates.ranked(limit: query.limit) : nil
        }
        // A phrase of two common words with no filter, from its pairs (CommonGrams) while they and
        // the copy of the lengths are current; nil: the other ways.
        func fromPairs() throws -> [RankCandidates.Row]? {
            guard rankCounts.copy?.current == true, grams.canFind(query.text) else { return nil }
            rankCounts.candidates = RankCandidates(keep: query.limit)
            rankCounts.indexFigures = try FullTextIndex(database: database).figures()
            defer { rankCounts.indexFigures = nil }
            let first = try database.prepare("""
                SELECT \(RankFunction.name)(message_grams, ?2, \(RankFunction.everyRow)) FROM message_grams WHERE message_grams MATCH ?1 LIMIT 1
                """)
            first.bind(1, query.text)
            first.bind(2, query.limit)
            do {
                guard try first.step() else { return [] }  // nothing matches
            } catch {
                return nil  // a row too long for the copy of the lengths
            }
            guard first.int(0) == 1, let rows = rankCounts.candidates.ranked(limit: query.limit) else { return nil }
            return rows
        }
        // Rounding can leave the order in doubt without FTS5's count (RankCandidates): then again,
        // row by row, with it.
        let rows = try filters.isEmpty ? (fromPairs() ?? everyRow() ?? best()) : best()
        // The snippet of a long message, or of one with many matches, is the window at its first
        // match (WindowSnippet): snippet()'s time grows with the square of a row's matches.
        let hit = try database.prepare("""
            SELECT m.source, m.record, c.record,
              CASE WHEN length(m.record) <= \(WindowSnippet.longRecord)
                    AND \(WindowSnippet.matchesName)(message_fts) <= \(WindowSnippet.snippetMatches)
                THEN snippet(message_fts, -1, char(2), char(3), '…', 16) END
            FROM message_fts f JOIN messages m ON m.rowid = f.rowid
            LEFT JOIN conversations c ON c.source = m.source AND c.id = m.conversation
            WHERE message_fts MATCH ?1 AND f.rowid = ?2
            """)
        let window = try database.prepare("""
            SELECT \(WindowSnippet.name)(message_fts, ?3, ?4, ?5, ?6) FROM message_fts WHERE message_fts MATCH ?1 AND rowid = ?2
            """)
        for row in rows {
            hit.bind(1, query.text)
            hit.bind(2, Int(row.rowid))
            guard try hit.step() else { continue }
            var found = ArchiveHit(source: hit.text(0) ?? "", message: hit.text(1) ?? "", conversation: hit.text(2),
                                   rank: row.rank, snippet: hit.text(3) ?? "")
            let long = hit.text(3) == nil
            hit.reset()
            if long, let record = (try? JSON.parse(found.message))?.objectValue {
                let columns = MessageText(record)
                window.bind(1, query.text)
                window.bind(2, Int(row.rowid))
                for (index, text) in [columns.text, columns.reasoning, columns.tool, columns.toolIO].enumerated() {
                    window.bind(Int32(index + 3), text)
                }
                if try window.step() { found.snippet = window.text(0) ?? "" }
                window.reset()
            }
            try body(found)
        }
    }
}
