#if canImport(Glibc)
import Glibc
#endif
import CSQLite

/// Pairs of adjacent common words, each indexed as one token (`message_grams`), so that a phrase
/// of two common words is read from its pair's own list of rows (as Lucene's CommonGrams does).
///
/// Why: FTS5 finds a phrase by reading the positions of each of its words in every row that has
/// them all. For "the the" that is the positions of "the" in nearly every row; the pair's own
/// rows are far fewer (bench/archive gives the search times).
///
/// `message_grams` is a second FTS5 index over the same columns of the same view as
/// `message_fts`, made by the tokenizer `ps_grams`: unicode61's tokens (the index's own), of
/// which it keeps only each pair of adjacent common words (`words`, CommonWords.swift), as one
/// token "first second", in its column. A phrase of two common words is that one token, in the
/// same rows and columns, as many times in each as the phrase: bm25's frequencies and the
/// phrase's rows come from the pairs, and the rest of bm25 (the rows' lengths, their number and
/// average) from `message_fts` (RankFunction's `Counts.indexFigures`), so the ranks are bm25()'s.
///
/// Only ps-archive keeps it in step with the index (SQLiteArchive), not triggers: a trigger would
/// need this tokenizer, and a plain `sqlite3` changing the archive would fail. So each of
/// ps-archive's write transactions stamps it with message_fts's averages and structure records
/// (which change with every write to the index), having found the stamp current when it began:
/// then no other program wrote in between. A search uses the pairs only while the stamp is
/// current; an ingest that finds it out of date leaves the pairs alone and makes them again from
/// the view when it ends (`rebuild`, which reads every message).
final class CommonGrams {
    static let tokenizerName = "ps_grams"
    /// Of the words and the pairs' spelling: an archive with another makes its pairs again.
    static let version = 1

    static let schema = """
        CREATE VIRTUAL TABLE IF NOT EXISTS message_grams USING fts5(
          text, reasoning, tool, tool_io, content = 'message_text', content_rowid = 'rowid',
          tokenize = '\(tokenizerName)', columnsize = 0);
        CREATE TABLE IF NOT EXISTS message_grams_stamp(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
        INSERT OR IGNORE INTO message_grams_stamp(key, value) SELECT * FROM (\(stampValues))
          WHERE NOT EXISTS (SELECT 1 FROM message_fts_docsize)
        """
    private static let stampValues = """
        VALUES ('averages', coalesce(\(FullTextIndex.averagesRecord), x'')),
               ('structure', coalesce(\(FullTextIndex.structureRecord), x'')), ('version', \(version))
        """
    private static let stampIsCurrent = """
        SELECT (SELECT value FROM message_grams_stamp WHERE key = 'averages') IS coalesce(\(FullTextIndex.averagesRecord), x'')
           AND (SELECT value FROM message_grams_stamp WHERE key = 'structure') IS coalesce(\(FullTextIndex.structureRecord), x'')
           AND (SELECT value FROM message_grams_stamp WHERE key = 'version') IS \(version)
        """

    private let database: SQLiteDatabase
    private var tokenizer: IndexTokenizer?

    init(database: SQLiteDatabase) { self.database = database }

    // MARK: Keeping the pairs

    /// Whether the pairs match the index (in the caller's transaction): false too in an archive
    /// made before they existed.
    func isCurrent() -> Bool {
        guard let check = try? database.prepare(Self.stampIsCurrent) else { return false }
        return ((try? check.step()) ?? false) && check.int(0) == 1
    }

    /// Stamps the pairs as matching the index as it is now, at the end of a write transaction
    /// that found them current.
    func stamp() throws {
        try database.execute("INSERT OR REPLACE INTO message_grams_stamp(key, value) \(Self.stampValues)")
    }

    /// Marks the pairs out of date, until `rebuild`.
    func forget() throws {
        try database.execute("DELETE FROM message_grams_stamp")
    }

