import CSQLite

/// A copy of how many rows hold each term of the full-text index (`message_terms`), for the IDF
/// of ps_rank. bm25() counts each phrase's rows with a pass of its own over the phrase's doclist
/// (xQueryPhrase): for a query of two words, one of them common, that pass is much of the
/// search. FTS5 keeps no
/// such count; its vocabulary table (fts5vocab, `row`) computes one by reading every doclist.
///
/// The copy is kept with the copy of the rows' lengths, and stamped the same way (RowLengths):
/// under two keys no term has (an index term is letters and digits), the index's averages and
/// structure records, which change with every write to it. A write transaction that finds it as
/// stamped adds the counts of the rows it indexed and takes away those of the rows it took out
/// (`applyChanges`); else it is made again from the whole index when the ingest ends (`rebuild`).
/// A search uses it only while both are as stamped, and only for a query of plain words, each
/// one token of the index's tokenizer (unicode61, the table's default): then FTS5 makes phrase i
/// of word i, and that token's count is the phrase's. Any other query (a "phrase", prefix*,
/// AND/OR/NOT/NEAR, a column:) is counted by FTS5, as before.
final class TermCounts {
    static let schema = "CREATE TABLE IF NOT EXISTS message_terms(term TEXT PRIMARY KEY, rows) WITHOUT ROWID"
    static let stampIsCurrent = """
        SELECT (SELECT rows FROM message_terms WHERE term = ' averages') IS \(FullTextIndex.averagesRecord)
           AND (SELECT rows FROM message_terms WHERE term = ' structure') IS \(FullTextIndex.structureRecord)
        """

    private let database: SQLiteDatabase
    private var lookup: SQLiteStatement?
    private var tokenizer: IndexTokenizer?

    init(database: SQLiteDatabase) { self.database = database }

    /// Makes the copy again from FTS5's vocabulary, in the caller's transaction.
    static func rebuild(_ database: SQLiteDatabase) throws {
        try database.execute("""
            DELETE FROM message_terms;
            CREATE VIRTUAL TABLE temp.message_vocabulary USING fts5vocab(main, message_fts, row);
            INSERT INTO message_terms(term, rows) SELECT term, doc FROM temp.message_vocabulary;
            DROP TABLE temp.message_vocabulary
            """)
        try stamp(database)
    }

    /// Stamps the copy with the index as it is now, in the caller's transaction.
    static func stamp(_ database: SQLiteDatabase) throws {
        try database.execute("""
            INSERT OR REPLACE INTO message_terms(term, rows)
              SELECT ' averages', coalesce(\(FullTextIndex.averagesRecord), x'');
            INSERT OR REPLACE INTO message_terms(term, rows)
              SELECT ' structure', coalesce(\(FullTextIndex.structureRecord), x'')
            """)
    }

    // MARK: Keeping the copy in step with a transaction

    /// Two temporary FTS5 tables with the index's tokenizer (no `tokenize` option, as
    /// `message_fts`), holding the columns of the rows a transaction took out of the index and of
    /// those it (re)indexed, and their vocabularies: each term's rows among them, counted by FTS5
    /// itself as the index counts them. Made in the connection's temporary database.
    static let changesSchema = """
        CREATE VIRTUAL TABLE IF NOT EXISTS temp.message_terms_removed USING fts5(text, reasoning, tool, tool_io, content = '');
        CREATE VIRTUAL TABLE IF NOT EXISTS temp.message_terms_added USING fts5(text, reasoning, tool, tool_io, content = '');
        CREATE VIRTUAL TABLE IF NOT EXISTS temp.message_terms_removed_rows USING fts5vocab(temp, message_terms_removed, row);
        CREATE VIRTUAL TABLE IF NOT EXISTS temp.message_terms_added_rows USING fts5vocab(temp, message_terms_added, row)
        """

    /// Notes the columns of a row about to leave the index (or to be indexed again), read from the
    /// view as the index was given them.
    static let noteRemoved = """
        INSERT INTO temp.message_terms_removed(text, reasoning, tool, tool_io)
          SELECT text, reasoning, tool, tool_io FROM message_text WHERE rowid = ?1
        """
    /// Notes the columns of a row as the index now holds them.
    static let noteAdded = """
        INSERT INTO temp.message_terms_added(text, reasoning, tool, tool_io)
          SELECT text, reasoning, tool, tool_io FROM message_text WHERE rowid = ?1
        """

    /// Adds the counts of the rows noted as added and takes away those of the rows noted as
    /// removed, empties the notes, and stamps the copy, in the caller's transaction.
    static func applyChanges(_ database: SQLiteDatabase) throws {
        try database.execute("""
            INSERT INTO message_terms(term, rows) SELECT term, doc FROM temp.message_terms_added_rows WHERE true
              ON CONFLICT(term) DO UPDATE SET rows = rows + excluded.rows;
            INSERT INTO message_terms(term, rows) SELECT term, -doc FROM temp.message_terms_removed_rows WHERE true
              ON CONFLICT(term) DO UPDATE SET rows = rows + excluded.rows;
            DELETE FROM message_terms WHERE term IN (SELECT term FROM temp.message_terms_removed_rows) AND rows = 0;
            """)
        try forgetChanges(database)
        try stamp(database)
    }

    /// Empties the notes.
    static func forgetChanges(_ database: SQLiteDatabase) throws {
        try database.execute("""
            INSERT INTO temp.message_terms_removed(message_terms_removed) VALUES ('delete-all');
            INSERT INTO temp.message_terms_added(message_terms_added) VALUES ('delete-all')
            """)
    }

    /// Whether the copy is there and matches the index (an archive made before the copy existed,
    /// or changed since it was made, has none), in the caller's read transaction.
    private func isCurrent() -> Bool {
        guard let check = try? database.prepare(Self.stampIsCurrent) else { return false }
        return ((try? check.step()) ?? false) && check.int(0) == 1
    }

    /// The number of rows each phrase of `query` is in, phrase i being word i; nil when the query
    /// is not plain words or the copy cannot say.
    func phraseRows(_ query: String) -> [Int64]? {
        guard let words = Self.plainWords(query), isCurrent() else { return nil }
        do {
            if tokenizer == nil { tokenizer = try IndexTokenizer(database: database) }
            if lookup == nil { lookup = try database.prepare("SELECT rows FROM message_terms WHERE term = ?1") }
            guard let tokenizer, let lookup else { return nil }
            var rows: [Int64] = []
            for word in words {
                let tokens = try tokenizer.tokens(word)
                guard tokens.count == 1 else { return nil }
                lookup.bind(1, tokens[0])
                defer { lookup.reset() }
                // A term in no row is not in the index.
                rows.append(try lookup.step() ? Int64(lookup.int(0)) : 0)
            }
            return rows
        } catch {
            return nil
        }
    }

    /// The words of a query that FTS5 reads as one phrase each: barewords (ASCII letters, digits
    /// and `_`, or any character beyond ASCII) between spaces, none of them an operator.
    static func plainWords(_ query: String) -> [Substring]? {
        let words = query.split(separator: " ")
        guard !words.isEmpty else { return nil }
        for word in words {
            guard !["AND", "OR", "NOT", "NEAR"].contains(word) else { return nil }
            for byte in word.utf8 {
                let bare = byte >= 0x80 || byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39)
                    || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                guard bare else { return nil }
            }
        }
        return words
    }
}
