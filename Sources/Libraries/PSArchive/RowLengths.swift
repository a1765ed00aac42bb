import CSQLite

/// A compact copy of each indexed row's length in tokens (the sum of its columns' lengths, as
/// FTS5's `xColumnSize(-1)` gives it), for ps_rank. FTS5 keeps those lengths in
/// `message_fts_docsize`, one b-tree row per message, and reads one with an SQL statement per
/// row; a search ranking a few thousand rows spread over a large archive touches a different page
/// of that table for nearly each. Here they are two bytes a row, 2,000 rows a chunk
/// (`message_lengths`, within one 4 KB page), read a chunk at a time.
///
/// The copy is stamped with the index's averages and structure records (`message_fts_data` ids 1
/// and 10), which change with every write to the index (each transaction writes a new segment,
/// which the structure record lists). Each of ps-archive's write transactions that finds it as
/// stamped sets the lengths of the rows it changed and stamps it again (`update`, SQLiteArchive);
/// else it is made again from the whole index when the ingest ends (`rebuild`). A
/// search uses the copy only while both are as stamped (`beginSearch`); else every length is
/// read from FTS5, as before. A row whose length does not fit (65,535 tokens or more) is marked
/// `unknown` and read from FTS5 too.
final class RowLengths {
    static let chunkRows = 2000
    static let unknown = UInt16.max
    static let schema = "CREATE TABLE IF NOT EXISTS message_lengths(chunk INTEGER PRIMARY KEY, lengths BLOB NOT NULL)"
    // Chunk -1 holds the averages record the copy was made from, -2 the structure record.
    static let stampIsCurrent = """
        SELECT (SELECT lengths FROM message_lengths WHERE chunk = -1) IS \(FullTextIndex.averagesRecord)
           AND (SELECT lengths FROM message_lengths WHERE chunk = -2) IS \(FullTextIndex.structureRecord)
        """

    private let database: SQLiteDatabase
    /// The chunk being read, through SQLite's incremental blob I/O: moved from chunk to chunk
    /// (`sqlite3_blob_reopen`) with no SQL statement run for each, only during a search.
    private var blob: OpaquePointer?
    /// Whether this search may use the copy.
    private(set) var current = false
    private var chunk = -1
    /// The loaded chunk's lengths (two bytes each, little-endian).
    private let lengths = UnsafeMutableRawBufferPointer.allocate(byteCount: 2 * chunkRows, alignment: 2)

    init(database: SQLiteDatabase) { self.database = database }

    deinit {
        endSearch()
        lengths.deallocate()
    }

    /// Before a search: whether the copy is there and matches the index (an archive made before
    /// the copy existed, or changed since it was made, has none).
    func beginSearch() {
        endSearch()
        guard let check = try? database.prepare(Self.stampIsCurrent) else { current = false; return }
        current = ((try? check.step()) ?? false) && check.int(0) == 1
    }

    /// After a search, before its transaction ends: lets the chunk go (an open blob handle is a
    /// read of its own).
    func endSearch() {
        if let blob { sqlite3_blob_close(blob) }
        blob = nil
        chunk = -1
    }

    /// The row's length, or nil when FTS5 must be asked.
    func length(of row: Int64) -> Int? {
        guard current, row >= 0 else { return nil }
        let wanted = Int(row) / Self.chunkRows
        if wanted != chunk {
            guard load(wanted) else { return nil }
        }
        let value = lengths.load(fromByteOffset: 2 * (Int(row) % Self.chunkRows), as: UInt16.self).littleEndian
        return value == Self.unknown ? nil : Int(value)
    }

    private func load(_ wanted: Int) -> Bool {
        chunk = wanted
        let status: Int32
        if let blob {
            status = sqlite3_blob_reopen(blob, Int64(wanted))
        } else {
            status = sqlite3_blob_open(database.handle, "main", "message_lengths", "lengths", Int64(wanted), 0, &blob)
        }
        guard status == SQLITE_OK, let blob else {
            // A handle that failed to move is spent. No row of that chunk is indexed (SQLITE_ERROR):
            // its lengths are unknown; anything else leaves the copy for this search.
            if let blob { sqlite3_blob_close(blob) }
            self.blob = nil
            if status != SQLITE_ERROR { current = false }
            lengths.initializeMemory(as: UInt8.self, repeating: 0xFF)
            return status == SQLITE_ERROR
        }
        let count = min(Int(sqlite3_blob_bytes(blob)), lengths.count)
        guard sqlite3_blob_read(blob, lengths.baseAddress, Int32(count), 0) == SQLITE_OK else {
            current = false
            return false
        }
        // A chunk's rows past the last indexed one are unknown.
        UnsafeMutableRawBufferPointer(rebasing: lengths[count...]).initializeMemory(as: UInt8.self, repeating: 0xFF)
        return true
    }