    /// Makes every pair again from the view, for the rows the index holds (not a record another
    /// program stored that SQLite's JSON functions cannot read), and merges them into one
    /// segment; then `stamp`. (FTS5's own 'rebuild' fails on this view: "SQL logic error".)
    func rebuild() throws {
        try database.execute("""
            INSERT INTO message_grams(message_grams) VALUES('delete-all');
            INSERT INTO message_grams(rowid, text, reasoning, tool, tool_io)
              SELECT rowid, text, reasoning, tool, tool_io FROM message_text
              WHERE rowid IN (SELECT id FROM message_fts_docsize);
            INSERT INTO message_grams(message_grams) VALUES('optimize')
            """)
    }

    /// Merges the pairs' segments into one (when the index's are: FullTextIndex).
    func optimize() throws {
        try database.execute("INSERT INTO message_grams(message_grams) VALUES('optimize')")
    }

    private lazy var addColumns = try? database.prepare(
        "INSERT INTO message_grams(rowid, text, reasoning, tool, tool_io) VALUES (?1, ?2, ?3, NULL, NULL)")
    private lazy var addFromView = try? database.prepare("""
        INSERT INTO message_grams(rowid, text, reasoning, tool, tool_io)
          SELECT rowid, text, reasoning, tool, tool_io FROM message_text WHERE rowid = ?1
        """)
    private lazy var removeFromView = try? database.prepare("""
        INSERT INTO message_grams(message_grams, rowid, text, reasoning, tool, tool_io)
          SELECT 'delete', rowid, text, reasoning, tool, tool_io FROM message_text WHERE rowid = ?1
        """)

    /// A new row's pairs, from the columns given to message_fts (text and reasoning; no tool).
    func add(row: Int64, text: String?, reasoning: String?) throws {
        guard let statement = addColumns else { throw database.failure(database.lastError) }
        statement.bind(1, Int(row))
        statement.bind(2, text)
        statement.bind(3, reasoning)
        try statement.run()
    }

    /// A row's pairs, from the view (as its index row is made).
    func add(row: Int64) throws {
        guard let statement = addFromView else { throw database.failure(database.lastError) }
        statement.bind(1, Int(row))
        try statement.run()
    }

    /// Takes a row's pairs out, before the row changes or goes: FTS5 is given the values it was
    /// indexed with, read from the view as they still are.
    func remove(row: Int64) throws {
        guard let statement = removeFromView else { throw database.failure(database.lastError) }
        statement.bind(1, Int(row))
        try statement.run()
    }

    // MARK: Searching with them

    /// Whether `query` can be found from the pairs: it is one quoted phrase of two common words
    /// ("of the", "The The"), and the pairs are current (in the search's transaction).
    func canFind(_ query: String) -> Bool {
        guard let inside = Self.phraseInside(query) else { return false }
        do {
            if tokenizer == nil { tokenizer = try IndexTokenizer(database: database) }
            guard let tokens = try tokenizer?.tokens(inside), tokens.count == 2,
                  tokens.allSatisfy({ token in token.utf8CString.withUnsafeBufferPointer { Self.isCommon($0.baseAddress!, token.utf8.count) } })
            else { return false }
        } catch {
            return false
        }
        return isCurrent() && (try? addTokenizer()) != nil
    }

    /// The text between the quotes of a query that is one "phrase" and nothing else.
    static func phraseInside(_ query: String) -> Substring? {
        var text = Substring(query)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { return nil }
        let inside = text.dropFirst().dropLast()
        return inside.contains("\"") ? nil : inside
    }

    // MARK: The tokenizer

    private var tokenizerAdded = false

    /// Registers `ps_grams` on the connection, once: before the table is made or read (a search
    /// that does not read it does without).
    func addTokenizer() throws {
        guard !tokenizerAdded else { return }
        try Self.register(on: database)
        tokenizerAdded = true
    }

