/// The shape of the archive's FTS5 index, and keeping it in one piece. FTS5 writes each
/// transaction's new rows as a new b-tree (a segment) and merges a few at a time (automerge);
/// a query reads every segment for each of its terms, so after an ingest in many batches it reads
/// a dozen where one would do. `INSERT INTO message_fts(message_fts) VALUES('optimize')` merges
/// them all into one; it rewrites the whole index, so an
/// ingest asks for it only when it wrote a good part of the index (`worthOptimizing`): a small
/// cron run's segment is left to automerge, and its cost stays in proportion to the run.
struct FullTextIndex {
    let database: SQLiteDatabase

    /// An ingest that (re)indexed at least this share of the index's rows merges it into one segment.
    static let optimizeShare = 8

    /// FTS5's averages record (id 1 of `%_data`: the index's rows and tokens) and structure
    /// record (id 10: its segments), as SQL values (NULL in an empty index). Both change with
    /// every write to the index: the copies ranking reads (RowLengths, TermCounts) are stamped
    /// with them, and used only while both are as stamped.
    static let averagesRecord = "(SELECT block FROM message_fts_data WHERE id = 1)"
    static let structureRecord = "(SELECT block FROM message_fts_data WHERE id = 10)"

    /// The rows in the index.
    func rows() throws -> Int { Int(try figures().rows) }

    /// The segments (b-trees) of the index: the structure record starts with
    /// a 4-byte cookie (and, in newer SQLite, the 4-byte mark FF 00 00 01 of its second
    /// version), then the number of levels and the number of segments as varints.
    func segments() throws -> Int {
        let statement = try database.prepare("SELECT \(Self.structureRecord)")
        guard try statement.step() else { return 0 }
        var bytes = statement.bytes(0).dropFirst(4)
        if bytes.starts(with: [0xFF, 0x00, 0x00, 0x01]) { bytes = bytes.dropFirst(4) }
        guard Self.varint(&bytes) != nil, let segments = Self.varint(&bytes) else { return 0 }
        return segments
    }

    /// Whether an ingest that indexed `indexed` rows should merge the index into one segment.
    func worthOptimizing(indexed: Int) throws -> Bool {
        guard indexed > 0 else { return false }
        return try indexed * Self.optimizeShare >= rows() && segments() > 1
    }

    /// Merges every segment into one, in the caller's transaction.
    func optimize() throws {
        try database.execute("INSERT INTO message_fts(message_fts) VALUES('optimize')")
    }

    /// The rows in the index and their tokens (all columns), from FTS5's averages record: its
    /// row count, then each column's total, as varints. What bm25 takes from FTS5's
    /// xRowCount and xColumnTotalSize(-1).
    func figures() throws -> (rows: Int64, tokens: Int64) {
        let statement = try database.prepare("SELECT \(Self.averagesRecord)")
        guard try statement.step() else { return (0, 0) }
        var bytes = statement.bytes(0)[...]
        let rows = Self.varint(&bytes) ?? 0
        var tokens = 0
        while let total = Self.varint(&bytes) { tokens += total }
        return (Int64(rows), Int64(tokens))
    }

    /// Reads one varint: up to 8 bytes of 7 bits (high bit set: more follow), then a 9th of 8 bits.
    static func varint(_ bytes: inout Slice<UnsafeRawBufferPointer>) -> Int? {
        var value: UInt64 = 0
        for index in 0..<9 {
            guard let byte = bytes.popFirst() else { return nil }
            if index == 8 { return Int(truncatingIfNeeded: value << 8 | UInt64(byte)) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return Int(truncatingIfNeeded: value) }
        }
        return nil
    }
}