    /// Makes the copy again from `message_fts_docsize`, in the caller's transaction.
    static func rebuild(_ database: SQLiteDatabase) throws {
        try database.execute("DELETE FROM message_lengths")
        let insert = try database.prepare("INSERT INTO message_lengths(chunk, lengths) VALUES (?1, ?2)")
        func write(_ chunk: Int, _ bytes: [UInt8]) throws {
            insert.bind(1, chunk)
            insert.bind(2, blob: bytes)
            try insert.run()
        }
        let sizes = try database.prepare("SELECT id, sz FROM message_fts_docsize ORDER BY id")
        var chunk = -1
        var bytes: [UInt8] = []
        while try sizes.step() {
            let row = sizes.int(0)
            guard row >= 0 else { continue }
            if row / chunkRows != chunk {
                if chunk >= 0 { try write(chunk, bytes) }
                chunk = row / chunkRows
                bytes = Array(repeating: 0xFF, count: 2 * chunkRows)
            }
            set(row, length(sizes.bytes(1)), in: &bytes)
        }
        if chunk >= 0 { try write(chunk, bytes) }
        try stamp(database)
    }

    /// Sets the lengths of `rows` (rows whose index entry this transaction wrote or removed) from
    /// `message_fts_docsize`, rewriting only their chunks, in the caller's transaction; then `stamp`
    /// (the caller found the copy current when its transaction began: SQLiteArchive).
    static func update(_ database: SQLiteDatabase, rows: Set<Int64>) throws {
        let size = try database.prepare("SELECT sz FROM message_fts_docsize WHERE id = ?1")
        let read = try database.prepare("SELECT lengths FROM message_lengths WHERE chunk = ?1")
        let write = try database.prepare("INSERT OR REPLACE INTO message_lengths(chunk, lengths) VALUES (?1, ?2)")
        let byChunk = Dictionary(grouping: rows.lazy.map(Int.init).filter { $0 >= 0 }, by: { $0 / chunkRows })
        for (chunk, rows) in byChunk {
            read.bind(1, chunk)
            var bytes = Array(repeating: UInt8(0xFF), count: 2 * chunkRows)
            if try read.step() {
                let stored = read.bytes(0)
                bytes.replaceSubrange(0..<min(stored.count, bytes.count), with: stored.prefix(bytes.count))
            }
            read.reset()
            for row in rows {
                size.bind(1, row)
                // A row no longer indexed is unknown, as in `rebuild`.
                set(row, try size.step() ? length(size.bytes(0)) : unknown, in: &bytes)
                size.reset()
            }
            write.bind(1, chunk)
            write.bind(2, blob: bytes)
            try write.run()
        }
        try stamp(database)
    }

    /// Stamps the copy with the index as it is now, in the caller's transaction.
    static func stamp(_ database: SQLiteDatabase) throws {
        try database.execute("""
            INSERT OR REPLACE INTO message_lengths(chunk, lengths)
              SELECT -1, coalesce(\(FullTextIndex.averagesRecord), x'');
            INSERT OR REPLACE INTO message_lengths(chunk, lengths)
              SELECT -2, coalesce(\(FullTextIndex.structureRecord), x'')
            """)
    }

    /// A row's length in the copy, from its `sz` (a varint per column).
    private static func length(_ sz: UnsafeRawBufferPointer) -> UInt16 {
        var blob = sz[...]
        var total = 0
        while !blob.isEmpty, let size = FullTextIndex.varint(&blob) { total += size }
        return total < Int(unknown) ? UInt16(total) : unknown
    }

    private static func set(_ row: Int, _ value: UInt16, in bytes: inout [UInt8]) {
        bytes[2 * (row % chunkRows)] = UInt8(value & 0xFF)
        bytes[2 * (row % chunkRows) + 1] = UInt8(value >> 8)
    }
}
