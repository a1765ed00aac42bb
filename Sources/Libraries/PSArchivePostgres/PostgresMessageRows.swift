import PSArchive

/// Storing messages in PostgreSQL: a batch in one INSERT … ON CONFLICT statement (one round
/// trip) per `rowsPerStatement` messages, each row's tsvector and snippet text made from its
/// MessageText by the server.
extension PostgresArchive {
    /// Ten values a row: far below the 65,535 one statement may carry.
    static let rowsPerStatement = 1000

    @discardableResult
    public func store(_ message: ArchivedMessage) throws -> Bool {
        try upsert([message][...]) > 0
    }

    /// What `store` one after another would leave: a message given twice is one row, with its
    /// last record where the first stood (one statement cannot update a row twice).
    public func store(_ messages: [ArchivedMessage]) throws {
        struct Key: Hashable { let source: String, id: String }
        var rows: [ArchivedMessage] = []
        var position: [Key: Int] = [:]
        for message in messages {
            let key = Key(source: message.source, id: message.id)
            if let index = position[key] {
                rows[index] = message
            } else {
                position[key] = rows.count
                rows.append(message)
            }
        }
        var start = 0
        while start < rows.count {
            let end = min(start + Self.rowsPerStatement, rows.count)
            try upsert(rows[start..<end])
            start = end
        }
    }

    /// Inserts the rows in their order (so `seq`, the export's order, follows the input), or
    /// replaces a stored message whose record differs or that is marked deleted; the number changed.
    @discardableResult
    private func upsert(_ rows: ArraySlice<ArchivedMessage>) throws -> Int {
        var values: [String?] = []
        values.reserveCapacity(rows.count * 10)
        var tuples: [String] = []
        tuples.reserveCapacity(rows.count)
        for (number, message) in rows.enumerated() {
            let text = message.searchText
            let first = values.count
            values += [message.source, message.id, message.conversationId, message.role, message.createdAt, message.record,
                       text.text ?? "", text.reasoning ?? "", text.tool ?? "", text.toolIO ?? ""]
            tuples.append("(" + (first + 1...first + 10).map { "$\($0)" }.joined(separator: ",") + ",\(number))")
        }
        var changed = 0
        try query("""
            INSERT INTO ps_archive_messages(source, id, conversation, role, created, record, body, document)
            SELECT source, id, conversation, role, created, record,
              concat_ws(E'\\n', nullif(txt, ''), nullif(reasoning, ''), nullif(tool, ''), nullif(tool_io, '')),
              setweight(to_tsvector('simple', txt), 'A') || setweight(to_tsvector('simple', reasoning), 'B')
              || setweight(to_tsvector('simple', tool), 'C') || setweight(to_tsvector('simple', tool_io), 'D')
            FROM (VALUES \(tuples.joined(separator: ",")))
              AS v(source, id, conversation, role, created, record, txt, reasoning, tool, tool_io, n)
            ORDER BY n
            ON CONFLICT(source, id) DO UPDATE SET conversation = excluded.conversation, role = excluded.role,
              created = excluded.created, record = excluded.record, body = excluded.body, document = excluded.document,
              deleted = false
            WHERE ps_archive_messages.record IS DISTINCT FROM excluded.record OR ps_archive_messages.deleted
            RETURNING 1
            """, values) { _ in changed += 1 }
        return changed
    }
}