    /// Registers `ps_grams` on `database`.
    static func register(on database: SQLiteDatabase) throws {
        guard let api = try database.fts5API() else { throw database.failure("no full-text search in this SQLite") }
        var methods = fts5_tokenizer(xCreate: create, xDelete: delete, xTokenize: tokenize)
        guard api.pointee.xCreateTokenizer(api, tokenizerName, UnsafeMutableRawPointer(api), &methods, nil) == SQLITE_OK
        else { throw database.failure("cannot add the full-text tokenizer \(tokenizerName)") }
    }

    /// A table's tokenizer: unicode61 inside, and the state of its current call (a tokenizer
    /// is used by one statement at a time).
    private final class Tokenizer {
        var methods = fts5_tokenizer()
        var inner: OpaquePointer?
        let pairing = UnsafeMutablePointer<Pairing>.allocate(capacity: 1)

        init() { pairing.initialize(to: Pairing()) }

        deinit {
            if let inner { methods.xDelete(inner) }
            pairing.pointee.buffer.deallocate()
            pairing.deinitialize(count: 1)
            pairing.deallocate()
        }
    }

    private static let create: @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?, Int32, UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32 = { api, _, arguments, out in
        // It takes no options: the pairs are of unicode61's tokens with its defaults, as the index's.
        guard arguments == 0, let api = api?.assumingMemoryBound(to: fts5_api.self), let out else { return SQLITE_ERROR }
        let tokenizer = Tokenizer()
        var context: UnsafeMutableRawPointer?
        guard api.pointee.xFindTokenizer(api, "unicode61", &context, &tokenizer.methods) == SQLITE_OK,
              tokenizer.methods.xCreate(context, nil, 0, &tokenizer.inner) == SQLITE_OK, tokenizer.inner != nil
        else { return SQLITE_ERROR }
        out.pointee = OpaquePointer(Unmanaged.passRetained(tokenizer).toOpaque())
        return SQLITE_OK
    }

    private static let delete: @convention(c) (OpaquePointer?) -> Void = { tokenizer in
        guard let tokenizer else { return }
        Unmanaged<Tokenizer>.fromOpaque(UnsafeRawPointer(tokenizer)).release()
    }

