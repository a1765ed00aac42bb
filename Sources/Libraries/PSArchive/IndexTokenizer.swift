import CSQLite

/// The index's tokenizer (FTS5's unicode61 with its default options, as the table is made),
/// through `fts5_api.xFindTokenizer`: the tokens FTS5 makes of a query's words.
final class IndexTokenizer {
    private var methods = fts5_tokenizer()
    private var instance: OpaquePointer?

    init(database: SQLiteDatabase) throws {
        guard let api = try database.fts5API() else { throw database.failure("no full-text search in this SQLite") }
        var context: UnsafeMutableRawPointer?
        guard api.pointee.xFindTokenizer(api, "unicode61", &context, &methods) == SQLITE_OK,
              methods.xCreate(context, nil, 0, &instance) == SQLITE_OK, instance != nil
        else { throw database.failure("cannot open the full-text tokenizer") }
    }

    deinit {
        if let instance { methods.xDelete(instance) }
    }

    /// The tokens FTS5 makes of `text` in a query.
    func tokens(_ text: Substring) throws -> [String] {
        final class Collected { var tokens: [String] = [] }
        let collected = Collected()
        var text = String(text)
        let status = text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                methods.xTokenize(instance, Unmanaged.passUnretained(collected).toOpaque(), FTS5_TOKENIZE_QUERY,
                                  chars.baseAddress, Int32(chars.count)) { context, _, token, count, _, _ in
                    let collected = Unmanaged<Collected>.fromOpaque(context!).takeUnretainedValue()
                    let bytes = UnsafeRawBufferPointer(start: token, count: Int(count))
                    collected.tokens.append(String(decoding: bytes, as: UTF8.self))
                    return SQLITE_OK
                }
            }
        }
        guard status == SQLITE_OK else { throw TokenizerFailure() }
        return collected.tokens
    }

    private struct TokenizerFailure: Error {}
}
