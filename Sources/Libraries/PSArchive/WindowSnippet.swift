import CSQLite

/// `ps_window(message_fts, text, reasoning, tool, tool_io)`: the snippet of a long message (or
/// of one with many matches), the words around its first match, each match between ArchiveHit's
/// markers, with "…" where the text goes on. FTS5's `snippet()` scores a window at each match
/// against every other match, and `highlight()` copies its whole result again for each match it
/// adds: both take time in the square of a row's matches, and highlight() memory several times
/// the text. This reads each phrase's first matches in the row (xPhraseFirst, xPhraseNext) and
/// tokenizes the text only up to the window's end. The columns' texts are given (MessageText's,
/// read from the record): FTS5's own (xColumnText) come from the view, whose JSON functions hold
/// many copies of a long text. Other messages keep `snippet()`'s choice of the best window.
enum WindowSnippet {
    static let name = "ps_window"
    /// Messages whose record is longer than this many characters get a window snippet.
    static let longRecord = 16 * 1024
    /// Words in a window, as `snippet()` is asked for (16 tokens), and before the first match.
    static let words: Int32 = 16
    static let wordsBefore: Int32 = 4

    /// `ps_matches(message_fts)`: the number of matches in the row (xInstCount, which reads
    /// each once). A row with more than `snippetMatches` gets a window snippet too.
    static let matchesName = "ps_matches"
    static let snippetMatches = 256

    static func register(on database: SQLiteDatabase) throws {
        guard let api = try database.fts5API(),
              api.pointee.xCreateFunction!(api, name, nil, window, nil) == SQLITE_OK,
              api.pointee.xCreateFunction!(api, matchesName, nil, matches, nil) == SQLITE_OK
        else { throw database.failure("cannot add the full-text snippet functions") }
    }

    private static let matches: fts5_extension_function = { api, context, result, _, _ in
        guard let api = api?.pointee, let context else { return }
        var count: Int32 = 0
        let status = api.xInstCount!(context, &count)
        if status == SQLITE_OK { sqlite3_result_int64(result, Int64(count)) } else { sqlite3_result_error_code(result, status) }
    }

    private static let window: fts5_extension_function = { api, context, result, count, values in
        guard let api = api?.pointee, let context else { return }
        var snippet: [UInt8] = []
        let texts = (0..<Int(count)).map { values![$0] }
        let status = cut(api, context, texts: texts, into: &snippet)
        guard status == SQLITE_OK else {
            sqlite3_result_error_code(result, status)
            return
        }
        snippet.append(0)
        snippet.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                sqlite3_result_text(result, $0.baseAddress, Int32($0.count - 1), transient)
            }
        }
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// The window's tokens: where each lies in the text, and which begin and end a match.
    private final class Tokens {
        let from: Int32, to: Int32
        var opens: [Bool], closes: [Bool]
        var starts: [Int32] = [], ends: [Int32] = []
        /// Tokens seen so far, and whether the text goes on after the window.
        var seen: Int32 = 0
        var more = false
        init(from: Int32, to: Int32) {
            (self.from, self.to) = (from, to)
            opens = Array(repeating: false, count: Int(to - from))
            closes = opens
        }
    }

    private static func cut(_ api: Fts5ExtensionApi, _ context: OpaquePointer, texts: [OpaquePointer?],
                            into snippet: inout [UInt8]) -> Int32 {
        // The first match: the least column and offset of each phrase's first.
        var first: (column: Int32, offset: Int32)?
        let phrases = api.xPhraseCount!(context)
        for phrase in 0..<phrases {
            var iterator = Fts5PhraseIter(), column: Int32 = -1, offset: Int32 = -1
            let status = api.xPhraseFirst!(context, phrase, &iterator, &column, &offset)
            guard status == SQLITE_OK else { return status }
            if column >= 0, first.map({ (column, offset) < ($0.column, $0.offset) }) ?? true { first = (column, offset) }
        }
        let column = first?.column ?? 0
        let from = max(0, (first?.offset ?? 0) - wordsBefore)
        let tokens = Tokens(from: from, to: from + words)
        // Each phrase's matches in the window: none lies before the first match.
        for phrase in 0..<phrases {
            let size = api.xPhraseSize!(context, phrase)
            var iterator = Fts5PhraseIter(), matchColumn: Int32 = -1, offset: Int32 = -1
            let status = api.xPhraseFirst!(context, phrase, &iterator, &matchColumn, &offset)
            guard status == SQLITE_OK else { return status }
            while matchColumn >= 0 && (matchColumn, offset) < (column, tokens.to) {
                if matchColumn == column && offset >= from && size > 0 {
                    tokens.opens[Int(offset - from)] = true
                    tokens.closes[Int(min(offset + size, tokens.to) - 1 - from)] = true
                }
                api.xPhraseNext!(context, &iterator, &matchColumn, &offset)
            }
        }
        guard Int(column) < texts.count, let value = texts[Int(column)],
              let text = sqlite3_value_text(value).map({ UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) })
        else { return SQLITE_OK }
        let count = sqlite3_value_bytes(value)
        guard count > 0 else { return SQLITE_OK }
        var status = SQLITE_OK
        // The tokens up to the window's end, and one more (is there more text?).
        status = withExtendedLifetime(tokens) {
            api.xTokenize!(context, text, count, Unmanaged.passUnretained(tokens).toOpaque()) { user, flags, _, _, start, end in
                let tokens = Unmanaged<Tokens>.fromOpaque(user!).takeUnretainedValue()
                if flags & FTS5_TOKEN_COLOCATED != 0 { return SQLITE_OK }
                defer { tokens.seen += 1 }
                if tokens.seen >= tokens.to {
                    tokens.more = true
                    return SQLITE_DONE
                }
                if tokens.seen >= tokens.from {
                    tokens.starts.append(start)
                    tokens.ends.append(end)
                }
                return SQLITE_OK
            }
        }
        guard status == SQLITE_OK || status == SQLITE_DONE else { return status }
        let bytes = UnsafeRawBufferPointer(start: text, count: Int(count))
        let start = ArchiveHit.matchStart.asciiValue!, end = ArchiveHit.matchEnd.asciiValue!
        if from > 0 { snippet += "…".utf8 }
        var open = false
        for index in tokens.starts.indices {
            if index > 0 { snippet += bytes[Int(tokens.ends[index - 1])..<Int(tokens.starts[index])] }
            if tokens.opens[index] && !open { snippet.append(start); open = true }
            snippet += bytes[Int(tokens.starts[index])..<Int(tokens.ends[index])]
            if tokens.closes[index] && open { snippet.append(end); open = false }
        }
        // A match that goes on past the window (or the text's end) is closed.
        if open { snippet.append(end) }
        if tokens.more { snippet += "…".utf8 }
        return SQLITE_OK
    }
}