    typealias TokenCallback = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, Int32, Int32) -> Int32

    private static let tokenize: @convention(c) (
        OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, TokenCallback?
    ) -> Int32 = { tokenizer, context, flags, text, length, emit in
        guard let tokenizer, let emit else { return SQLITE_ERROR }
        let inside = Unmanaged<Tokenizer>.fromOpaque(UnsafeRawPointer(tokenizer)).takeUnretainedValue()
        inside.pairing.pointee.start(emit: emit, context: context)
        if let text, asciiOnly(text, Int(length)) { return inside.pairing.pointee.takeASCII(text, Int(length)) }
        return inside.methods.xTokenize(inside.inner, inside.pairing, flags, text, length, forward)
    }

    /// Each of unicode61's tokens to `take`, through a plain pointer: no reference counting per token.
    private static let forward: TokenCallback = { pairing, _, token, count, start, end in
        pairing!.assumingMemoryBound(to: Pairing.self).pointee.take(token, Int(count), start, end)
    }

    /// The pairs the tokenizer makes of `text`, through unicode61 or (an ASCII text) without it:
    /// both must give the same.
    static func pairs(of text: String, database: SQLiteDatabase, throughUnicode61: Bool) throws -> [String] {
        guard let api = try database.fts5API() else { return [] }
        var made: OpaquePointer?
        guard create(UnsafeMutableRawPointer(api), nil, 0, &made) == SQLITE_OK, let made else {
            throw database.failure("cannot open the tokenizer \(tokenizerName)")
        }
        defer { delete(made) }
        let inside = Unmanaged<Tokenizer>.fromOpaque(UnsafeRawPointer(made)).takeUnretainedValue()
        final class Collected { var pairs: [String] = [] }
        let collected = Collected()
        inside.pairing.pointee.start(emit: { context, _, token, count, _, _ in
            let bytes = UnsafeRawBufferPointer(start: token, count: Int(count))
            Unmanaged<Collected>.fromOpaque(context!).takeUnretainedValue().pairs.append(String(decoding: bytes, as: UTF8.self))
            return SQLITE_OK
        }, context: Unmanaged.passUnretained(collected).toOpaque())
        var text = text
        _ = text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                throughUnicode61
                    ? inside.methods.xTokenize(inside.inner, inside.pairing, FTS5_TOKENIZE_DOCUMENT, chars.baseAddress, Int32(chars.count), forward)
                    : inside.pairing.pointee.takeASCII(chars.baseAddress!, chars.count)
            }
        }
        return collected.pairs
    }

    /// Whether the text is ASCII: then unicode61's tokens (with its default options) are its runs
    /// of letters and digits, lower-cased, found here without a call per token (tokenizing the
    /// text again in unicode61 was most of what the pairs added to an ingest).
    private static func asciiOnly(_ text: UnsafePointer<CChar>, _ length: Int) -> Bool {
        let bytes = UnsafeRawPointer(text)
        var index = 0
        while index + 8 <= length {
            if bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < length {
            if bytes.load(fromByteOffset: index, as: UInt8.self) & 0x80 != 0 { return false }
            index += 1
        }
        return true
    }

    /// One call of the tokenizer: where its tokens go, and the token before when it was a common
    /// word (in `buffer`, where the pair is put together).
    private struct Pairing {
        var emit: TokenCallback?
        var context: UnsafeMutableRawPointer?
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: 2 * CommonGrams.longest + 1)
        let words = CommonGrams.lookup
        /// The length of the token before, when it was a common word; else 0.
        var previousLength = 0
        var previousStart: Int32 = 0

        mutating func start(emit: @escaping TokenCallback, context: UnsafeMutableRawPointer?) {
            (self.emit, self.context, previousLength) = (emit, context, 0)
        }

        /// The pairs of an ASCII text (see `asciiOnly`): each token is lower-cased and packed
        /// into two numbers as it is read, and looked up by them.
        mutating func takeASCII(_ text: UnsafePointer<CChar>, _ length: Int) -> Int32 {
            let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
            let lower = words.lower, longest = words.longest
            var index = 0
            while index < length {
                while index < length && lower[Int(bytes[index])] == 0 { index += 1 }
                let start = index
                var low: UInt64 = 0, high: UInt64 = 0
                while index < length {
                    let byte = lower[Int(bytes[index])]
                    if byte == 0 { break }
                    let count = index &- start
                    // (Masking shifts: the checked ones cost more than the rest of the loop.)
                    if count < 8 {
                        low |= UInt64(byte) &<< UInt64(truncatingIfNeeded: 8 &* count)
                    } else if count < 15 {
                        high |= UInt64(byte) &<< UInt64(truncatingIfNeeded: 8 &* (count &- 8))
                    }
                    index &+= 1
                }
                let count = index - start
                guard count > 0 else { break }
                guard count <= longest, words.contains(low, high | UInt64(count) << 56) else {
                    previousLength = 0
                    continue
                }
                let place = nextPlace
                withUnsafeBytes(of: low.littleEndian) { place.update(from: $0.bindMemory(to: CChar.self).baseAddress!, count: min(count, 8)) }
                if count > 8 {
                    withUnsafeBytes(of: high.littleEndian) { (place + 8).update(from: $0.bindMemory(to: CChar.self).baseAddress!, count: count - 8) }
                }
                let status = commonWord(count, Int32(start), Int32(index))
                guard status == SQLITE_OK else { return status }
            }
            return SQLITE_OK
        }

        /// A token of unicode61's.
        mutating func take(_ token: UnsafePointer<CChar>?, _ length: Int, _ start: Int32, _ end: Int32) -> Int32 {
            guard let token, words.contains(token, length) else {
                previousLength = 0
                return SQLITE_OK
            }
            nextPlace.update(from: token, count: length)
            return commonWord(length, start, end)
        }

        /// Where a common word goes in `buffer`: after the one before and a space, if any.
        private var nextPlace: UnsafeMutablePointer<CChar> { buffer + previousLength + (previousLength > 0 ? 1 : 0) }

        /// A common word of `length` bytes, put at `nextPlace`: with the word before, a pair;
        /// then it is the word before.
        private mutating func commonWord(_ length: Int, _ start: Int32, _ end: Int32) -> Int32 {
            if previousLength > 0 {
                let place = nextPlace
                buffer[previousLength] = 0x20
                let status = emit!(context, 0, buffer, Int32(previousLength + 1 + length), previousStart, end)
                guard status == SQLITE_OK else { return status }
                memmove(buffer, place, length)
            }
            previousLength = length
            previousStart = start
            return SQLITE_OK
        }
    }

    // MARK: The words

    /// The longest common word, in bytes (at most 15).
    static let longest = words.map(\.utf8.count).max() ?? 0

    /// The words, for looking tokens up (made once, never freed).
    private static let lookup = Lookup(words)

    /// Whether the token of `length` bytes at `bytes` is a common word.
    static func isCommon(_ bytes: UnsafePointer<CChar>, _ length: Int) -> Bool { lookup.contains(bytes, length) }

    /// The common words in a hash table of 512 slots, each word packed into two numbers (its
    /// bytes, and its length in the top byte of the second); and ASCII's bytes lower-cased, 0 for
    /// those that are not letters or digits (unicode61's separators).
    private struct Lookup {
        let slots: UnsafeMutablePointer<(UInt64, UInt64)>
        let lower: UnsafeMutablePointer<UInt8>
        let longest: Int
        static let mask = 511

        init(_ words: [String]) {
            longest = words.map(\.utf8.count).max() ?? 0
            precondition(longest < 16 && words.count < Self.mask / 2)
            slots = .allocate(capacity: Self.mask + 1)
            slots.initialize(repeating: (0, 0), count: Self.mask + 1)
            for word in words {
                let key = word.utf8CString.withUnsafeBufferPointer { Self.pack($0.baseAddress!, word.utf8.count) }
                var slot = Self.slot(key)
                while slots[slot] != (0, 0) { slot = (slot + 1) & Self.mask }
                slots[slot] = key
            }
            lower = .allocate(capacity: 256)
            for byte in 0..<256 {
                let letter = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte), digit = (0x30...0x39).contains(byte)
                lower[byte] = letter ? UInt8(byte | 0x20) : digit ? UInt8(byte) : 0
            }
        }

        static func pack(_ bytes: UnsafePointer<CChar>, _ length: Int) -> (UInt64, UInt64) {
            var low: UInt64 = 0, high = UInt64(length) << 56
            for index in 0..<min(length, 15) {
                let byte = UInt64(UInt8(bitPattern: bytes[index]))
                if index < 8 { low |= byte << (8 * index) } else { high |= byte << (8 * (index - 8)) }
            }
            return (low, high)
        }

        static func slot(_ key: (UInt64, UInt64)) -> Int {
            Int(truncatingIfNeeded: ((key.0 ^ (key.1 &* 0xFF51_AFD7_ED55_8CCD)) &* 0x9E37_79B9_7F4A_7C15) >> 55) & mask
        }

        func contains(_ low: UInt64, _ high: UInt64) -> Bool {
            var slot = Self.slot((low, high))
            while true {
                let found = slots[slot]
                if found.0 == low && found.1 == high { return true }
                if found == (0, 0) { return false }
                slot = (slot + 1) & Self.mask
            }
        }

        func contains(_ bytes: UnsafePointer<CChar>, _ length: Int) -> Bool {
            guard length > 0, length <= longest else { return false }
            let key = Self.pack(bytes, length)
            return contains(key.0, key.1)
        }
    }
}
